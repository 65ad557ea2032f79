"""A streaming group-by whose first morsels show about as many groups as rows stops grouping
each morsel and passes every row on as its own partial state, grouped once in the combine
(exec/sinks/group_by_sink.cpp). Results must be Polars' for every decomposable aggregation, with
null keys and values, NaN and -0.0, and in first-appearance order when asked."""
import textwrap

from isolated import run_script

SCRIPT = textwrap.dedent(
    """
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    r = np.random.default_rng(8)
    n = 40000
    f = r.random(n)
    f[r.random(n) < 0.05] = np.nan
    f[r.random(n) < 0.05] = -0.0
    df = polars.DataFrame({
        "k": r.integers(0, 30000, n),        # ~ as many groups as rows: pass-through
        "k2": r.integers(0, 3, n).astype(np.int8),
        "few": r.integers(0, 5, n),          # few groups: ordinary partials
        "i": r.integers(-50, 50, n).astype(np.int32),
        "f": f,
    }).with_columns(
        polars.when(polars.col("i") % 17 == 0).then(None).otherwise(polars.col("k")).alias("k"),
        polars.when(polars.col("i") % 5 == 0).then(None).otherwise(polars.col("i")).alias("i"),
    )

    def aggs(pl):
        c = pl.col
        return [c("i").sum().alias("s"), c("f").mean().alias("m"), c("i").min().alias("lo"), c("f").max().alias("hi"),
                c("i").count().alias("c"), pl.len().alias("n"), (c("i").sum() * 2 + c("f").max()).alias("expr")]

    cases = 0
    for keys in (["k"], ["k", "k2"], ["few"]):
        for maintain_order in (False, True):
            want = df.lazy().group_by(keys, maintain_order=maintain_order).agg(aggs(polars)).collect()
            got = fz.DataFrame(df).lazy().group_by(keys, maintain_order=maintain_order).agg(aggs(fz)).collect().to_polars()
            assert_frame_equal(got, want, check_row_order=maintain_order, check_dtypes=True, rel_tol=1e-9)
            cases += 1
    print("ok", cases)
    """
)


def test_high_cardinality_group_by_matches_polars():
    out = run_script(SCRIPT, threads=4, morsel_size=2000)
    assert out.strip().startswith("ok")
