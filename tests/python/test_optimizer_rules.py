"""The optimizer rules of issue #22, each against Polars and against frazil with the rule's flag
off and with no optimization, on nulls, NaN, -0.0, ±inf, empty, one-row and multi-chunk inputs;
explain() shows the rewrite with the flag on and not with it off."""
import math

import polars
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

NAN = math.nan
INF = math.inf

BASE = {
    "i": [3, None, 1, 4, 1, 5, 9, 2],
    "k": [10, 20, 30, 40, 50, 60, 70, 80],
    "x": [1.5, None, NAN, -0.0, 0.0, INF, -INF, 2.0],
    "y": [-0.0, 2.0, None, 3.0, NAN, 1e308, 0.5, -1.0],
    "z": [0.0, -0.0, 1.0, None, 2.5, 1e308, NAN, 4.0],
    "g": ["a", None, "b", "a", "c", "b", None, "a"],
}
SCHEMA = {"i": polars.Int64, "k": polars.Int64, "x": polars.Float64, "y": polars.Float64, "z": polars.Float64,
          "g": polars.String}


def frames():
    full = polars.DataFrame(BASE, schema=SCHEMA)
    return {
        "nulls_nan_zero": full,
        "empty": full.head(0),
        "one_row": full.head(1),
        "one_null_row": full.slice(1, 1),
    }


def lazy(m, df, chunks):
    lf = m.LazyFrame(df.to_dict(as_series=False), schema=dict(df.schema)) if m is fz else df.lazy()
    if chunks == 1:
        return lf
    return m.concat([lf] * chunks)


def check(query, flag, chunks=1):
    for name, df in frames().items():
        want = query(polars, lazy(polars, df, chunks)).collect()
        q = query(fz, lazy(fz, df, chunks))
        for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(**{flag: False}), fz.QueryOptFlags.none()):
            got = polars.from_arrow(q.collect(optimizations=flags).to_arrow())
            assert_frame_equal(got, want, check_dtypes=True), (name, flags)


def plan_on_off(query, flag):
    q = query(fz, lazy(fz, polars.DataFrame(BASE, schema=SCHEMA), 1))
    return q.explain(), q.explain(optimizations=fz.QueryOptFlags(**{flag: False}))


# --- sort collapse -------------------------------------------------------------------------

SORTS = [
    ("unstable_over_sort", lambda m, lf: lf.sort("i").sort("k")),
    ("stable_over_stable", lambda m, lf: lf.sort("x", maintain_order=True).sort("g", maintain_order=True)),
    ("stable_desc_nulls_last",
     lambda m, lf: lf.sort(["g", "y"], descending=[True, False], nulls_last=True, maintain_order=True)
     .sort("g", nulls_last=True, maintain_order=True)),
    ("three_sorts", lambda m, lf: lf.sort("x").sort("y", maintain_order=True).sort("k", maintain_order=True)),
    ("topk_inner_stays", lambda m, lf: lf.sort("k", descending=True).head(3).sort("k")),
]


@pytest.mark.parametrize("name,query", SORTS, ids=[s[0] for s in SORTS])
@pytest.mark.parametrize("chunks", [1, 3])
def test_sort_collapse_results(name, query, chunks):
    check(query, "sort_collapse", chunks)


def test_sort_collapse_plan():
    on, off = plan_on_off(lambda m, lf: lf.sort("i").sort("k"), "sort_collapse")
    assert on.count("SORT BY") == 1 and off.count("SORT BY") == 2
    on, _ = plan_on_off(lambda m, lf: lf.sort("i", descending=True).sort("k", maintain_order=True), "sort_collapse")
    want = polars.LazyFrame(BASE, schema=SCHEMA).sort("i", descending=True).sort("k", maintain_order=True).explain()
    assert on.splitlines()[0] == want.splitlines()[0]  # SORT BY [descending: [false, true]] [col("k"), col("i")]
    on, _ = plan_on_off(lambda m, lf: lf.sort("k").head(2).sort("i"), "sort_collapse")
    assert on.count("SORT BY") == 2  # a top-k below decides which rows there are


# --- cluster_with_columns ------------------------------------------------------------------

WITH_COLUMNS = [
    ("independent", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("y") * 2)),
    ("overwritten_unread", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(a=m.col("z") - 1)),
    ("dependent", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("a") * m.col("y"))),
    ("replaced_input_read_by_staying",
     lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("a") + m.col("y"), y=m.lit(0.0))),
    ("reorder", lambda m, lf: lf.with_columns(a=m.col("x") + 1).with_columns(b=m.col("a") * 2, c=m.col("y") - 1)),
    ("input_column_replaced", lambda m, lf: lf.with_columns(x=m.col("y") + 1).with_columns(y=m.col("z"), w=m.col("y"))),
    ("aggregates_and_windows",
     lambda m, lf: lf.with_columns(s=m.col("x").sum()).with_columns(w=m.col("k").sum().over("g"), n=m.len())),
    ("three_stages", lambda m, lf: lf.with_columns(a=m.lit(1)).with_columns(b=m.col("i") * 2)
     .with_columns(a=m.col("k") + 3, c=m.col("g"))),
    ("then_select", lambda m, lf: lf.with_columns(a=m.col("x") * 2).with_columns(b=m.col("i") + 1).select("b", "a")),
]


@pytest.mark.parametrize("name,query", WITH_COLUMNS, ids=[w[0] for w in WITH_COLUMNS])
@pytest.mark.parametrize("chunks", [1, 3])
def test_cluster_with_columns_results(name, query, chunks):
    check(query, "cluster_with_columns", chunks)


def test_cluster_with_columns_plan():
    on, off = plan_on_off(dict(WITH_COLUMNS)["independent"], "cluster_with_columns")
    assert on.count("WITH_COLUMNS") == 1 and off.count("WITH_COLUMNS") == 2
    assert '[(col("x") + 1.0).alias("a"), (col("y") * 2.0).alias("b")]' in on
    want = dict(WITH_COLUMNS)["independent"](polars, polars.LazyFrame(BASE, schema=SCHEMA)).explain()
    assert '[(col("x") + 1.0).alias("a"), (col("y") * 2.0).alias("b")]' in want
    on, off = plan_on_off(dict(WITH_COLUMNS)["overwritten_unread"], "cluster_with_columns")
    assert on.count("WITH_COLUMNS") == 1 and "+ 1.0" not in on and "+ 1.0" in off
    on, _ = plan_on_off(dict(WITH_COLUMNS)["dependent"], "cluster_with_columns")
    assert on.count("WITH_COLUMNS") == 2


# --- FusedArithmetic -----------------------------------------------------------------------

# Products whose rounding a hardware fused multiply-add would skip: 0.1 * 10 - 1 is 0.0
# rounded twice and 5.55e-17 fused.
FUSE_DATA = {
    "a": [0.1, 1e308, None, NAN, -0.0, 3.0, 1.0 / 3.0, INF, 2.0],
    "b": [10.0, 10.0, 2.0, 1.0, 5.0, -0.0, 3.0, 0.0, None],
    "c": [-1.0, -INF, 1.0, 2.0, 0.0, -0.0, -1.0, 1.0, 4.0],
    "f": [0.1, 3.5, None, 1.0, -0.0, 2.0, 0.3, 7.0, 1.0],
    "i": [1, 2, 3, None, 5, 6, 7, 8, 2**62],
}
FUSE_SCHEMA = {"a": polars.Float64, "b": polars.Float64, "c": polars.Float64, "f": polars.Float32,
               "i": polars.Int64}

FUSED = [
    ("fma", lambda m: m.col("a") * m.col("b") + m.col("c"), 'col("a").fma([col("b"), col("c")])'),
    ("fma_mul_right", lambda m: m.col("c") + m.col("a") * m.col("b"), 'col("a").fma([col("b"), col("c")])'),
    ("fms", lambda m: m.col("a") * m.col("b") - m.col("c"), 'col("a").fms([col("b"), col("c")])'),
    ("fsm", lambda m: m.col("c") - m.col("a") * m.col("b"), 'col("c").fsm([col("a"), col("b")])'),
    ("fms_literal", lambda m: m.col("a") * m.col("b") - 1, 'col("a").fms([col("b"), 1.0])'),
    ("fsm_literal_root", lambda m: 1.0 - m.col("a") * m.col("b"), '1.0.fsm([col("a"), col("b")])'),
    ("float32", lambda m: m.col("f") * m.col("f") + m.col("f"), 'col("f").fma([col("f"), col("f")])'),
    ("nested", lambda m: (m.col("a") * m.col("b") + m.col("c")) * m.col("a") + m.col("b"), None),
    ("scalar_product_stays", lambda m: m.col("a") * 2.0 + m.col("c"), None),
    ("integers_stay", lambda m: m.col("i") * m.col("i") + m.col("i"), None),
]


def bits(df):
    # Float columns as their bit patterns: -0.0 against 0.0 and NaN payloads count.
    return [s.to_numpy().view("int64" if s.dtype == polars.Float64 else "int32").tolist()
            if s.dtype in (polars.Float64, polars.Float32) else s.to_list() for s in df.iter_columns()]


@pytest.mark.parametrize("name,expr,shown", FUSED, ids=[f[0] for f in FUSED])
def test_fused_arithmetic(name, expr, shown):
    full = polars.DataFrame(FUSE_DATA, schema=FUSE_SCHEMA)
    for df in (full, full.head(0), full.head(1), full.slice(2, 1)):
        want = df.lazy().select(expr(polars).alias("out")).collect()
        q = fz.LazyFrame(df.to_dict(as_series=False), schema=FUSE_SCHEMA).select(expr(fz).alias("out"))
        for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(simplify_expression=False), fz.QueryOptFlags.none()):
            got = polars.from_arrow(q.collect(optimizations=flags).to_arrow())
            assert got.schema == want.schema
            assert bits(got.fill_null(0)) == bits(want.fill_null(0)), (name, flags)
            assert got["out"].is_null().to_list() == want["out"].is_null().to_list()
    q = fz.LazyFrame(FUSE_DATA, schema=FUSE_SCHEMA).select(expr(fz).alias("out"))
    on, off = q.explain(), q.explain(optimizations=fz.QueryOptFlags(simplify_expression=False))
    assert ".fma(" not in off and ".fms(" not in off and ".fsm(" not in off
    if shown:
        assert shown in on, on
        assert shown in polars.LazyFrame(FUSE_DATA, schema=FUSE_SCHEMA).select(expr(polars).alias("out")).explain()
    elif name == "nested":
        assert on.count(".fma(") == 2, on
    else:
        assert ".fma(" not in on and ".fms(" not in on, on


def test_fused_arithmetic_in_filters_groups_and_windows():
    def query(m, lf):
        return (lf.filter(m.col("x") * m.col("y") - m.col("z") < 1e300)
                .group_by("g", maintain_order=True)
                .agg((m.col("x") * m.col("y") + m.col("z")).sum().alias("s"),
                     (m.col("z") - m.col("x") * m.col("y")).alias("l"))
                .with_columns(w=(m.col("s") * m.col("s") + 1.0).over("g")))

    def query2(m, lf):
        return lf.filter(m.col("x") * m.col("y") - m.col("z") > -1e300).with_columns(a=m.col("x") * m.col("z") + m.col("y"))

    check(query2, "simplify_expression")
    check(query, "simplify_expression")
    on = query(fz, lazy(fz, polars.DataFrame(BASE, schema=SCHEMA), 1)).explain()
    assert on.count(".fma(") == 2 and on.count(".fms(") == 1 and on.count(".fsm(") == 1, on


# --- FilterConstraintRule ------------------------------------------------------------------

CONSTRAINTS = [
    ("tightest_lower", lambda m, lf: lf.filter(m.col("i") > 1, m.col("i") > 3), 'col("i") > 3'),
    ("literal_left", lambda m, lf: lf.filter(2 < m.col("i"), m.col("i") >= 1), 'col("i") > 2'),
    ("impossible", lambda m, lf: lf.filter(m.col("i") > 5, m.col("i") < 3), "false"),
    ("touching_exclusive", lambda m, lf: lf.filter(m.col("i") >= 3, m.col("i") < 3), "false"),
    ("equality_in_range", lambda m, lf: lf.filter(m.col("i") > 1, m.col("i") == 4, m.col("i") <= 9), 'col("i") == 4'),
    ("equality_out_of_range", lambda m, lf: lf.filter(m.col("i") > 5, m.col("i") == 4), "false"),
    ("not_equal_on_end", lambda m, lf: lf.filter(m.col("i") >= 3, m.col("i") != 3), 'col("i") > 3'),
    ("is_in_outside_range", lambda m, lf: lf.filter(m.col("i").is_in([1, 2]), m.col("i") > 5), "false"),
    ("is_in_meets_range", lambda m, lf: lf.filter(m.col("i").is_in([1, 9]), m.col("i") > 5), None),
    ("is_in_sets_disjoint", lambda m, lf: lf.filter(m.col("i").is_in([1, 2]), m.col("i").is_in([3, 4])), "false"),
    ("is_in_with_null_member", lambda m, lf: lf.filter(m.col("i").is_in([None, 9]), m.col("i") > 5), None),
    ("float_nan_bound", lambda m, lf: lf.filter(m.col("x") > NAN, m.col("x") < 1.0), "false"),
    ("float_nan_equal", lambda m, lf: lf.filter(m.col("x") >= NAN, m.col("x") > 0.0), None),
    ("float_signed_zero", lambda m, lf: lf.filter(m.col("x") >= -0.0, m.col("x") <= 0.0), 'col("x") == -0.0'),
    ("float_zero_excluded", lambda m, lf: lf.filter(m.col("x") >= 0.0, m.col("x") != -0.0), 'col("x") > 0.0'),
    ("two_columns", lambda m, lf: lf.filter(m.col("i") > 1, m.col("x") < 2.0, m.col("i") > 2, m.col("g") == "a"),
     None),
    ("or_stays", lambda m, lf: lf.filter((m.col("i") > 5) | (m.col("i") < 3)), None),
]


@pytest.mark.parametrize("name,query,shown", CONSTRAINTS, ids=[c[0] for c in CONSTRAINTS])
@pytest.mark.parametrize("chunks", [1, 3])
def test_filter_constraint_results(name, query, shown, chunks):
    check(query, "simplify_expression", chunks)


@pytest.mark.parametrize("name,query,shown", CONSTRAINTS, ids=[c[0] for c in CONSTRAINTS])
def test_filter_constraint_plan(name, query, shown):
    on, off = plan_on_off(query, "simplify_expression")
    if shown == "false":
        assert "SELECTION: false" in on or "FILTER false" in on, on
        assert "false" not in off
    elif shown:
        assert on.rstrip().endswith(shown) or f"SELECTION: {shown}" in on, on


def test_filter_constraint_keeps_errors():
    # The strict cast may raise on "x": collapsing the filter to false would hide it.
    lf = fz.LazyFrame({"i": [1, 2], "s": ["1", "x"]})
    q = lf.filter(fz.col("s").cast(fz.Int64) > 0, fz.col("i") > 5, fz.col("i") < 3)
    assert "false" not in q.explain()
    assert "false" in lf.filter(fz.col("i") > 5, fz.col("i") < 3).explain()


def test_trace_records_each_rules_rewrites():
    from frazil import _frazil

    lf = fz.LazyFrame(BASE, schema=SCHEMA)
    q = (lf.with_columns(a=fz.col("x") * fz.col("y") + fz.col("z")).with_columns(b=fz.col("k") + 1)
         .filter(fz.col("i") > 1, fz.col("i") > 2).sort("k").sort("i"))
    _frazil.set_trace(True)
    try:
        _frazil.take_trace()
        q.explain()
        events = _frazil.take_trace()
    finally:
        _frazil.set_trace(False)
    rules = {rule: (before, after) for rule, before, after in events}
    for rule in ("fused_arithmetic", "filter_constraint", "collapse_sort", "cluster_with_columns"):
        assert rule in rules, sorted(rules)
        assert rules[rule][0] != rules[rule][1]
    assert ".fma(" in rules["fused_arithmetic"][1] and ".fma(" not in rules["fused_arithmetic"][0]


# --- one plan through every rule -------------------------------------------------------------

def every_rule_query(m):
    def frame(k, x, y, g):
        return m.LazyFrame({"k": k, "x": x, "y": y, "g": g})

    a = frame([1, 2, 3], [1.5, None, -0.0], [2.0, 0.5, NAN], ["a", "b", None])
    b = frame([2, 4, 6], [0.5, 4.0, None], [1.0, None, 3.0], ["b", "a", "a"])
    arms = m.concat([m.concat([a, b]), a], rechunk=True)  # FlattenUnion; DelayRechunk under the group-by
    left = (arms.with_columns(f=m.col("x") * m.col("y") + m.col("k"))  # FusedArithmetic
            .with_columns(h=m.col("k") + 1)  # cluster_with_columns
            .filter(m.col("k") > 1, m.col("k") > 0)  # FilterConstraint
            .filter(m.col("g").is_not_null())
            .group_by("g").agg(m.col("f").sum(), m.col("h").max()))
    right = (a.merge_sorted(b, "k").merge_sorted(a, "k").merge_sorted(b, "k")  # FlattenMergeSorted
             .sort("x").sort("k", maintain_order=True)  # sort collapse
             .select("k", "g"))  # SimpleProjectionAndCollapse
    # The repeated predicate meets its twin once pushed down (SimplifyBoolean drops it).
    return left.join(right, on="g").filter(m.col("g").is_not_null())


EVERY_RULE_PLAN = """INNER JOIN:
LEFT PLAN ON: [col("g")]
  AGGREGATE[maintain_order: false]
    [col("f").sum(), col("h").max()] BY [col("g")]
    FROM
      WITH_COLUMNS:
      [col("x").fma([col("y"), col("k").strict_cast(Float64)]).alias("f"), (col("k") + 1).alias("h")]
        UNION
          PLAN 0:
            DF ["k", "x", "y", "g"]; PROJECT */4 COLUMNS; SELECTION: col("g").is_not_null() & (col("k") > 1)
          PLAN 1:
            DF ["k", "x", "y", "g"]; PROJECT */4 COLUMNS; SELECTION: col("g").is_not_null() & (col("k") > 1)
          PLAN 2:
            DF ["k", "x", "y", "g"]; PROJECT */4 COLUMNS; SELECTION: col("g").is_not_null() & (col("k") > 1)
        END UNION
RIGHT PLAN ON: [col("g")]
  simple π 2/3 ["k", "g"]
    SORT BY [col("k"), col("x")]
      MERGE SORTED[maintain_order: false] ON ['k']:
      LEFT PLAN:
        MERGE SORTED[maintain_order: false] ON ['k']:
        LEFT PLAN:
          DF ["k", "x", "y", "g"]; PROJECT["k", "x", "g"] 3/4 COLUMNS
        RIGHT PLAN:
          DF ["k", "x", "y", "g"]; PROJECT["k", "x", "g"] 3/4 COLUMNS
        END MERGE_SORTED
      RIGHT PLAN:
        MERGE SORTED[maintain_order: false] ON ['k']:
        LEFT PLAN:
          DF ["k", "x", "y", "g"]; PROJECT["k", "x", "g"] 3/4 COLUMNS
        RIGHT PLAN:
          DF ["k", "x", "y", "g"]; PROJECT["k", "x", "g"] 3/4 COLUMNS
        END MERGE_SORTED
      END MERGE_SORTED
END INNER JOIN"""


def test_explain_of_a_plan_through_every_rule():
    q = every_rule_query(fz)
    assert q.explain() == EVERY_RULE_PLAN
    # Unoptimized, every rewrite is still to be made.
    before = q.explain(optimized=False)
    for written in ("UNION[rechunk: true]", "FILTER (col(\"k\") > 1) & (col(\"k\") > 0)", "SELECT [col(\"k\"), col(\"g\")]",
                    "((col(\"x\") * col(\"y\")) + col(\"k\").strict_cast(Float64)).alias(\"f\")"):
        assert written in before, (written, before)
    assert before.count("SORT BY") == 2 and before.count("WITH_COLUMNS") == 2 and before.count("MERGE SORTED") == 3
    assert before.count("END UNION") == 2  # the inner union, flattened away by the optimizer
    want = every_rule_query(polars).collect().sort("k", "g", "f")
    for flags in (fz.QueryOptFlags(), fz.QueryOptFlags.none()):
        got = polars.from_arrow(q.collect(optimizations=flags).to_arrow()).sort("k", "g", "f")
        assert_frame_equal(got, want)
