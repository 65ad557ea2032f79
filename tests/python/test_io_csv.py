"""CSV against Polars 2.1: the text write_csv / sink_csv make for every CSV-writable dtype
(Categorical and Enum as their strings, zoned datetimes in local time), file-like targets,
what a failing write leaves behind (no file, no open handle), and the dtypes a scan of
several sources infers (merged over infer_schema_files sources)."""
from __future__ import annotations

import io
import os

import polars
import pytest
from io_frames import every_dtype

import frazil as pl

# Polars refuses these in CSV (nested types, Duration) and writes Binary differently.
NOT_CSV = ["bin", "dur", "list", "list_str", "struct"]


def _frame(n: int) -> pl.DataFrame:
    df = every_dtype(50).drop(NOT_CSV).head(n)
    return df.with_columns(pl.col("str").cast(pl.Categorical).alias("cat"),
                           pl.col("str").cast(pl.Enum(["", "a", "ünïcödé", "x",
                                                       "a long string that does not fit a view inline"])).alias("enum"))


def _polars(df: pl.DataFrame) -> polars.DataFrame:
    return polars.from_arrow(df.to_arrow())


@pytest.mark.parametrize("n", [0, 1, 50])
@pytest.mark.parametrize("options", [{}, {"quote_style": "non_numeric"}, {"quote_style": "always"},
                                     {"separator": ";", "null_value": "NA"}])
def test_text_matches_polars(n: int, options: dict) -> None:
    df = _frame(n)
    assert df.write_csv(**options) == _polars(df).write_csv(**options)


def test_multi_chunk_and_sliced_categoricals_match_polars() -> None:
    df = pl.concat([_frame(50), _frame(50).slice(3, 20)], rechunk=False)
    assert df.write_csv() == _polars(df).write_csv()
    assert df.slice(10, 30).write_csv() == _polars(df).slice(10, 30).write_csv()


def test_path_sink_and_file_objects_hold_the_same_text(tmp_path) -> None:
    df = _frame(50)
    want = _polars(df).write_csv()
    df.write_csv(tmp_path / "a.csv")
    df.lazy().sink_csv(tmp_path / "b.csv")
    b = io.BytesIO()
    df.write_csv(b)
    s = io.StringIO()
    df.write_csv(s)
    with open(tmp_path / "c.csv", "w", encoding="utf-8") as f:
        df.write_csv(f)
    for name in ("a.csv", "b.csv", "c.csv"):
        assert (tmp_path / name).read_text(encoding="utf-8") == want, name
    assert b.getvalue().decode() == want and s.getvalue() == want
    # And a glob reads them back as Polars does.
    got = pl.read_csv(tmp_path / "*.csv")
    assert got.shape == polars.read_csv(tmp_path / "*.csv").shape == (150, df.width)


def _open_fds() -> set:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="needs /proc/self/fd")
def test_a_failing_write_leaves_no_file_and_no_open_handle(tmp_path) -> None:
    df = pl.DataFrame({"a": [1, 2]}).with_columns(pl.duration(seconds=pl.col("a")).alias("d"))
    before = _open_fds()
    for write in (lambda p: df.write_csv(p), lambda p: df.lazy().sink_csv(p)):
        with pytest.raises(pl.exceptions.ComputeError, match="'d'.*cannot be written to CSV"):
            write(tmp_path / "out.csv")
        assert list(tmp_path.iterdir()) == []
    assert _open_fds() == before


def test_a_text_file_that_is_not_utf8_is_refused(tmp_path) -> None:
    df = _frame(5)
    with open(tmp_path / "gbk.csv", "w", encoding="gbk") as f:
        with pytest.raises(pl.exceptions.InvalidOperationError, match="file encoding is not UTF-8"):
            df.write_csv(f)
    assert (tmp_path / "gbk.csv").read_bytes() == b""
    with open(tmp_path / "gbk2.csv", "w", encoding="gbk") as f, \
            pytest.raises(polars.exceptions.InvalidOperationError, match="file encoding is not UTF-8"):
        _polars(df).write_csv(f)


@pytest.mark.parametrize("zone", ["UTC", "Europe/Amsterdam", "Asia/Kolkata", "America/St_Johns"])
@pytest.mark.parametrize("unit", ["ns", "us", "ms"])
@pytest.mark.parametrize("fmt", [None, "%Y-%m-%d %H:%M:%S%.f %z", "%d/%m/%Y %H:%M %:z %Z"])
def test_zoned_datetimes_are_local_time_with_offset(zone: str, unit: str, fmt: str | None) -> None:
    # Across the 2024 daylight-saving changes (clocks forward and back), and a null.
    import datetime

    start = datetime.datetime(2024, 3, 30, 22, 15, 1, 123456)
    values = [start + datetime.timedelta(hours=7 * i) for i in range(40)] + [None]
    df = pl.DataFrame({"t": values}).with_columns(
        pl.col("t").cast(pl.Datetime(unit)).dt.replace_time_zone("UTC").dt.convert_time_zone(zone))
    kw = {} if fmt is None else {"datetime_format": fmt}
    assert df.write_csv(**kw) == _polars(df).write_csv(**kw)


# ------------------------------------------------------------------ several CSV sources

MULTI = [
    ("ints then floats", [b"a\n1", b"a\n2.5"], {}),
    ("ints then strings", [b"a\n1\n2", b"a\nb\nc"], {}),
    ("mixed columns", [b"a,b\n1,x", b"a,b\n2.5,3"], {}),
    ("nulls then ints", [b"a\n\n", b"a\n7"], {}),
    ("union with missing_columns=insert", [b"x,y\n1,2", b"x,z\n3,4"], {"missing_columns": "insert"}),
    ("first file only", [b"a\n1", b"a\n2.5"], {"infer_schema_files": 1}),
    ("nine int files and a string one", 9 * [b"a\n1"] + [b"a\nA"], {}),
]


@pytest.mark.parametrize(("name", "sources", "kw"), MULTI, ids=[m[0] for m in MULTI])
def test_sources_dtypes_merge_as_polars_merges_them(name, sources, kw) -> None:
    def run(m):
        try:
            return m.scan_csv(sources, **kw).collect().to_dict(as_series=False), None
        except Exception as e:  # noqa: BLE001 - the kind of error is compared
            return None, type(e).__name__

    assert run(pl) == run(polars)


@pytest.mark.parametrize("sources", [[b"a\n1", b"b\n4"], [b"a\n1", b"b,c\n4,5"], [b"a,b\n1,2", b"a\n3"]])
def test_sources_whose_columns_differ_raise_when_read(sources) -> None:
    lf = pl.scan_csv(sources)  # the error comes with the read, as in Polars
    with pytest.raises(pl.exceptions.ComputeError, match="schema (names|lengths) differ"):
        lf.collect()
    with pytest.raises(polars.exceptions.ComputeError, match="schema (names|lengths) differ"):
        polars.scan_csv(sources).collect()


def test_a_value_the_merged_dtype_cannot_hold_is_a_polars_worded_error() -> None:
    with pytest.raises(pl.exceptions.ComputeError, match="could not parse `A` as dtype `i64` at column 'a'"):
        pl.scan_csv(10 * [b"a\n1"] + [b"a\nA"]).collect()
    with pytest.raises(polars.exceptions.ComputeError, match="could not parse `A` as dtype `i64` at column 'a'"):
        polars.scan_csv(10 * [b"a\n1"] + [b"a\nA"]).collect()
    with pytest.raises(ValueError, match="invalid zero value"):
        pl.read_csv(b"a\n1", infer_schema_files=0)


@pytest.mark.parametrize("text", [b"\nmeta\nfile\nfoo,bar\n1,2\n", b"\n\nmeta\nfile\nfoo,bar\n1,2\n",
                                  b"\r\n\r\nmeta\r\nfile\r\nfoo,bar\r\n1,2\r\n", b"meta\nfile\nfoo,bar\n1,2\n"])
def test_skip_rows_does_not_count_empty_lines_at_the_start(text) -> None:
    assert pl.read_csv(text, skip_rows=2).to_dict(as_series=False) == \
        polars.read_csv(text, skip_rows=2).to_dict(as_series=False)


def test_skip_rows_over_a_glob_of_files_with_a_preamble(tmp_path) -> None:
    for i in range(2):
        (tmp_path / f"t_{i}.csv").write_text(f"\nmetadata goes here\nfile number {i}\nfoo,bar\n1,2\n4,5\n")
    assert pl.read_csv(tmp_path / "*.csv", skip_rows=2).to_dict(as_series=False) == \
        polars.read_csv(tmp_path / "*.csv", skip_rows=2).to_dict(as_series=False)


SCHEMA_CASES = [
    ("in the header's order", b"a,b\n1,2\n", {"a": "String", "b": "Int32"}, {}),
    ("in another order", b"a,b\nA,B\n", {"b": "String", "a": "String"}, {}),
    ("more columns, inserted", b"a,b,c\na,b,c\n", {k: "String" for k in "abcde"}, {"missing_columns": "insert"}),
    ("fewer columns, ignored", b"a,b,c\n1,2,3\n", {"c": "Int64", "a": "Int8"}, {"extra_columns": "ignore"}),
    ("fewer columns, refused", b"a,b\nA,B\n", {"b": "String"}, {}),
    ("no header: by position", b"1,2\n3,4\n", {"x": "Int64", "y": "String"}, {"has_header": False}),
]


@pytest.mark.parametrize(("name", "text", "schema", "kw"), SCHEMA_CASES, ids=[c[0] for c in SCHEMA_CASES])
def test_a_schema_is_matched_to_the_header_by_name(name, text, schema, kw) -> None:
    def run(m):
        try:
            s = {k: getattr(m, v) for k, v in schema.items()}
            df = m.scan_csv(text, schema=s, **kw).collect()
            return df.to_dict(as_series=False), [str(t) for t in df.dtypes], None
        except Exception as e:  # noqa: BLE001 - the kind of error is compared
            return None, None, type(e).__name__

    assert run(pl) == run(polars)


@pytest.mark.parametrize("text", [b"d\n1.5\n-3.99\n\n1e2\n0.125\n-0\n", b"d\n1.23456\n-0.0005\n", b"d\n123456789.123\n",
                                  b"d\nabc\n"])
def test_decimal_columns_read_as_polars_reads_them(text: bytes) -> None:
    # Rounded to the scale; too wide for the precision, or not a number: Polars' error.
    def read(m):
        return m.read_csv(io.BytesIO(text), schema_overrides={"d": m.Decimal(10, 3)})
    try:
        want = read(polars)
    except polars.exceptions.ComputeError:
        with pytest.raises(pl.ComputeError, match=r"could not parse `.*` as dtype `decimal\[10,3\]` at column 'd'"):
            read(pl)
        return
    got = read(pl)
    assert got.schema == {"d": pl.Decimal(10, 3)}
    assert got["d"].to_list() == want["d"].to_list()


def test_decimal_comma_applies_to_decimal_columns() -> None:
    text = b"d;e\n1,5;2\n-0,25;3\n"
    got = pl.read_csv(io.BytesIO(text), separator=";", decimal_comma=True, schema_overrides={"d": pl.Decimal(10, 3)})
    want = polars.read_csv(io.BytesIO(text), separator=";", decimal_comma=True,
                           schema_overrides={"d": polars.Decimal(10, 3)})
    assert got["d"].to_list() == want["d"].to_list()


@pytest.mark.parametrize("text,dtype", [
    (b"a\n1\n18446744073709551615\n\n", None),  # beyond Int64: inferred Int128
    (b"a\n-170141183460469231731687303715884105728\n170141183460469231731687303715884105727\n", None),
    (b"a\n170141183460469231731687303715884105728\n", None),  # beyond Int128: Polars' error
    (b"a\n1.5\n18446744073709551615\n", None),  # with floats: Float64
    (b"a\n340282366920938463463374607431768211455\n0\n", "UInt128"),
    (b"a\n-0\n", "UInt128"),
    (b"a\n+7\n 8\n", "Int128"),
])
def test_128_bit_integers_read_as_polars_reads_them(text: bytes, dtype: str | None) -> None:
    def read(m):
        return m.read_csv(io.BytesIO(text), **({"schema_overrides": {"a": getattr(m, dtype)}} if dtype else {}))
    try:
        want = read(polars)
    except polars.exceptions.ComputeError:
        with pytest.raises(pl.ComputeError, match="could not parse `.*` as dtype `[iu]128` at column 'a'"):
            read(pl)
        return
    got = read(pl)
    assert str(got.schema) == str(want.schema)
    assert got["a"].to_list() == want["a"].to_list()
