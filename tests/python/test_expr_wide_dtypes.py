"""Int128, UInt128 and Float16 through the window and bitwise kernels: 128-bit integers in
their own width (rolling sum/min/max, Expr.rolling's sums and extremes, & | ^ ~, the bit
counts and bitwise_and/or/xor) or as doubles (the other rolling statistics), Float16 in Float32 (sums and extremes stay Float16,
the other statistics are Float64), against Polars: nulls, values beyond 2^64, one row,
empty, several chunks, in agg and over, with optimizations on and off. And the numeric
functions: cum_sum, cum_prod, diff, sign, clip and the horizontal sums and extremes of 128-bit
integers in their width, the float ones (sin, exp, log, skew, ewm_mean, interpolate,
pct_change, hist, cut, ...) over doubles, and every one of Float16 through Float32 (Float16
results). (product, peak_min/max, round_sig_figs and truncate still refuse 128-bit integers:
fuzz/known.py, wide-int-numeric-functions.)"""
import polars as pl
import pytest

from fuzz.harness import assert_same

BIG = 2**100
FRAME = pl.DataFrame({
    "k": [1, 2, 1, 1, 2, 1, 2],
    "t": [1, 2, 3, 5, 6, 8, 9],
    "a": [3, None, -BIG, BIG, 7, -1, 0],
    "u": [3, 5, None, 2 * BIG, 1, 0, 9],
}, schema={"k": pl.Int64, "t": pl.Int64, "a": pl.Int128, "u": pl.UInt128})

QUERIES = {
    "rolling_sum": lambda pl: [pl.col("a").rolling_sum(2), pl.col("u").rolling_sum(3, min_samples=1)],
    "rolling_min_max": lambda pl: [pl.col("a").rolling_min(2), pl.col("u").rolling_max(3, min_samples=1, center=True)],
    "rolling_floats": lambda pl: [pl.col("a").rolling_mean(2), pl.col("u").rolling_median(3, min_samples=1),
                                  pl.col("a").rolling_std(3, min_samples=2), pl.col("u").rolling_rank(2)],
    "rolling_by": lambda pl: [pl.col("a").rolling_sum_by("t", "3i"), pl.col("u").rolling_max_by("t", "2i")],
    "expr_rolling": lambda pl: [pl.col("a").sum().rolling("t", period="3i").alias("s"),
                                pl.col("u").max().rolling("t", period="2i").alias("m")],
    "bitwise": lambda pl: [(pl.col("a") & pl.col("a").shift(1)).alias("and"),
                           (pl.col("u") | pl.col("u").reverse()).alias("or"),
                           (pl.col("a") ^ pl.lit(5, dtype=pl.Int128)).alias("xor"), (~pl.col("u")).alias("not")],
    "cumulative_eval": lambda pl: [pl.col("a").cumulative_eval(pl.element().max())],
    "bit_counts": lambda pl: [pl.col("a").bitwise_count_ones(), pl.col("u").bitwise_count_zeros(),
                              pl.col("a").bitwise_leading_ones().alias("lo"), pl.col("u").bitwise_leading_zeros().alias("lz"),
                              pl.col("a").bitwise_trailing_zeros().alias("tz"), pl.col("u").bitwise_trailing_ones().alias("to")],
    "bit_reductions": lambda pl: [pl.col("a").bitwise_and(), pl.col("u").bitwise_or(),
                                  pl.col("a").bitwise_xor().alias("x")],
}


@pytest.mark.parametrize("rows", [7, 1, 0])
@pytest.mark.parametrize("name", list(QUERIES))
def test_select(name, rows):
    assert_same(lambda pl, lf: lf.select(QUERIES[name](pl)), FRAME.head(rows), chunks=3)


@pytest.mark.parametrize("name", ["rolling_sum", "rolling_min_max", "rolling_floats", "bitwise", "bit_counts",
                                  "bit_reductions"])
def test_over_and_agg(name):
    assert_same(lambda pl, lf: lf.select([e.over("k") for e in QUERIES[name](pl)]), FRAME, chunks=2)
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(QUERIES[name](pl)), FRAME, chunks=2)


HALF = pl.DataFrame({"k": [1, 2, 1, 1, 2], "t": [1, 2, 3, 4, 6], "x": [1.5, 2.0, None, -0.0, 0.5]},
                    schema={"k": pl.Int64, "t": pl.Int64, "x": pl.Float16})
HALF_QUERIES = {
    "sum_min_max": lambda pl: [pl.col("x").rolling_sum(2), pl.col("x").rolling_min(2, min_samples=1),
                               pl.col("x").rolling_max(3, center=True).alias("m")],
    "statistics": lambda pl: [pl.col("x").rolling_mean(2), pl.col("x").rolling_median(3, min_samples=1).alias("md"),
                              pl.col("x").rolling_std(2).alias("s"), pl.col("x").rolling_rank(2).alias("r"),
                              pl.col("x").rolling_quantile(0.3, window_size=3).alias("q")],
    "by_and_expr_rolling": lambda pl: [pl.col("x").rolling_sum_by("t", "2i"), pl.col("x").sum().rolling(
        "t", period="2i").alias("s"), pl.col("x").cumulative_eval(pl.element().sum()).alias("c")],
}


@pytest.mark.parametrize("rows", [5, 1, 0])
@pytest.mark.parametrize("name", list(HALF_QUERIES))
def test_float16(name, rows):
    # (Polars' Float64 statistics of Float16 come out Float16 over no rows, its plan's dtype,
    # and panic inside agg(): "cannot build list with different dtypes".)
    if name == "statistics" and rows == 0:
        pytest.skip("Polars' result dtype over no rows differs from its own with rows")
    assert_same(lambda pl, lf: lf.select(HALF_QUERIES[name](pl)), HALF.head(rows), chunks=2)
    if rows and name != "statistics":
        assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(HALF_QUERIES[name](pl)), HALF.head(rows))


# The numeric functions of issue #16 (the values small enough for the float ones to agree).
SMALL = pl.DataFrame({
    "k": [1, 2, 1, 1, 2, 1],
    "a": [3, None, -7, 5, 1, 3],
    "u": [3, 5, None, 2, 1, 3],
}, schema={"k": pl.Int64, "a": pl.Int128, "u": pl.UInt128})
NUMERIC = {
    "cumulative": lambda pl: [pl.col("a").cum_sum(), pl.col("a").cum_sum(reverse=True).alias("ar"),
                              pl.col("a").cum_prod().alias("p"), pl.col("a").diff().alias("d"),
                              pl.col("u").diff(2).alias("ud")],
    "sign_clip": lambda pl: [pl.col("a").sign(), pl.col("u").sign().alias("us"), pl.col("a").clip(-2, 4).alias("c"),
                             pl.col("u").clip(2).alias("uc")],
    "horizontal": lambda pl: [pl.sum_horizontal("a", "a").alias("s"), pl.min_horizontal("a", "u").alias("mn"),
                              pl.max_horizontal("u", "u").alias("mx"), pl.mean_horizontal("a", "a").alias("m")],
    "floats": lambda pl: [pl.col("a").sin(), pl.col("u").exp().alias("e"), pl.col("a").log(2).alias("l"),
                          pl.col("u").cbrt().alias("c"), pl.arctan2(pl.col("a"), pl.col("u")).alias("t"),
                          pl.col("a").degrees().alias("dg"), pl.col("u").log1p().alias("lp")],
    "ordered_floats": lambda pl: [pl.col("a").ewm_mean(alpha=0.5), pl.col("u").interpolate().alias("i"),
                                  pl.col("a").pct_change().alias("p"), pl.col("u").ewm_std(alpha=0.3).alias("s")],
    "statistics": lambda pl: [pl.col("a").skew(), pl.col("u").kurtosis().alias("ku"),
                              pl.col("u").entropy().alias("en")],
    "bins": lambda pl: [pl.col("a").hist(bins=[-10, 0, 10]).implode().alias("h"),
                        pl.col("u").cut([1, 3]).cast(pl.String).implode().alias("c")],
}


@pytest.mark.parametrize("rows", [6, 1, 0])
@pytest.mark.parametrize("name", list(NUMERIC))
def test_numeric_functions_of_wide_ints(name, rows):
    assert_same(lambda pl, lf: lf.select(NUMERIC[name](pl)), SMALL.head(rows), chunks=2, rel_tol=1e-9)


@pytest.mark.parametrize("name", ["cumulative", "sign_clip", "floats", "ordered_floats"])
def test_numeric_functions_of_wide_ints_over_and_agg(name):
    # (UInt128 inside agg() panics in Polars: "cannot build list with different dtypes".)
    signed = lambda pl: [e for e in NUMERIC[name](pl) if "u" not in e.meta.root_names()]  # noqa: E731
    assert_same(lambda pl, lf: lf.select([e.over("k") for e in NUMERIC[name](pl)]), SMALL, chunks=2)
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(signed(pl)), SMALL, chunks=2)


HALF_NUMERIC = {
    "cumulative": lambda pl: [pl.col("x").cum_sum(), pl.col("x").cum_prod(reverse=True).alias("p"),
                              pl.col("x").diff().alias("d"), pl.col("x").pct_change().alias("pc")],
    "ordered": lambda pl: [pl.col("x").ewm_mean(alpha=0.5), pl.col("x").interpolate().alias("i"),
                           pl.col("x").peak_max().alias("pk")],
    "elementwise": lambda pl: [pl.col("x").sign(), pl.col("x").clip(0, 1).alias("c"),
                               pl.col("x").round_sig_figs(1).alias("r"), pl.col("x").truncate().alias("t"),
                               pl.arctan2(pl.col("x"), pl.col("x")).alias("a")],
    "reductions": lambda pl: [pl.col("x").product(), pl.col("x").skew().alias("s"),
                              pl.col("x").kurtosis().alias("k")],
    "horizontal": lambda pl: [pl.sum_horizontal("x", "x").alias("s"), pl.mean_horizontal("x", "x").alias("m"),
                              pl.min_horizontal("x", "x").alias("mn")],
}


@pytest.mark.parametrize("rows", [5, 1, 0])
@pytest.mark.parametrize("name", list(HALF_NUMERIC))
def test_numeric_functions_of_float16(name, rows):
    # (Polars computes some in Float16, frazil in Float32: a few Float16 ulps apart, as
    # ewm_mean's 0.300049 and 0.300781.)
    assert_same(lambda pl, lf: lf.select(HALF_NUMERIC[name](pl)), HALF.head(rows), chunks=2, rel_tol=5e-3)
    if rows:
        assert_same(lambda pl, lf: lf.select([e.over("k") for e in HALF_NUMERIC[name](pl)]), HALF.head(rows),
                    rel_tol=5e-3)
