"""null_count()/len() compared with small integers: the simplifier's rewrite into
has_nulls / is_empty / constants (as Polars shows in explain), and the same results as
Polars with optimizations on and off, in select, agg and over."""
import pytest

import frazil as pl
from fuzz.harness import assert_same

DATA = {"g": [0, 0, 1, 2, 2], "v": [6, None, 5, None, None]}
CASES = [("null_count", "==", 0), ("null_count", "<", 1), ("null_count", "<=", 0), ("null_count", "!=", 0),
         ("null_count", ">", 0), ("null_count", ">=", 0), ("null_count", ">=", 1), ("null_count", "<", 0),
         ("null_count", "==", -1), ("null_count", ">", 1), ("len", "==", 0), ("len", ">", 0), ("len", ">=", 1),
         ("len", "!=", -1), ("len", "<", 2)]


def build(pl, fn, op, k, mirrored):
    c = getattr(pl.col("v"), fn)()
    lit = pl.lit(k)
    import operator

    f = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
         ">=": operator.ge}[op]
    return f(lit, c) if mirrored else f(c, lit)


@pytest.mark.parametrize("fn,op,k", CASES)
@pytest.mark.parametrize("mirrored", [False, True])
def test_same_results_as_polars(fn, op, k, mirrored):
    assert_same(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(build(pl, fn, op, k, mirrored).alias("o")),
                DATA)
    assert_same(lambda pl, lf: lf.select(build(pl, fn, op, k, mirrored).alias("o")), DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(build(pl, fn, op, k, mirrored).over("g").alias("o")), DATA)


def test_explain_shows_the_zero_tests():
    lf = pl.LazyFrame(DATA).group_by("g", maintain_order=True)
    assert ".has_nulls().not()" in lf.agg((pl.col("v").null_count() == 0).alias("o")).explain()
    assert ".has_nulls()" in lf.agg((pl.lit(0) < pl.col("v").null_count()).alias("o")).explain()
    assert ".is_empty()" in lf.agg((pl.col("v").len() < 1).alias("o")).explain()
    plan = lf.agg((pl.col("v").null_count() >= 0).alias("o")).explain()
    assert "null_count" not in plan and "true" in plan
