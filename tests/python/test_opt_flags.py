"""QueryOptFlags as Polars': update(), and every flag switching a rewrite of its own."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz


def test_update_sets_and_returns_the_flags():
    f = fz.QueryOptFlags().update(slice_pushdown=False, predicate_pushdown=None)
    assert f.slice_pushdown is False and f.predicate_pushdown is True
    assert fz.QueryOptFlags.none().update(fast_projection=True).fast_projection is True
    with pytest.raises(TypeError, match="unknown optimization flag"):
        fz.QueryOptFlags().update(nope=True)
    # Polars' flags without a frazil pass are accepted, so Polars code runs.
    assert fz.QueryOptFlags(pre_partition_hive=False).pre_partition_hive is False
    assert fz.QueryOptFlags(join_order=False).join_order is False


def test_fast_projection_switches_the_simple_projection_rule():
    lf = fz.LazyFrame({"x": [1, None], "y": [2.0, float("nan")], "z": ["a", None]}).select("z", "x")
    assert "simple π 2/2 [\"z\", \"x\"]" in lf.explain()
    off = lf.explain(optimizations=fz.QueryOptFlags(fast_projection=False))
    assert "SELECT [col(\"z\"), col(\"x\")]" in off and "π" not in off
    want = pl.LazyFrame({"x": [1, None], "y": [2.0, float("nan")], "z": ["a", None]}).select("z", "x").collect()
    for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(fast_projection=False), fz.QueryOptFlags.none()):
        assert lf.collect(optimizations=flags).rows() == want.rows()


# One query per flag whose optimized plan shows that flag's rewrite: with the flag off the
# rewrite is absent (explain text) and the result is unchanged (and equal to Polars').
def _frame(m):
    return m.LazyFrame({"a": [3, None, 1, 4, 1], "b": [0.5, -0.0, None, float("nan"), 2.0], "g": ["x", "y", None, "x", "y"]})


FLAG_CASES = {
    "predicate_pushdown": (lambda m: _frame(m).select("a", "b").filter(m.col("a") > 1), "logical", "SELECTION"),
    "projection_pushdown": (lambda m: _frame(m).select("a").filter(m.col("a") > 1), "logical", "1/3 COLUMNS"),
    "simplify_expression": (lambda m: _frame(m).filter(m.col("a") > 1, m.col("a") > 2), "logical", 'SELECTION: col("a") > 2'),
    "slice_pushdown": (lambda m: _frame(m).sort("a", nulls_last=True).head(2), "logical", "slice: (0, 2)"),
    "comm_subplan_elim": (lambda m: (lambda lf: lf.join(lf, on="g", how="left", nulls_equal=False))(
        _frame(m).filter(m.col("b") > -1.0).select("a", "g")), "logical", "CACHE"),
    "comm_subexpr_elim": (lambda m: _frame(m).select((m.col("a") * 2).sum().alias("s"), (m.col("a") * 2).max().alias("x")),
                          "logical", "_CSER_"),
    "cluster_with_columns": (lambda m: _frame(m).with_columns(c=m.col("a") + 1).with_columns(d=m.col("b") * 2),
                             "logical", '[(col("a") + 1).alias("c"), (col("b") * 2.0).alias("d")]'),
    "check_order_observe": (lambda m: _frame(m).join(m.LazyFrame({"a": list(range(100)), "w": list(range(100))}), on="a")
                            .group_by("a").agg(m.col("w").sum()).sort("a"), "physical", "in any order"),
    "collapse_joins": (lambda m: _frame(m).join(_frame(m).select(m.col("a").alias("a2"), "g"), how="cross")
                       .filter(m.col("a") == m.col("a2")), "logical", "INNER JOIN"),
    "fast_projection": (lambda m: _frame(m).select("g", "a"), "logical", "simple π"),
    "sort_collapse": (lambda m: _frame(m).sort("b", nulls_last=True).sort("a", "g", nulls_last=True), "logical", None),
    # The right side estimated the smaller: the table is built on it and the left side probes.
    "row_estimate": (lambda m: _frame(m).join(m.LazyFrame({"a": [1, 3], "w": [10, 30]}), on="a"), "physical",
                     "join probe"),
}


def test_every_flag_has_a_case():
    assert set(FLAG_CASES) == set(fz.QueryOptFlags._NAMES)


@pytest.mark.parametrize("flag", sorted(FLAG_CASES))
def test_flag_switches_its_rewrite(flag):
    build, kind, fragment = FLAG_CASES[flag]
    q = build(fz)
    fmt = {"format": "physical"} if kind == "physical" else {}
    on = q.explain(**fmt)
    off = q.explain(optimizations=fz.QueryOptFlags(**{flag: False}), **fmt)
    if fragment is None:  # sort_collapse: one sort instead of two
        assert on.count("SORT BY") == 1 and off.count("SORT BY") == 2, (on, off)
    else:
        assert fragment in on, on
        assert fragment not in off, off
    want = build(pl).collect()
    for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(**{flag: False}), fz.QueryOptFlags.none()):
        got = pl.from_arrow(q.collect(optimizations=flags).to_arrow())
        assert_frame_equal(got, want, check_row_order=flag not in ("comm_subplan_elim", "collapse_joins", "row_estimate"))
