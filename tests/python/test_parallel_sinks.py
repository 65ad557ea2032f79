"""The parallel sinks (partitioned group_by, partial scalar aggregation) give the same
answers as Polars. They only engage on big inputs or many threads, so this runs frazil in
a subprocess with four threads and tiny morsels."""
import textwrap

from isolated import run_script

SCRIPT = textwrap.dedent(
    """
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    rng = np.random.default_rng(7)
    n = 20_000
    k = rng.integers(0, 300, n).astype(float)
    k[rng.random(n) < 0.05] = np.nan
    pdf = polars.DataFrame({
        "k": rng.integers(0, 300, n),
        "s": [f"key-{i % 97}-long-enough" if i % 13 else None for i in range(n)],
        "f": k,
        "v": rng.random(n),
        "w": rng.integers(-1000, 1000, n),
    }).with_columns(polars.when(polars.col("w") > 900).then(None).otherwise(polars.col("v")).alias("v"))
    fdf = fz.DataFrame(pdf)

    def both(q):
        got = q(fz, fdf.lazy()).collect().to_polars()
        want = q(polars, pdf.lazy()).collect()
        return got, want

    for keys in (["k"], ["s"], ["f"], ["k", "s"]):
        q = lambda m, lf: lf.group_by(keys, maintain_order=True).agg(
            m.col("v").sum(), m.col("w").mean().alias("wm"), m.col("v").max().alias("vmax"),
            m.len(), m.col("v").n_unique().alias("nu"), m.col("w").median().alias("med"),
            m.col("v").first().alias("first"), m.col("w").last().alias("last"))
        got, want = both(q)
        assert_frame_equal(got, want, check_dtypes=True)

    # Only decomposable aggregations: the two-phase (partial per morsel) path for few groups.
    for keys in (["s"], ["k"], [(m_col := "k")]):
        q = lambda m, lf: lf.with_columns((m.col("k") % 7).alias("k7")).group_by(["k7"] + (keys if keys != ["k"] else []), maintain_order=True).agg(
            m.col("v").sum(), m.col("w").mean().alias("wm"), m.col("v").max().alias("vmax"), m.col("s").min().alias("smin"),
            m.len(), m.col("v").count().alias("c"), (m.col("v").sum() / m.len()).alias("ratio"),
            (m.col("w") * 2 + 1).sum().alias("expr_sum"))
        got, want = both(q)
        assert_frame_equal(got, want, check_dtypes=True)

    q = lambda m, lf: lf.filter(m.col("w") > 0).select(
        m.col("v").sum(), m.col("w").mean().alias("wm"), m.col("w").min().alias("wmin"),
        m.col("v").max().alias("vmax"), m.len(), (m.col("v") * 2).count().alias("c"), m.col("w").len().alias("wl"),
        (m.col("v").sum() / m.len()).alias("ratio"))
    got, want = both(q)
    assert_frame_equal(got, want, check_dtypes=True)
    q = lambda m, lf: lf.filter(m.col("w") > 5000).select(m.col("v").sum(), m.col("w").max(), m.len())
    got, want = both(q)
    assert_frame_equal(got, want, check_dtypes=True)
    print("ok")
    """
)


def test_parallel_sinks_match_polars():
    out = run_script(SCRIPT, threads=4, morsel_size=1000)
    assert out.strip().endswith("ok")
