"""str.to_integer / to_decimal / encode / decode / json_decode / json_path_match,
differential against Polars: bases (also per row), integer dtypes and overflow, strict
errors, hex and base64 both ways, JSON of every kind into structs, lists and scalars."""
import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error


@pytest.mark.parametrize("base", [2, 8, 10, 16, 36])
@pytest.mark.parametrize("dtype", [pl.Int64, pl.Int8, pl.UInt8, pl.UInt64, pl.Int32])
def test_to_integer(base, dtype):
    data = {"s": ["12", "-0x1f", "ff", None, " 1", "+5", "-7", "zz", "", "101", "99999999999999999999", "0"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_integer(base=base, dtype=dtype, strict=False)), data)


def test_to_integer_strict_and_per_row_base():
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_integer()), {"s": ["1", "a"]}, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.to_integer(base=37)), {"s": ["1"]},
                      kind="ComputeError")
    data = {"s": ["11", "ff", "7", None], "b": [2, 16, None, 10]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_integer(base=pl.col("b"))), data)
    # A str base is a column name.
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_integer(base="b")), data)


@pytest.mark.parametrize("scale", [0, 2, 5])
def test_to_decimal(scale):
    data = {"s": ["1.25", "-3", "x", None, "1e2", "1.255", " 1", "1.", ".5", "+1", "1e-2", "123456.789"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.to_decimal(scale=scale)), data)


@pytest.mark.parametrize("encoding", ["hex", "base64"])
def test_encode_decode_round_trip(encoding):
    data = {"s": ["héllo", "", None, "a", "ab", "abc", "日本語"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.encode(encoding).alias("e"),
                                         pl.col("s").str.encode(encoding).str.decode(encoding).alias("d")), data)


def test_decode_invalid():
    data = {"s": ["68c3", "zz", None, "6A6B", "abc"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.decode("hex", strict=False)), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.decode("hex")), data, kind="ComputeError")
    b64 = {"s": ["aMOp", "aGk=", "aGk", "-_8=", "+/8=", "", None, "a==="]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.decode("base64", strict=False)), b64)


STRUCT = pl.Struct({"a": pl.Int64, "b": pl.List(pl.Int64), "c": pl.String, "d": pl.Struct({"e": pl.Float64})})


def test_json_decode_structs():
    data = {"s": ['{"a": 1, "b": [1,2], "c": "x", "d": {"e": 2.5}}', None, '{"a": null}', '{"z": 1}',
                  '{"a": 2.9, "b": [], "c": 3, "d": null}', '{"a": 300, "c": "日本", "b": [null, 4]}']}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.json_decode(STRUCT)), data)


@pytest.mark.parametrize("dtype,values", [
    (pl.Float64, ["1", "2.5", "null", "-0.0", "1e300"]),
    (pl.Int8, ["1", "300", "-129", "2.9", "null"]),
    (pl.UInt8, ["-1", "255", "256"]),
    (pl.Boolean, ["true", "false", "null"]),
    (pl.String, ['"a"', "null", "1", "2.50", "true", '"é\\n"']),
    (pl.List(pl.Int64), ["[1, null, 3]", "[]", "null"]),
    (pl.Date, ['"2024-01-31"', "null", "19726", "1.5", "-3"]),
    (pl.Time, ['"07:10:13"', "25813000000000", "-5", "86400000000000", "null"]),
    (pl.List(pl.String), ['["a"]', '"lone"', "3", "null", "[]"]),
])
def test_json_decode_scalars(dtype, values):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.json_decode(dtype)), {"s": values})


def test_json_decode_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.json_decode(pl.Int64)), {"s": ['{"a": 1']},
                      kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.json_decode(pl.Float64)), {"s": ['"x"']},
                      kind="ComputeError")
    # A list takes a lone value but not an object; a Datetime takes no number.
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.json_decode(pl.List(pl.String))), {"s": ['{"q": 1}']},
                      kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.json_decode(pl.Datetime("us"))),
                      {"s": ["1700000000000000"]}, kind="ComputeError")


@pytest.mark.parametrize("path", ["$.a", "$.a.b", "$.a.b[1].c", "$[1]", "$.a[*].b", "$['a b']", "$.c", "$.t",
                                  "$.e", "$.s", "$.n", "$.missing", "$.a.b[-1]"])
def test_json_path_match(path):
    data = {"s": ['{"a": {"b": [1, {"c": "x"}]}}', '{"a": 2}', None, "bad", '[1,2,3]',
                  '{"a": [{"b":1},{"b":2}]}', '{"a b": 1, "c":1.50, "t": true, "e": 1e3, "s": "x\\ny \\u00e9", '
                  '"n": null}', '{"a": {"k": "v",  "n": [1, 2.0]}}']}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.json_path_match(path)), data)


@pytest.mark.parametrize("name", ["Int128", "UInt128", "Float16"])
@pytest.mark.parametrize("values", [["1", "-2", None, "3.5", "null"], [], [None], ["[1]"]])
def test_json_decode_to_wide_and_half_types(name, values):
    import frazil as fz
    import polars as pl

    def run(m):
        return m.Series(values, dtype=m.String).str.json_decode(getattr(m, name)).to_list()
    try:
        want = run(pl)
    except pl.exceptions.ComputeError:
        with pytest.raises(fz.exceptions.ComputeError):
            run(fz)
        return
    assert run(fz) == want


@pytest.mark.parametrize("values", [
    ["40.12", "3420.13", "120134.19", "-62.44", "143.9"],
    ["1.5", None, "22.125", "-3"],                   # Polars reads up to the first null
    [None, "1.5"],
    ["007.50", "+1.5", "2.", ".5"],
    ["0.0100"],
    ["-1"],
    ["12345678901.234567890123458390192857685"],
    ["1.5", "22.125", "3"] * 40 + ["12345.1"],     # past the first 100: out of the precision, null
    ["12345678901234567890123456789012345678901"],  # 41 digits: Polars' precision error
])
def test_series_to_decimal_infers_precision_and_scale(values):
    import frazil

    def run(m):
        try:
            s = m.Series(values).str.to_decimal()
        except m.exceptions.InvalidOperationError as e:
            return str(e)
        return str(s.dtype), s.to_list()

    assert run(frazil) == run(pl)
    got, want = frazil.Series(values).str.to_decimal(scale=3), pl.Series(values).str.to_decimal(scale=3)
    assert (str(got.dtype), got.to_list()) == (str(want.dtype), want.to_list())
    if len(values) > 100:
        got, want = (m.Series(values).str.to_decimal(inference_length=3) for m in (frazil, pl))
        assert (str(got.dtype), got.to_list()) == (str(want.dtype), want.to_list())
