"""The morsel-parallel join (exec/operators/join.cpp) gives Polars' rows in Polars' order for every
join type, whichever side the hash table is built on. It only splits its probe side with
many rows per thread, so this runs frazil in a subprocess with four threads and tiny
morsels."""
import textwrap

from isolated import run_script

SCRIPT = textwrap.dedent(
    """
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    rng = np.random.default_rng(11)

    def frame(n, card, seed):
        r = np.random.default_rng(seed)
        f = r.integers(0, card, n).astype(float)
        f[r.random(n) < 0.05] = np.nan
        f[r.random(n) < 0.05] = -0.0
        return polars.DataFrame({
            "k": r.integers(0, card, n),
            "s": polars.Series([f"key-{i}-long-enough-to-not-inline" if i % 11 else f"k{i}" for i in r.integers(0, card, n)],
                               dtype=polars.String),
            "f": f,
            "v": r.random(n),
        }).with_columns(
            polars.when(polars.col("v") < 0.04).then(None).otherwise(polars.col("k")).alias("k"),
            polars.when(polars.col("v") > 0.97).then(None).otherwise(polars.col("s")).alias("s"),
        )

    cases = 0
    for nl, nr, card in ((5000, 300, 400), (300, 5000, 400), (4000, 4000, 3000), (3000, 3000, 50),
                         (0, 2000, 10), (2000, 0, 10), (1, 2000, 10), (2000, 1, 10)):
        left, right = frame(nl, card, nl + card), frame(nr, card, nr * 7 + card)
        for on in (["k"], ["s"], ["f"], ["k", "s"]):
            for how in ("inner", "left", "right", "full", "semi", "anti"):
                order = "right" if how == "right" else "left"
                kw = {} if how in ("semi", "anti") else {"maintain_order": order}
                want = left.join(right, on=on, how=how, **kw)
                got = fz.DataFrame(left).lazy().join(fz.DataFrame(right).lazy(), on=on, how=how).collect().to_polars()
                if how == "full":
                    # Polars keeps the left order only; the unmatched right rows (v null:
                    # the left's v never is) follow in an order it does not define.
                    tail = lambda df: df.filter(polars.col("v").is_null()).sort(polars.all(), nulls_last=True)
                    assert_frame_equal(tail(got), tail(want), check_dtypes=True)
                    got, want = got.filter(polars.col("v").is_not_null()), want.filter(polars.col("v").is_not_null())
                try:
                    assert_frame_equal(got, want, check_dtypes=True)
                except AssertionError:
                    print("case", nl, nr, card, on, how, got.head(8), want.head(8))
                    raise
                cases += 1
    # Keys that are expressions, and a filter above the join.
    left, right = frame(3000, 200, 1), frame(800, 200, 2)
    want = left.join(right, left_on=polars.col("k") * 2, right_on=polars.col("k") * 2, how="inner",
                     maintain_order="left").filter(polars.col("v") > 0.5)
    got = (fz.DataFrame(left).lazy().join(fz.DataFrame(right).lazy(), left_on=fz.col("k") * 2,
           right_on=fz.col("k") * 2, how="inner").filter(fz.col("v") > 0.5).collect().to_polars())
    assert_frame_equal(got, want, check_dtypes=True)
    print("ok", cases)
    """
)


def test_parallel_join_matches_polars():
    out = run_script(SCRIPT, threads=4, morsel_size=700)
    assert out.strip().startswith("ok")
