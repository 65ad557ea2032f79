"""A filter applies the conjuncts of its predicate one after the other (exec/operators/operators.cpp):
numeric tests first, and before a test on strings the rows already ruled out are dropped.
Whatever the order and the compaction, the rows kept (and their order) are Polars'. Runs
with tiny morsels so that morsels of every selectivity occur."""
import textwrap

from isolated import run_script

SCRIPT = textwrap.dedent(
    """
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    r = np.random.default_rng(5)
    n = 5000
    f = r.random(n)
    f[r.random(n) < 0.05] = np.nan
    f[r.random(n) < 0.05] = -0.0
    df = polars.DataFrame({
        "i": r.integers(0, 100, n),
        "f": f,
        "s": polars.Series([["AIR", "MAIL", "SHIP", "a-long-string-not-inline", ""][j] for j in r.integers(0, 5, n)]),
        "b": r.random(n) < 0.5,
    }).with_columns(
        polars.when(polars.col("i") % 13 == 0).then(None).otherwise(polars.col("i")).alias("i"),
        polars.when(polars.col("i") % 7 == 0).then(None).otherwise(polars.col("s")).alias("s"),
        polars.when(polars.col("i") % 11 == 0).then(None).otherwise(polars.col("b")).alias("b"),
    )

    def preds(pl):
        c = pl.col
        return [
            [c("s").is_in(["AIR", "MAIL"]), c("i") > 20],
            [c("s") == "a-long-string-not-inline", c("f") < 0.5, c("i") < 90],
            [c("i") > 95, c("s").str.contains("A"), c("b")],
            [c("i") < 1000, c("f") >= 0.0, c("s") != ""],          # almost nothing dropped
            [c("i") < 0, c("s") == "AIR"],                          # everything dropped
            [c("f").is_nan() | c("i").is_null(), c("s").is_null().not_()],
            [c("b").not_(), c("s").str.len_bytes() > 3, c("f") > 0.25, c("i") % 2 == 0],
        ]

    cases = 0
    for k, (want_p, got_p) in enumerate(zip(preds(polars), preds(fz))):
        want = df.lazy().filter(*want_p).collect()
        for opt in (True, False):
            lf = fz.DataFrame(df).lazy().filter(*got_p)
            got = lf.collect(**({} if opt else {"no_optimization": True})).to_polars()
            assert_frame_equal(got, want, check_dtypes=True), k
            cases += 1
        # And through a scan's own predicate (the filter pushed into the source).
        got = fz.DataFrame(df).lazy().select("i", "f", "s", "b").filter(*got_p).select(fz.col("i").sum(), fz.len())
        w = df.lazy().filter(*want_p).select(polars.col("i").sum(), polars.len()).collect()
        assert_frame_equal(got.collect().to_polars(), w, check_dtypes=True)
    print("ok", cases)
    """
)


def test_conjuncts_keep_polars_rows():
    out = run_script(SCRIPT, threads=3, morsel_size=300)
    assert out.strip().startswith("ok")
