"""pl.corr (Pearson, over the rows where both sides are not null) against Polars: whole
frames, per group (H2O group-by q9: corr(v1, v2) ** 2 by id2, id4), expressions as inputs,
constant sides (NaN), empty frames and groups without a complete pair (null)."""
import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

FRAME = pl.DataFrame({
    "g": [1, 1, 1, 2, 2, 2, 2, 3, 4, 4],
    "a": [1, 2, None, 4, 5, 6, 7, 1, None, 3],
    "b": [2.0, 4.5, 3.0, None, 1.0, 0.5, 2.0, 1.0, 1.0, None],
    "c": [5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
})

QUERIES = {
    "select": lambda m, lf: lf.select(m.corr("a", "b")),
    "group_by": lambda m, lf: lf.group_by("g", maintain_order=True).agg(m.corr("a", "b")),
    "expressions": lambda m, lf: lf.select(m.corr(m.col("a") * 2 + 1, "b").alias("r")),
    "constant side": lambda m, lf: lf.select(m.corr("a", "c")),
    "empty": lambda m, lf: lf.head(0).select(m.corr("a", "b")),
    "squared per group": lambda m, lf: lf.group_by("g", maintain_order=True).agg(
        (m.corr("a", "b") ** 2).alias("r2")),
}


@pytest.mark.parametrize("name", list(QUERIES))
def test_corr_matches_polars(name):
    q = QUERIES[name]
    want = q(pl, FRAME.lazy()).collect()
    got = q(fz, fz.DataFrame(FRAME).lazy()).collect().to_polars()
    assert_frame_equal(got, want)


def test_corr_of_large_values_stays_accurate():
    rng = np.random.default_rng(5)
    x = rng.random(10_000) + 1e9
    frame = pl.DataFrame({"x": x, "y": 2 * x + rng.random(10_000)})
    want = frame.select(pl.corr("x", "y"))
    got = fz.DataFrame(frame).lazy().select(fz.corr("x", "y")).collect().to_polars()
    assert_frame_equal(got, want, rel_tol=1e-9)


def test_corr_methods_other_than_pearson_are_refused():
    with pytest.raises(NotImplementedError):
        fz.corr("a", "b", method="spearman")
