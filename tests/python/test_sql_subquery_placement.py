"""Where SQL's subqueries read their rows from, compared with DuckDB with optimizations on
and off:

- an uncorrelated NOT IN / NOT EXISTS on one table of a FROM list is applied after the
  joins when they are estimated to leave fewer rows than the table has (PDS-H q16), and to
  the table itself when the joins fan out (sql/translate_join_order.cpp);
- an uncorrelated scalar subquery over the outer's table, filtered by the outer's
  conditions and more, reads the outer's filtered rows, which are then computed once
  (sql/share_filtered_input.hpp, PDS-H q22)."""
from __future__ import annotations

import pytest

import frazil as pl
from sql_checks import duckdb_rows, rounded


def _tables() -> dict[str, pl.LazyFrame]:
    n = 4000
    t = {
        "k": [None if i % 89 == 0 else i % 400 for i in range(n)],
        "v": [None if i % 53 == 0 else (i * 37) % 101 for i in range(n)],
        "w": [float((i * 13) % 29) - 7.5 for i in range(n)],
        "code": [f"{(i * 7) % 25:02d}-{i}" for i in range(n)],
    }
    d = {"id": list(range(400)), "flag": [i % 10 for i in range(400)]}
    s = {"x": [3, 5, 8, 13, 21, 34, 55], "y": [3, 5, 8, 13, 21, None, 55]}
    return {"t": pl.LazyFrame(t), "d": pl.LazyFrame(d), "s": pl.LazyFrame(s)}


ANTI_AFTER_JOIN = [
    "select t.k, t.v from t, d where t.k = d.id and d.flag = 1 and t.v not in (select x from s) order by 1, 2",
    # A NULL among the subquery's values: NOT IN is then never true.
    "select t.k, t.v from t, d where t.k = d.id and d.flag = 1 and t.v not in (select y from s) order by 1, 2",
    "select t.k, count(*) from t, d where t.k = d.id and d.flag = 2 and not exists (select * from s where s.x > 40)"
    " group by 1 order by 1",
    "select t.k, t.v from t, d where t.k = d.id and d.flag = 3 and t.v <> all (select x from s) order by 1, 2",
]

ANTI_BEFORE_JOIN = [
    # d's 400 rows fan out to t's 4000 in the join: the anti join reads d.
    "select d.id, t.v from d, t where d.id = t.k and d.id not in (select x from s) order by 1, 2",
]

SHARED_FILTER = [
    "select count(*), sum(w) from t where substring(code, 1, 2) in ('03', '11') and w > (select avg(w) from t"
    " where w > 0 and substring(code, 1, 2) in ('03', '11'))",
    # The subquery's conditions in another order, and exactly the outer's.
    "select k, v from t where v = 7 and k > (select min(k) from t where k > 100 and v = 7) order by 1, 2",
    "select k, v from t where v = 7 and k >= (select avg(k) from t where v = 7) order by 1, 2",
]

NOT_SHARED_FILTER = [
    # The subquery lacks one of the outer's conditions: it reads rows the outer drops.
    "select k, v from t where v = 7 and k < 300 and k > (select avg(k) from t where v = 7 and w > 0) order by 1, 2",
    # The outer filter keeps most rows: a second scan is cheaper than keeping them.
    "select count(*) from t where v is not null and w > (select avg(w) from t where v is not null and k > 3)",
]


@pytest.mark.parametrize("query", ANTI_AFTER_JOIN + ANTI_BEFORE_JOIN + SHARED_FILTER + NOT_SHARED_FILTER)
def test_equal_to_duckdb_with_and_without_optimizations(query: str) -> None:
    tables = _tables()
    lf = pl.SQLContext(tables).execute(query)
    expected = rounded(duckdb_rows(query, tables))
    assert rounded(lf.collect().rows()) == expected
    assert rounded(lf.collect(optimizations=pl.QueryOptFlags.none()).rows()) == expected


def _anti_above_inner(plan: str) -> bool:
    return plan.index("ANTI JOIN") < plan.index("INNER JOIN")


# NOT IN over values with a NULL, and an uncorrelated NOT EXISTS, are filters, not anti joins.
@pytest.mark.parametrize("query", [ANTI_AFTER_JOIN[0], ANTI_AFTER_JOIN[3]])
def test_anti_join_after_a_reducing_join(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain(optimized=False)
    assert _anti_above_inner(plan), plan


@pytest.mark.parametrize("query", ANTI_BEFORE_JOIN)
def test_anti_join_before_a_fanning_out_join(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain(optimized=False)
    assert not _anti_above_inner(plan), plan


@pytest.mark.parametrize("query", SHARED_FILTER)
def test_subquery_reads_the_outer_filtered_rows(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain()
    # Both reads of t go through one cache: no scan of t outside it.
    assert plan.count("CACHE[id: 0]") == 2, plan
    assert plan.count('DF ["k", "v", "w", "code"]') == 2, plan


@pytest.mark.parametrize("query", NOT_SHARED_FILTER)
def test_subquery_keeps_its_own_scan(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain()
    assert "CACHE[" not in plan, plan
