"""pl.corr (Pearson, over the rows where both sides are not null) against Polars: whole
frames, per group (H2O group-by q9: corr(v1, v2) ** 2 by id2, id4), expressions as inputs,
constant sides (NaN), empty frames and groups without a complete pair (null); Spearman's
rank correlation on NaN, -0.0, ties, nulls, one row, empty, per group and in over()."""
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


SPEARMAN = pl.DataFrame({
    "g": [1, 1, 1, 1, 2, 2, 3, 3, 3],
    "a": [1.0, float("nan"), 3.0, 2.0, None, 1.0, -0.0, 0.0, 5.0],
    "b": [1, 2, 3, 5, 1, None, 2, 2, 7],
}, schema={"g": pl.Int64, "a": pl.Float64, "b": pl.Int64})
SPEARMAN_QUERIES = {
    "select": lambda m, lf: lf.select(m.corr("a", "b", method="spearman").alias("r")),
    "swapped": lambda m, lf: lf.select(m.corr("b", "a", method="spearman").alias("r")),
    "propagate_nans": lambda m, lf: lf.select(m.corr("a", "b", method="spearman", propagate_nans=True).alias("r")),
    "group_by": lambda m, lf: lf.group_by("g", maintain_order=True).agg(
        m.corr("a", "b", method="spearman").alias("r"), m.corr("a", "b", method="spearman", propagate_nans=True)),
    "over": lambda m, lf: lf.select(m.corr("a", "b", method="spearman").over("g").alias("r")),
    "one row": lambda m, lf: lf.head(1).select(m.corr("a", "b", method="spearman").alias("r")),
    "empty": lambda m, lf: lf.head(0).select(m.corr("a", "b", method="spearman").alias("r")),
    "ties": lambda m, lf: lf.select(m.corr(m.col("a").round(0), m.col("b") // 2, method="spearman").alias("r")),
}


@pytest.mark.parametrize("opt", [True, False])
@pytest.mark.parametrize("name", list(SPEARMAN_QUERIES))
def test_spearman_corr_matches_polars(name, opt):
    q = SPEARMAN_QUERIES[name]
    frame = pl.concat([SPEARMAN.head(4), SPEARMAN.tail(5)], rechunk=False)  # two chunks
    want = q(pl, frame.lazy()).collect()
    flags = fz.QueryOptFlags() if opt else fz.QueryOptFlags.none()
    got = q(fz, fz.DataFrame(frame).lazy()).collect(optimizations=flags).to_polars()
    assert_frame_equal(got, want)


def test_corr_methods_other_than_pearson_and_spearman_are_refused():
    with pytest.raises(ValueError, match="kendall"):
        fz.corr("a", "b", method="kendall")


# Polars gives corr and cov in the sides' supertype when that is Float32 or Float16, else Float64.
FLOATS = pl.DataFrame({
    "g": [1, 1, 1, 2, 2, 2],
    "f32": [1.5, -0.0, None, 4.0, float("nan"), 2.0],
    "g32": [2.0, 1.0, 3.0, 0.5, 1.0, -1.0],
    "f16": [1.0, 2.0, 4.0, None, 0.5, 3.0],
    "i8": [1, 3, 2, 5, None, 1],
    "f64": [0.5, 1.5, 2.5, 1.0, 2.0, 0.0],
    "i32": [7, 1, 3, 2, 2, 9],
}, schema_overrides={"f32": pl.Float32, "g32": pl.Float32, "f16": pl.Float16, "i8": pl.Int8, "i32": pl.Int32})
SIDES = [("f32", "g32"), ("f32", "i8"), ("f16", "i8"), ("f16", "f32"), ("f32", "f64"), ("f32", "i32"),
         ("i8", "i8"), ("f16", "f16")]


@pytest.mark.parametrize("a, b", SIDES)
@pytest.mark.parametrize("stat", ["pearson", "spearman", "cov"])
def test_corr_and_cov_dtype_follows_the_float_supertype(a, b, stat):
    from fuzz.harness import assert_same

    def build(m):
        if stat == "cov":
            return m.cov(a, b).alias("r")
        return m.corr(a, b, method=stat).alias("r")

    assert_same(lambda m, lf: lf.select(build(m)), FLOATS, rel_tol=1e-3)
    assert_same(lambda m, lf: lf.select(build(m)), FLOATS, chunks=3, rel_tol=1e-3)
    assert_same(lambda m, lf: lf.select(build(m)), FLOATS.clear(), rel_tol=1e-3)
    assert_same(lambda m, lf: lf.group_by("g").agg(build(m)).sort("g"), FLOATS, rel_tol=1e-3)
    assert_same(lambda m, lf: lf.select(build(m).over("g")), FLOATS, rel_tol=1e-3)
