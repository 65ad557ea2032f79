"""Top-level names of the meta part, differential against Polars: cum_fold, cum_reduce,
cum_sum_horizontal (nulls, several chunks, opt on/off), read_lines / scan_lines,
json_normalize, engine objects, wrap_df / wrap_s."""
import io

import polars
import pytest

import frazil as pl
from fuzz.harness import assert_same

DATA = {"a": [1, 2, None, -4], "b": [3, None, 5, 6], "c": [0.5, 1.5, -0.0, float("nan")]}


@pytest.mark.parametrize("include_init", [False, True])
def test_cum_fold(include_init):
    # (Polars raises a ShapeError for a literal initial value with include_init: not compared.)
    if not include_init:
        assert_same(lambda pl, lf: lf.select(pl.cum_fold(pl.lit(1), lambda acc, x: acc + x, ["a", "b"]))
                    .unnest("cum_fold"), DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.cum_fold(pl.col("a"), lambda acc, x: acc * x, [pl.col("b"), "c"],
                                                     include_init=include_init)).unnest("cum_fold"),
                DATA)


def test_cum_reduce_and_cum_sum_horizontal():
    assert_same(lambda pl, lf: lf.select(pl.cum_reduce(lambda acc, x: acc + x, ["a", "b", "c"])).unnest("cum_reduce"),
                DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.cum_sum_horizontal("a", "b")).unnest("cum_sum"), DATA)
    assert_same(lambda pl, lf: lf.select(pl.cum_sum_horizontal("a", "b", "c")).unnest("cum_sum"), DATA, chunks=2)


@pytest.mark.parametrize("data", [b"a,b\r\nc\n\nd", b"x\ny\n", b"", b"\n", "é\n".encode()])
def test_read_lines(data):
    ours = pl.read_lines(io.BytesIO(data))
    theirs = polars.read_lines(io.BytesIO(data))
    assert ours.columns == theirs.columns and ours.to_dicts() == theirs.to_dicts()
    ours = pl.read_lines(io.BytesIO(data), name="l", row_index_name="i", n_rows=2)
    theirs = polars.read_lines(io.BytesIO(data), name="l", row_index_name="i", n_rows=2)
    assert ours.to_dicts() == theirs.to_dicts()


def test_scan_lines_file(tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes(b"one\ntwo\r\nthree")
    assert pl.scan_lines(p).filter(pl.col("line") != "two").collect().to_dicts() == \
        polars.scan_lines(p).filter(polars.col("line") != "two").collect().to_dicts()


@pytest.mark.parametrize("kwargs", [{}, {"max_level": 0}, {"max_level": 1}, {"separator": "_"}])
def test_json_normalize(kwargs):
    data = [{"a": 1, "b": {"c": 2, "d": {"e": 3}}}, {"a": None, "b": {"c": 5}}, {"f": [1, 2]}]
    ours, theirs = pl.json_normalize(data, **kwargs), polars.json_normalize(data, **kwargs)
    assert ours.columns == theirs.columns
    assert ours.to_dicts() == theirs.to_dicts()


def test_engines():
    lf = pl.LazyFrame(DATA)
    for engine in (pl.InMemoryEngine(), pl.StreamingEngine()):
        assert lf.collect(engine=engine).to_dicts()[:2] == lf.collect().to_dicts()[:2]
    assert pl.InMemoryEngine().name == "in-memory" and pl.StreamingEngine().name == "streaming"
    assert isinstance(pl.StreamingEngine(), pl.Engine)
    with pytest.raises(ValueError, match="Invalid engine"):
        lf.collect(engine="bogus")


def test_wrap():
    df = pl.DataFrame(DATA)
    assert pl.wrap_df(df._df).equals(df)
    assert pl.wrap_s(df["a"]._col).equals(df["a"])


@pytest.mark.parametrize("returns_scalar", [False, True])
def test_map_groups(returns_scalar):
    data = {"g": [1, 1, 2, 2, 2], "a": [1, 2, 3, None, 5], "b": [4, 5, 6, 7, 8]}

    def fn(s):
        out = s[0] + s[1]
        return out.sum() if returns_scalar else out

    ours = pl.DataFrame(data).group_by("g", maintain_order=True).agg(
        pl.map_groups(["a", "b"], fn, returns_scalar=returns_scalar))
    theirs = polars.DataFrame(data).group_by("g", maintain_order=True).agg(
        polars.map_groups(["a", "b"], fn, returns_scalar=returns_scalar))
    assert ours.to_dicts() == theirs.to_dicts()


def test_read_parquet_metadata(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "m.parquet"
    pq.write_table(pa.table({"a": [1]}).replace_schema_metadata({"k": "v", "x": "yz"}), p)
    ours, theirs = pl.read_parquet_metadata(p), polars.read_parquet_metadata(p)
    assert ours == theirs and ours["k"] == "v"
    assert pl.read_parquet_metadata(p.read_bytes()) == ours
    with pytest.raises(Exception, match="m2.parquet"):
        pl.read_parquet_metadata(tmp_path / "m2.parquet")


def test_scan_pyarrow_dataset():
    import pyarrow as pa
    import pyarrow.dataset as ds

    dset = ds.dataset(pa.table({"a": [1, 2, 3], "b": ["x", None, "z"]}))
    assert pl.scan_pyarrow_dataset(dset).filter(pl.col("a") > 1).collect().to_dicts() == \
        polars.scan_pyarrow_dataset(dset).filter(polars.col("a") > 1).collect().to_dicts()


def test_lazyframe_map_batches():
    data = {"a": [3, 1, None, 2], "b": ["x", "y", "z", None]}
    assert_same(lambda pl, lf: lf.map_batches(lambda df: df.head(2)), data)
    assert_same(lambda pl, lf: lf.map_batches(lambda df: df.select("a").drop_nulls(), schema={"a": pl.Int64})
                .filter(pl.col("a") > 1), data, chunks=2)
    # validate_output_schema=False: frazil keeps the declared columns (Polars returns what
    # the function gave, whatever the schema says).
    out = pl.LazyFrame(data).map_batches(lambda df: df.select("b", "a"), schema={"a": pl.Int64},
                                         validate_output_schema=False).collect()
    assert out.columns == ["a"] and out["a"].to_list() == data["a"]
    with pytest.raises(pl.exceptions.ComputeError, match="output schema"):
        pl.LazyFrame(data).map_batches(lambda df: df.select("a")).collect()


def test_defer_runs_at_collect():
    calls = []

    def source(p):
        calls.append(1)
        return p.DataFrame({"a": [1.0, None, 3.0], "b": ["x", "y", "z"]})

    schema = {"a": pl.Float64, "b": pl.String}
    lf = pl.defer(lambda: source(pl), schema=schema)
    assert calls == []
    got = lf.filter(pl.col("a") > 1).select("b").collect()
    expected = polars.defer(lambda: source(polars), schema={"a": polars.Float64, "b": polars.String}) \
        .filter(polars.col("a") > 1).select("b").collect()
    assert got.to_dicts() == expected.to_dicts()
    with pytest.raises(pl.exceptions.ComputeError):
        pl.defer(lambda: pl.DataFrame({"a": [1]}), schema=schema).collect()


def test_from_repr_matches_polars():
    import datetime

    df = polars.DataFrame({"a": [1, None, -3], "s": ["x y", None, ""], "f": [1.5, float("nan"), float("-inf")],
                           "b": [True, None, False], "d": [datetime.date(2020, 1, 2), None, datetime.date(1969, 12, 31)],
                           "t": [datetime.datetime(2020, 1, 2, 3, 4, 5), None, datetime.datetime(2001, 1, 1)],
                           "u": pl.Series([None, None, None], dtype=pl.UInt8).to_list(),
                           "h": [datetime.time(1, 2, 3), None, datetime.time(23, 59, 59)]},
                          schema_overrides={"u": polars.UInt8})
    for text in (repr(df), repr(df["s"]), repr(df["a"]), repr(df["f"])):
        ours, theirs = pl.from_repr(text), polars.from_repr(text)
        assert str(ours) == str(theirs)
    with pytest.raises(ValueError, match="truncated"):
        pl.from_repr(repr(polars.DataFrame({"a": list(range(100))})))
