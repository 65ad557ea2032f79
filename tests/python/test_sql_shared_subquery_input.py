"""A correlated aggregate subquery over the table the outer query joins on the correlation
key reads the outer's semi-joined copy of that table (sql/share_subquery_input.hpp): PDS-H
q17 then reads lineitem once. Compared with DuckDB on the shapes where reusing the outer's
rows directly would be wrong (duplicate partner keys, null keys, conditions on the table,
keys the correlation does not cover)."""
from __future__ import annotations

import pytest

import frazil as pl
from sql_checks import duckdb_rows, rounded


def _tables() -> dict[str, pl.LazyFrame]:
    n = 4000
    t = {
        "k": [None if i % 97 == 0 else i % 400 for i in range(n)],
        "k2": [i % 3 for i in range(n)],
        "v": [(i * 37) % 101 for i in range(n)],
    }
    # r: 60 keys of t, some twice (a row of t then joins two rows of r), one null key, one
    # key t does not have.
    ys = [i * 7 for i in range(50)] + [i * 7 for i in range(10)] + [None, 9999]
    r = {"y": ys, "y2": [i % 3 for i in range(len(ys))], "tag": [i % 2 for i in range(len(ys))]}
    return {"t": pl.LazyFrame(t), "r": pl.LazyFrame(r)}


SHARED = [
    # The outer key is the partner's column (q17), then the table's own column.
    "select sum(t.v) from t, r where t.k = r.y and r.tag = 1 and t.v < (select avg(v) from t t2 where t2.k = r.y)",
    "select t.k, t.v from t, r where t.k = r.y and t.v < (select avg(v) from t t2 where t2.k = t.k) order by 1, 2",
    # Duplicate keys in r: a sum over the outer's joined rows would count them twice.
    "select t.k, t.v, r.tag from t, r where t.k = r.y and t.v * 3 > (select sum(v) from t t2 where t2.k = t.k) order by 1, 2, 3",
    # COUNT, with its value on no rows.
    "select t.k, count(*) from t, r where r.y = t.k and t.v >= (select count(*) from t t2 where t2.k = t.k) group by 1 order by 1",
    # Two keys, and keys the outer joins on fewer of than the subquery correlates.
    "select t.k, t.k2, t.v from t, r where t.k = r.y and t.k2 = r.y2 and t.v > (select min(v) + 40 from t t2 where t2.k = t.k and t2.k2 = t.k2) order by 1, 2, 3",
    "select t.k, t.k2, t.v from t, r where t.k = r.y and t.v > (select min(v) + 40 from t t2 where t2.k = t.k and t2.k2 = t.k2) order by 1, 2, 3",
    # In the SELECT list (a left join of the subquery's groups).
    "select t.k, t.v, (select max(v) from t t2 where t2.k = t.k) as m from t, r where t.k = r.y and r.tag = 0 order by 1, 2, 3",
]

NOT_SHARED = [
    # The outer joins on a key the subquery does not correlate on: a group of k would miss
    # the rows of t whose k2 found no partner.
    "select t.k, t.k2, t.v from t, r where t.k = r.y and t.k2 = r.y2 and t.v > (select avg(v) from t t2 where t2.k = t.k) order by 1, 2, 3",
    # A condition on t in the outer query: its rows are not every row of a group.
    "select t.k, t.v from t, r where t.k = r.y and t.v > 20 and t.v > (select avg(v) from t t2 where t2.k = t.k) order by 1, 2",
    # The subquery's own condition: it reads another relation than the outer's t.
    "select t.k, t.v from t, r where t.k = r.y and t.v > (select avg(v) from t t2 where t2.k = t.k and t2.v > 10) order by 1, 2",
]


@pytest.mark.parametrize("query", SHARED + NOT_SHARED)
def test_equal_to_duckdb_with_and_without_optimizations(query: str) -> None:
    tables = _tables()
    lf = pl.SQLContext(tables).execute(query)
    expected = rounded(duckdb_rows(query, tables))
    assert rounded(lf.collect().rows()) == expected
    assert rounded(lf.collect(optimizations=pl.QueryOptFlags.none()).rows()) == expected


@pytest.mark.parametrize("query", SHARED)
def test_subquery_reads_the_outer_semi_joined_table(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain(optimized=False)
    assert "SEMI JOIN" in plan, plan


@pytest.mark.parametrize("query", NOT_SHARED)
def test_not_shared_where_a_group_would_miss_rows(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain(optimized=False)
    assert "SEMI JOIN" not in plan, plan


def test_not_shared_when_the_join_keeps_most_rows() -> None:
    # Every key of t has a partner: the semi-joined copy would be as big as t.
    tables = {"t": pl.LazyFrame({"k": [i % 50 for i in range(2000)], "v": list(range(2000))}),
              "r": pl.LazyFrame({"y": list(range(50))})}
    query = "select count(*) from t, r where t.k = r.y and t.v < (select avg(v) from t t2 where t2.k = r.y)"
    lf = pl.SQLContext(tables).execute(query)
    assert "SEMI JOIN" not in lf.explain(optimized=False)
    assert lf.collect().rows() == duckdb_rows(query, tables)
