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
    assert fz.QueryOptFlags(pre_partition_hive=False).pre_partition_hive is False
    assert fz.QueryOptFlags(join_order=False).join_order is False


def test_flag_names_are_polars():
    # Polars' QueryOptFlags arguments, one for one; collapse_joins was removed in 2.0.
    import inspect

    polars_names = [p for p in inspect.signature(pl.QueryOptFlags.__init__).parameters if p != "self"]
    assert list(fz.QueryOptFlags._NAMES) == polars_names
    for m in (pl, fz):
        with pytest.raises(m.exceptions.ArgumentRemovedError, match="Use `predicate_pushdown` instead"):
            m.QueryOptFlags(collapse_joins=False)
    # none() leaves type coercion on (Polars' too).
    assert fz.QueryOptFlags.none().type_coercion is True


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
# Builders take the module and a directory with hive-partitioned Parquet data.
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
    "pre_partition_hive": (lambda m, d: m.scan_parquet(d / "left", hive_partitioning=True).group_by("foo")
                           .agg(m.col("x").sum()), "logical", "UNION"),
    # big, mid and a filtered small input below a group-by: mid joins small first.
    "join_order": (lambda m: _join_chain(m), "logical",
                   'LEFT PLAN ON: [col("k")]\n        INNER JOIN:\n        LEFT PLAN ON: [col("j")]'),
    "fast_projection": (lambda m: _frame(m).select("g", "a"), "logical", "simple π"),
    "sort_collapse": (lambda m: _frame(m).sort("b", nulls_last=True).sort("a", "g", nulls_last=True), "logical", None),
    # The right side estimated the smaller: the table is built on it and the left side probes.
    "row_estimate": (lambda m: _frame(m).join(m.LazyFrame({"a": [1, 3], "w": [10, 30]}), on="a"), "physical",
                     "join probe"),
}


def _join_chain(m):
    big = m.LazyFrame({"k": [i % 50 if i % 9 else None for i in range(500)], "a": [float(i % 7) for i in range(500)]})
    mid = m.LazyFrame({"k": list(range(50)), "j": [i % 10 for i in range(50)]})
    small = m.LazyFrame({"j": list(range(10)), "s": [i % 3 for i in range(10)]}).filter(m.col("s") == 1)
    return big.join(mid, on="k").join(small, on="j").group_by("k").agg(m.col("a").sum())


@pytest.fixture(scope="module")
def hive_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("hive")
    pl.DataFrame({"foo": [1, 2, 3, 1], "x": [10, None, 30, 5]}).write_parquet(d / "left", partition_by="foo")
    return d


def _build(flag, m, d):
    build = FLAG_CASES[flag][0]
    return build(m, d) if flag == "pre_partition_hive" else build(m)


def test_every_flag_has_a_case():
    assert set(FLAG_CASES) == set(fz.QueryOptFlags._NAMES)


@pytest.mark.parametrize("flag", sorted(FLAG_CASES))
def test_flag_switches_its_rewrite(flag, hive_dir):
    _, kind, fragment = FLAG_CASES[flag]
    q = _build(flag, fz, hive_dir)
    fmt = {"format": "physical"} if kind == "physical" else {}
    on = q.explain(**fmt)
    off = q.explain(optimizations=fz.QueryOptFlags(**{flag: False}), **fmt)
    if fragment is None:  # sort_collapse: one sort instead of two
        assert on.count("SORT BY") == 1 and off.count("SORT BY") == 2, (on, off)
    else:
        assert fragment in on, on
        assert fragment not in off, off
    want = _build(flag, pl, hive_dir).collect()
    for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(**{flag: False}), fz.QueryOptFlags.none()):
        got = pl.from_arrow(q.collect(optimizations=flags).to_arrow())
        assert_frame_equal(got, want, check_row_order=flag not in (
            "comm_subplan_elim", "row_estimate", "pre_partition_hive", "join_order"))


def test_type_coercion_off_keeps_types_and_names_what_needs_a_cast():
    lf = fz.LazyFrame({"i": [1, None, 3], "f": [0.5, float("nan"), -0.0]}, schema={"i": fz.Int32, "f": fz.Float64})
    off = fz.QueryOptFlags()
    off.type_coercion = False
    q = lf.select(fz.col("i") + fz.col("f"))
    with pytest.raises(fz.exceptions.InvalidOperationError, match=r"type coercion is off .*needs a cast"):
        q.collect(optimizations=off)
    with pytest.raises(fz.exceptions.InvalidOperationError, match="type coercion is off"):
        q.explain(optimizations=off)
    # With it on, the cast is there; a plan needing none runs the same either way.
    assert "Float64" in q.explain() or "f64" in q.explain()
    same = lf.select(fz.col("f") * fz.col("f"), fz.col("i").alias("j"))
    want = pl.LazyFrame({"i": [1, None, 3], "f": [0.5, float("nan"), -0.0]}, schema={"i": pl.Int32, "f": pl.Float64}
                        ).select(pl.col("f") * pl.col("f"), pl.col("i").alias("j")).collect()
    assert_frame_equal(pl.from_arrow(same.collect(optimizations=off).to_arrow()), want)
    # Join keys of two integer dtypes would be cast to their supertype.
    other = fz.LazyFrame({"i": [1, 3]}, schema={"i": fz.Int64})
    with pytest.raises(fz.exceptions.InvalidOperationError, match="join keys"):
        lf.join(other, on="i").collect(optimizations=off)
    assert lf.join(other, on="i").collect().height == 2


def _trace(q):
    from frazil import _frazil

    _frazil.set_trace(True)
    try:
        _frazil.take_trace()
        q.explain()
        return [(rule, before, after) for rule, before, after in _frazil.take_trace() if rule != "timing"]
    finally:
        _frazil.set_trace(False)


def test_trace_records_every_rules_rewrite_with_before_and_after(hive_dir):
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from test_optimizer_rules import every_rule_query

    queries = [
        every_rule_query(fz),
        # `true | ...` is true once pushdown merged the filters (SimplifyBoolean).
        _frame(fz).filter(fz.col("a") > 1).filter(fz.lit(True) | fz.col("a").is_null()),
        _join_chain(fz),
        FLAG_CASES["pre_partition_hive"][0](fz, hive_dir),
    ]
    events = [e for q in queries for e in _trace(q)]
    seen = {rule for rule, before, after in events if before != after}
    for rule in ("fused_arithmetic", "simple_projection", "delay_rechunk", "filter_constraint", "simplify_predicates",
                 "flatten_merge_sorted", "flatten_union", "cluster_with_columns", "collapse_sort", "join_order",
                 "pre_partition_hive", "predicate_pushdown", "projection_pushdown"):
        assert rule in seen, (rule, sorted(seen))
