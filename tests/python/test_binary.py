"""The bin namespace, differential against Polars: nulls, empty values, per-row arguments,
several chunks, inside agg and over, optimizations on and off (assert_same runs both)."""
import pytest

from fuzz.harness import assert_same, assert_same_error

DATA = {"b": [b"abc", b"", None, b"\x00\x01\x02\x03", b"xbcx"], "p": [b"b", b"", b"a", None, b"x"],
        "n": [1, 2, None, -1, 0], "g": ["a", "b", "a", "b", "a"]}


@pytest.mark.parametrize("fn", ["contains", "starts_with", "ends_with"])
def test_matching(fn):
    assert_same(lambda pl, lf: lf.select(getattr(pl.col("b").bin, fn)(b"b")), DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(getattr(pl.col("b").bin, fn)(pl.col("p"))), DATA)
    assert_same(lambda pl, lf: lf.filter(getattr(pl.col("b").bin, fn)(b"x")), DATA)


@pytest.mark.parametrize("unit", ["b", "kb", "mb"])
def test_size(unit):
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.size(unit)), DATA, chunks=2)


@pytest.mark.parametrize("offset,length", [(0, None), (1, 2), (-2, None), (-10, 3), (5, 1), (1, 0)])
def test_slice(offset, length):
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.slice(offset, length)), DATA, chunks=2)


@pytest.mark.parametrize("n", [0, 2, -1, 10])
def test_head_tail(n):
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.head(n).alias("h"), pl.col("b").bin.tail(n).alias("t")), DATA)


def test_per_row_lengths():
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.head(pl.col("n")).alias("h"),
                                         pl.col("b").bin.slice(pl.col("n")).alias("s")), DATA)


def test_get():
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.get(1, null_on_oob=True)), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.get(-1, null_on_oob=True)), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("b").bin.get(1)), DATA)


@pytest.mark.parametrize("encoding", ["hex", "base64"])
def test_encode_decode_round_trip(encoding):
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.encode(encoding)), DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.encode(encoding).cast(pl.Binary).bin.decode(encoding)), DATA)


@pytest.mark.parametrize("dtype", ["Int32", "UInt32", "Float32", "Int8", "Int64"])
@pytest.mark.parametrize("endianness", ["little", "big"])
def test_reinterpret(dtype, endianness):
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.reinterpret(dtype=getattr(pl, dtype), endianness=endianness)),
                DATA)


WORDS = {"w": [None, b"short", b"justrite", None, b"waytoolong", b"\x06\x00\x00\x00\x00\x00\x00\x00", b""],
         "g": ["a", "b", "a", "b", "a", "b", "a"]}


@pytest.mark.parametrize("dtype", [
    lambda pl: pl.Date, lambda pl: pl.Duration("us"), lambda pl: pl.Duration("ns"), lambda pl: pl.Time,
    lambda pl: pl.Int128, lambda pl: pl.UInt128, lambda pl: pl.Array(pl.UInt32, 2), lambda pl: pl.Array(pl.Int16, 4),
    lambda pl: pl.Array(pl.Duration("ms"), 1), lambda pl: pl.Array(pl.Float64, 1),
])
@pytest.mark.parametrize("endianness", ["little", "big"])
def test_reinterpret_to_temporal_wide_and_array_dtypes(dtype, endianness):
    # Values of another size are null; a Time outside one day is null too.
    q = lambda pl, lf: lf.select(pl.col("w").bin.reinterpret(dtype=dtype(pl), endianness=endianness))  # noqa: E731
    assert_same(q, WORDS)
    assert_same(q, WORDS, chunks=3)
    import polars

    # Polars 2.1 panics gathering reinterpreted Arrays per group: agg() only for the others.
    if not isinstance(dtype(polars), polars.Array):
        assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("w").bin.reinterpret(dtype=dtype(pl))).sort("g"),
                    WORDS)


def test_reinterpret_to_zero_width_array():
    # Compared as Python values: zero-width Arrays do not cross Arrow into Polars 2.1 reliably.
    import frazil
    import polars

    def run(m):
        s = m.Series([b"", None, b"x", b""]).bin.reinterpret(dtype=m.Array(m.UInt8, 0))
        return repr(s.dtype), s.to_list()

    assert run(frazil) == run(polars)


@pytest.mark.parametrize("dtype", [
    lambda pl: pl.String, lambda pl: pl.Array(pl.Array(pl.UInt8, 1), 1), lambda pl: pl.Array(pl.List(pl.UInt8), 1),
    lambda pl: pl.Array(pl.Null, 1), lambda pl: pl.Array(pl.Boolean, 1), lambda pl: pl.Array(pl.UInt32, (2, 2)),
])
def test_reinterpret_to_unsupported_dtypes(dtype):
    import frazil
    import polars

    q = lambda pl, lf: lf.select(pl.col("w").bin.reinterpret(dtype=dtype(pl)))  # noqa: E731
    assert_same_error(q, WORDS)
    for m in (polars, frazil):
        with pytest.raises(m.exceptions.InvalidOperationError,
                           match="cannot reinterpret binary to dtype .*Only numeric or temporal dtype.*reshape"):
            q(m, m.LazyFrame(WORDS)).collect_schema()


def test_in_agg_and_over():
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("b").bin.size().sum()).sort("g"), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.size().max().over("g")), DATA)


def test_empty_frame():
    import polars

    empty = polars.DataFrame({"b": []}, schema={"b": polars.Binary})
    assert_same(lambda pl, lf: lf.select(pl.col("b").bin.size(), pl.col("b").bin.head(1).alias("h")), empty)


def test_not_binary_is_an_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("g").bin.size()), DATA)


@pytest.mark.parametrize("fn", ["contains", "starts_with", "ends_with"])
def test_argument_of_another_length_is_a_shape_error(fn):
    # It read the longer argument's first rows instead.
    import frazil
    import polars

    for m in (polars, frazil):
        with pytest.raises(m.exceptions.ShapeError):
            getattr(m.Series("a", [b"a", b"xyz"], m.Binary).bin, fn)(m.Series([b"x", b"y", b"z"]))
