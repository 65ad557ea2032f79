"""Float16, differential against Polars: casts, arithmetic computed in Float32 and stored
back, comparisons with NaN/inf/-0.0, aggregations (whole column, group_by, over), sort,
unique and group keys, supertypes, NumPy float16 and Arrow halffloat round trips."""

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

import frazil as fz
from fuzz.harness import assert_same

NAN, INF = float("nan"), float("inf")


def half_frame():
    return pl.DataFrame({
        "g": [1, 2, 1, 2, 1, 3, None, 3],
        "f": pl.Series([1.5, None, -0.0, 0.0, NAN, INF, -INF, 65504.0], dtype=pl.Float16),
        "h": pl.Series([0.25, 2.0, 3.0, None, 1.0, -1.0, 0.5, 2.0], dtype=pl.Float16),
        "i": [1, -2, 3, None, 5, 6, 7, 8],
        "x": [1.1, 2.5, None, 1e6, -3.3, 0.1, 7.0, NAN],
    })


def test_names_and_construction():
    assert fz.Float16 == pl.Float16
    s = fz.Series("f", [1.5, None, 2.0], dtype=fz.Float16)
    assert s.dtype == fz.Float16 and s.to_list() == [1.5, None, 2.0]
    assert repr(s) == repr(pl.Series("f", [1.5, None, 2.0], dtype=pl.Float16))


def test_numpy_and_arrow_round_trips():
    arr = np.array([1.5, -0.0, np.inf, 65504], dtype=np.float16)
    s = fz.Series(arr)
    assert s.dtype == fz.Float16
    out = s.to_numpy()
    assert out.dtype == np.float16 and np.array_equal(out, arr)
    a = fz.Series("f", [1.5, None], dtype=fz.Float16).to_arrow()
    assert a.type == pa.float16()
    back = fz.from_arrow(pa.table({"f": a}))
    assert back.schema["f"] == fz.Float16 and back["f"].to_list() == [1.5, None]
    df = half_frame()
    assert fz.DataFrame(df).to_polars().equals(df)


@pytest.mark.parametrize("chunks", [1, 3])
def test_casts(chunks):
    df = half_frame()
    for t in (pl.Float32, pl.Float64, pl.Int8, pl.Int32, pl.Int64, pl.UInt16, pl.Boolean, pl.String, pl.Int128):
        assert_same(lambda pl, lf: lf.select(pl.col("f", "h").cast(t, strict=False)), df, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.col("x").cast(pl.Float16).alias("x"),
                                         pl.col("i").cast(pl.Float16).alias("i"),
                                         pl.col("i").cast(pl.String).cast(pl.Float16).alias("s")), df, chunks=chunks)


@pytest.mark.parametrize("chunks", [1, 2])
def test_arithmetic(chunks):
    df = half_frame()
    assert_same(lambda pl, lf: lf.select((pl.col("f") + pl.col("h")).alias("add"), (pl.col("f") - pl.col("h")).alias("sub"),
                                         (pl.col("f") * pl.col("h")).alias("mul"), (pl.col("f") / pl.col("h")).alias("div"),
                                         (pl.col("f") // pl.col("h")).alias("fd"), (pl.col("h") % 0.75).alias("mod"),
                                         (pl.col("h") ** 2).alias("pow"), (-pl.col("f")).alias("neg"),
                                         pl.col("f").abs().alias("abs"), pl.col("h").sqrt().alias("sqrt"),
                                         pl.col("h").round(1).alias("round"),
                                         (pl.col("f") * 1000).alias("overflow")), df, chunks=chunks)
    # Supertypes: Float16 with Int8 stays Float16, with Int16 or Float32 is Float32, wider is Float64.
    assert_same(lambda pl, lf: lf.select((pl.col("h") + pl.col("i").cast(pl.Int8)).alias("i8"),
                                         (pl.col("h") + pl.col("i").cast(pl.Int16)).alias("i16"),
                                         (pl.col("h") + pl.col("i")).alias("i64"),
                                         (pl.col("h") + pl.col("x").cast(pl.Float32)).alias("f32"),
                                         (pl.col("h") + pl.col("x")).alias("f64"),
                                         (pl.col("h") + 1).alias("lit")), df, chunks=chunks)


@pytest.mark.parametrize("chunks", [1, 3])
def test_comparisons(chunks):
    df = half_frame()
    assert_same(lambda pl, lf: lf.select((pl.col("f") < pl.col("h")).alias("lt"), (pl.col("f") == pl.col("h")).alias("eq"),
                                         (pl.col("f") == 0.0).alias("zero"), pl.col("f").is_nan().alias("nan"),
                                         pl.col("f").is_infinite().alias("inf"), pl.col("f").is_in([1.5, 0.0]).alias("isin"),
                                         pl.col("f").eq_missing(pl.col("h")).alias("eqm")), df, chunks=chunks)


@pytest.mark.parametrize("chunks", [1, 3])
def test_aggregations(chunks):
    df = half_frame()
    aggs = lambda pl: [pl.col("f", "h").sum().name.suffix("_sum"), pl.col("f", "h").min().name.suffix("_min"),  # noqa: E731
                       pl.col("f", "h").max().name.suffix("_max"), pl.col("h").mean().alias("h_mean"),
                       pl.col("h").std().alias("h_std"), pl.col("h").var().alias("h_var"),
                       pl.col("h").median().alias("h_med"), pl.col("f").n_unique().alias("f_nu")]
    assert_same(lambda pl, lf: lf.select(aggs(pl)), df, chunks=chunks, rel_tol=1e-3)
    assert_same(lambda pl, lf: lf.group_by("g").agg(aggs(pl)), df, chunks=chunks, check_row_order=False, rel_tol=1e-3)
    assert_same(lambda pl, lf: lf.select(pl.col("h").sum().over("g").alias("s")), df, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(aggs(pl)), df.clear())


@pytest.mark.parametrize("chunks", [1, 3])
def test_sort_unique_group(chunks):
    df = half_frame()
    assert_same(lambda pl, lf: lf.sort("f", nulls_last=True).select("f", "i"), df, chunks=chunks)
    assert_same(lambda pl, lf: lf.sort("h", "i", descending=True).select("h", "i"), df, chunks=chunks)
    assert_same(lambda pl, lf: lf.group_by("h").agg(pl.len()).sort("h"), df, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.col("f").unique().sort()), df, chunks=chunks)


def test_search_sorted_and_rank():
    df = pl.DataFrame({"h": pl.Series([0.25, 1.0, 2.0, 3.0, None], dtype=pl.Float16)})
    assert_same(lambda pl, lf: lf.select(pl.col("h").drop_nulls().search_sorted(1.5).alias("pos")), df)
    assert_same(lambda pl, lf: lf.select(pl.col("h").rank().alias("r"), pl.col("h").cum_max().alias("m")), df)


@pytest.mark.parametrize("fn", ["exp", "log1p", "log10", "sin", "arctan", "sqrt", "cbrt"])
def test_float_functions_keep_float16(fn):
    assert_same(lambda m, lf: lf.select(getattr(m.col("f"), fn)(), getattr(m.col("h"), fn)()), half_frame())


@pytest.mark.parametrize(("a", "base"), [("Float16", "Float16"), ("Float16", "Float64"), ("Int32", "Float16"),
                                         ("Int32", "Float32"), ("Float32", "Int32"), ("Int32", "Int32")])
def test_log_base_takes_the_float_dtype(a, base):
    data = pl.DataFrame({"a": pl.Series([1, 3, 9, None, 81, 2], dtype=getattr(pl, a)),
                         "b": pl.Series([3, 3, 9, 3, None, 2], dtype=getattr(pl, base))})
    assert_same(lambda m, lf: lf.select(m.col("a").log(m.col("b")), m.col("a").log(2).alias("c")), data)
