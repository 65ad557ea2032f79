"""Simplification rules: each rewrites where valid and not where invalid, returns what the
unoptimized plan returns on nulls, NaN, -0.0, ±inf, empty and one-row inputs, and where
Polars has the same rule, explain() shows the same simplified expression."""
import math

import polars
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

INF = math.inf
NAN = math.nan

BASE = {
    "a": [1, None, 3, 5, 6, 5],
    "f": [1.0, None, NAN, -0.0, INF, -INF],
    "b": [True, None, False, True, None, False],
    "c": [False, True, None, True, None, False],
    "s": ["x", None, "y", "x", "z", ""],
}
SCHEMA = {"a": polars.Int64, "f": polars.Float64, "b": polars.Boolean, "c": polars.Boolean, "s": polars.String}


def variants():
    full = polars.DataFrame(BASE, schema=SCHEMA)
    return {
        "nulls": full,
        "empty": full.head(0),
        "one_row": full.head(1),
        "one_null_row": full.slice(1, 1),
    }


# (name, query over a LazyFrame for either module, where the rule should fire)
QUERIES = [
    ("and_true_right", lambda m, lf: lf.select((m.col("b") & True).alias("x"))),
    ("and_true_left_select", lambda m, lf: lf.select(m.lit(True) & m.col("b"))),
    ("and_true_left_filter", lambda m, lf: lf.filter(True & (m.col("a") > 1))),
    ("and_false_select", lambda m, lf: lf.select(m.col("b") & False)),
    ("and_false_filter", lambda m, lf: lf.filter(m.col("b") & False)),
    ("self_negation_select", lambda m, lf: lf.select(m.col("b") & ~m.col("b"))),
    ("self_negation_filter", lambda m, lf: lf.filter(m.col("b") & ~m.col("b"))),
    ("self_negation_is_in_filter", lambda m, lf: lf.filter(m.col("a").is_in([1, 5]) & ~m.col("a").is_in([1, 5]))),
    ("contradiction_filter", lambda m, lf: lf.filter((m.col("a") > 5) & (m.col("a") <= 5))),
    ("contradiction_float_filter", lambda m, lf: lf.filter((m.col("f") > 0.0) & (m.col("f") <= 0.0))),
    ("contradiction_select", lambda m, lf: lf.select((m.col("a") > 5) & (m.col("a") <= 5))),
    ("or_false_right", lambda m, lf: lf.select(m.col("b") | False)),
    ("or_false_left_filter", lambda m, lf: lf.filter(False | (m.col("a") > 1))),
    ("or_true_select", lambda m, lf: lf.select(m.col("b") | True)),
    ("or_true_filter", lambda m, lf: lf.filter(m.col("b") | True)),
    ("or_self_negation_filter", lambda m, lf: lf.filter(m.col("b") | ~m.col("b"))),
    ("or_complement_filter", lambda m, lf: lf.filter((m.col("a") > 5) | (m.col("a") <= 5))),
    ("not_not", lambda m, lf: lf.select(~~m.col("b"))),
    ("de_morgan_and", lambda m, lf: lf.select(~(m.col("b") & m.col("c")))),
    ("de_morgan_or", lambda m, lf: lf.select(~(m.col("b") | m.col("c")))),
    ("not_eq", lambda m, lf: lf.select(~(m.col("a") == 5))),
    ("not_lt_float", lambda m, lf: lf.select(~(m.col("f") < 1.0))),
    ("not_in_filter", lambda m, lf: lf.filter(~(m.col("f") >= 0.0))),
    ("fold_int", lambda m, lf: lf.select(m.col("a") + (m.lit(1) + m.lit(2)))),
    ("fold_nan_cmp", lambda m, lf: lf.select(m.col("a"), (m.lit(1.5) < m.lit(NAN)).alias("x"))),
    ("fold_div_zero", lambda m, lf: lf.select(m.col("a"), (m.lit(7) // m.lit(0)).alias("x"))),
    ("ternary_true", lambda m, lf: lf.select(m.when(True).then(m.col("a")).otherwise(m.col("a") + 1))),
    ("ternary_false", lambda m, lf: lf.select(m.when(False).then(m.col("a")).otherwise(m.col("a") * 2))),
    ("ternary_scalar_mix", lambda m, lf: lf.select(m.when(True).then(m.col("a")).otherwise(0))),
    ("is_null_any", lambda m, lf: lf.select(m.col("a").is_null().any())),
    ("is_not_null_any", lambda m, lf: lf.select(m.col("a").is_not_null().any())),
    ("drop_nulls_len", lambda m, lf: lf.select(m.col("f").drop_nulls().len())),
    ("sort_reverse", lambda m, lf: lf.select(m.col("a").sort().reverse())),
    ("sort_desc_reverse", lambda m, lf: lf.select(m.col("f").sort(descending=True, nulls_last=True).reverse())),
    ("plus_zero_absent", lambda m, lf: lf.select(m.col("f") + 0.0)),
    ("times_zero_absent", lambda m, lf: lf.select(0.0 * m.col("f"))),
    ("times_one_absent", lambda m, lf: lf.select(m.col("a") * 1)),
]


def _lazy(module, df):
    return module.DataFrame(df).lazy() if module is fz else df.lazy()


@pytest.mark.parametrize("variant", list(variants()))
@pytest.mark.parametrize("name,query", QUERIES, ids=[q[0] for q in QUERIES])
def test_rule_preserves_results(name, query, variant):
    df = variants()[variant]
    q = query(fz, _lazy(fz, df))
    optimized = q.collect().to_polars()
    unoptimized = q.collect(optimizations=fz.QueryOptFlags.none()).to_polars()
    assert_frame_equal(optimized, unoptimized)
    expected = query(polars, df.lazy()).collect()
    assert_frame_equal(optimized, expected)


def _no_pushdown(module):
    # Pushdown would move filters into the scan, and fast_projection turn a select that
    # simplified to plain columns into a projection; these tests look at the expressions.
    return module.QueryOptFlags(predicate_pushdown=False, projection_pushdown=False, fast_projection=False)


def _explain_first_line(module, query):
    lf = _lazy(module, variants()["nulls"])
    return query(module, lf).explain(optimizations=_no_pushdown(module)).splitlines()[0]


# Rules where the rewrite shows: (query name, text expected in frazil's explain).
FIRES = {
    "and_true_right": 'SELECT [col("b").alias("x")]',
    "and_true_left_filter": 'FILTER col("a") > 1',
    "and_false_filter": "FILTER false",
    "self_negation_filter": "FILTER false",
    "self_negation_is_in_filter": "FILTER false",
    "contradiction_filter": "FILTER false",
    "contradiction_float_filter": "FILTER false",
    "or_false_right": 'SELECT [col("b")]',
    "or_false_left_filter": 'FILTER col("a") > 1',
    "or_true_filter": 'DF ["a", "f", "b", "c", ...]; PROJECT */5 COLUMNS',  # the always-true filter is gone
    "not_not": 'SELECT [col("b")]',
    "de_morgan_and": 'SELECT [(col("b").not() | col("c").not())]',
    "de_morgan_or": 'SELECT [(col("b").not() & col("c").not())]',
    "not_eq": 'SELECT [(col("a") != 5)]',
    "not_in_filter": 'FILTER col("f") < 0.0',
    "fold_int": 'SELECT [(col("a") + 3)]',
    "ternary_true": 'SELECT [col("a")]',
    "ternary_false": 'SELECT [(col("a") * 2)]',
    "is_null_any": 'SELECT [col("a").has_nulls()]',  # null_count() > 0, then the count rule
    "is_not_null_any": 'SELECT [(col("a").count() > 0)]',
    "drop_nulls_len": 'SELECT [col("f").count()]',
    "sort_reverse": 'SELECT [col("a").sort(desc)]',
}
# Rules that must not fire here, and why.
HOLDS = {
    "and_true_left_select": "true &",  # the name would change outside a filter
    "and_false_select": "& false",  # the length would change
    "self_negation_select": ".not()",  # null & not(null) is null, not false
    "contradiction_select": "<=",
    "or_true_select": "| true",
    "or_self_negation_filter": ".not()",  # b | ~b is null for null b
    "or_complement_filter": "<=",
    "plus_zero_absent": "+ 0.0",  # -0.0 + 0.0 is 0.0
    "times_zero_absent": "0.0 *",  # 0 * NaN and 0 * inf are NaN
    "times_one_absent": "* 1",
}


@pytest.mark.parametrize("name", sorted(FIRES))
def test_rule_fires(name):
    query = dict(QUERIES)[name]
    assert FIRES[name] in fz_explain(query)


@pytest.mark.parametrize("name", sorted(HOLDS))
def test_rule_does_not_fire(name):
    query = dict(QUERIES)[name]
    assert HOLDS[name] in fz_explain(query)


def fz_explain(query):
    lf = _lazy(fz, variants()["nulls"])
    return query(fz, lf).explain(optimizations=_no_pushdown(fz))


# Where Polars has the same rule, the simplified expression reads the same.
# (Polars prints the filter ones with a leftover `.alias("literal")`; the expression is the same.)
SAME_AS_POLARS = ["and_true_right", "not_eq", "sort_reverse",
                  "ternary_true", "plus_zero_absent", "times_one_absent"]


@pytest.mark.parametrize("name", SAME_AS_POLARS)
def test_explain_matches_polars(name):
    query = dict(QUERIES)[name]
    assert _explain_first_line(fz, query) == _explain_first_line(polars, query)


def test_trace_lists_rewrites():
    fz._frazil.set_trace(True)
    try:
        fz._frazil.take_trace()
        lf = fz.DataFrame({"b": [True, None]}).lazy()
        lf.select(~~fz.col("b")).explain()
        events = fz._frazil.take_trace()
    finally:
        fz._frazil.set_trace(False)
    assert ("simplify_expr", 'col("b").not().not()', 'col("b")') in events


def test_simplification_can_be_switched_off():
    lf = fz.DataFrame({"b": [True, None]}).lazy().select(~~fz.col("b"))
    assert ".not().not()" in lf.explain(optimizations=fz.QueryOptFlags.none())
    assert ".not()" not in lf.explain()


# ---- plan-level rules ----

def test_contradicting_chained_filters_become_false():
    df = variants()["nulls"]
    for q in (
        lambda m, lf: lf.filter(m.col("a") > 5).filter(m.col("a") <= 5),
        lambda m, lf: lf.filter(m.col("b")).filter(~m.col("b")),
        lambda m, lf: lf.filter(m.col("f") < 0.0).select("f").filter(m.col("f") >= 0.0),
    ):
        lf = q(fz, _lazy(fz, df))
        assert "false" in lf.explain()
        assert_frame_equal(lf.collect().to_polars(), lf.collect(optimizations=fz.QueryOptFlags.none()).to_polars())
        assert_frame_equal(lf.collect().to_polars(), q(polars, df.lazy()).collect())
    # Compatible conditions stay.
    lf = _lazy(fz, df).filter(fz.col("a") >= 5).filter(fz.col("a") <= 5)
    assert "false" not in lf.explain()


def test_nested_unions_flatten():
    df = variants()["nulls"]
    q = lambda m: m.concat([m.concat([df_of(m, df), df_of(m, df)]), m.concat([df_of(m, df), df_of(m, df).head(2)])]).filter(m.col("a") > 1)
    plan = q(fz).explain()
    assert sum(line.strip() == "UNION" for line in plan.splitlines()) == 1 and "PLAN 3:" in plan
    assert_frame_equal(q(fz).collect().to_polars(), q(polars).collect())
    assert_frame_equal(q(fz).collect().to_polars(), q(fz).collect(optimizations=fz.QueryOptFlags.none()).to_polars())


def df_of(module, df):
    return _lazy(module, df)
