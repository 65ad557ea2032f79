"""GROUP BY over a join with a table that the query also aggregates by its join keys (an
IN subquery's GROUP BY ... HAVING) reads that aggregate instead of the table
(sql/reuse_key_aggregate.hpp): PDS-H q18 then reads lineitem once. Compared with DuckDB,
with optimizations on and off, where re-aggregating would be wrong or inexact (duplicate
partner keys, nulls, float sums, group keys of the table)."""
from __future__ import annotations

import re

import pytest

import frazil as pl
from sql_checks import duckdb_rows, rounded


def _tables() -> dict[str, pl.LazyFrame]:
    n = 3000
    t = {
        "k": [i % 300 for i in range(n)],
        "q": [(i * 37) % 11 for i in range(n)],
        "qn": [None if i % 13 == 0 else i % 7 for i in range(n)],
        "f": [((i * 7919) % 1000) / 7.0 for i in range(n)],
        "s": [chr(97 + (i * 31) % 26) for i in range(n)],
    }
    # o: keys of t, some twice (each t row of the key joins both), one t lacks, one null.
    ks = list(range(0, 300, 3)) + list(range(0, 60, 6)) + [1000, None]
    o = {"k": ks, "a": [i % 4 for i in range(len(ks))], "b": [i % 9 for i in range(len(ks))]}
    return {"t": pl.LazyFrame(t), "o": pl.LazyFrame(o)}


REUSED = [
    # q18's shape, with partner keys that repeat.
    "select o.a, o.k, sum(t.q) from t, o where t.k = o.k and o.k in "
    "(select k from t group by k having sum(q) > 50) group by o.a, o.k order by 1, 2",
    "select o.a, sum(t.q) from t, o where t.k = o.k and o.k in "
    "(select k from t group by k having sum(q) > 50) group by o.a order by 1",
    # Min and max, of a string too; the group keys include the table's join key.
    "select t.k, o.b, min(t.q), max(t.s) from t join o on t.k = o.k where o.k in "
    "(select k from t group by k having min(q) < 2 and max(s) > 'w') group by t.k, o.b order by 1, 2",
]

NOT_REUSED = [
    # A float sum would change with the order of adding.
    "select o.a, sum(t.f) from t, o where t.k = o.k and o.k in "
    "(select k from t group by k having sum(f) > 50) group by o.a order by 1",
    # A group key of the table that is not its join key.
    "select t.q, sum(t.q) from t, o where t.k = o.k and o.k in "
    "(select k from t group by k having sum(q) > 50) group by t.q order by 1",
    # The other aggregate groups by another key.
    "select o.a, sum(t.q) from t, o where t.k = o.k and o.k in "
    "(select q from t group by q having sum(q) > 50) group by o.a order by 1",
    # A condition on the table's rows after the join: a key's joined rows are not all kept.
    "select o.a, sum(t.q) from t join o on t.k = o.k where t.q > 3 and o.k in "
    "(select k from t group by k having sum(q) > 50) group by o.a order by 1",
    # An aggregation the other one does not compute.
    "select o.a, max(t.q) from t, o where t.k = o.k and o.k in "
    "(select k from t group by k having sum(q) > 50) group by o.a order by 1",
]

EQUAL_ONLY = [
    # A sum of a column with nulls (SQL's NULL for no values) and the IN on the table's key.
    "select o.a, sum(t.qn) from t, o where t.k = o.k and o.k in "
    "(select k from t group by k having sum(qn) > 20) group by o.a order by 1",
    "select t.k, sum(t.q) from t join o on t.k = o.k where t.k in "
    "(select k from t group by k having sum(q) > 50) group by t.k order by 1",
]


REAGGREGATED = re.compile(r'col\("__sql_agg_\d+"\)\.(sum|min|max)\(\)')


@pytest.mark.parametrize("query", REUSED + NOT_REUSED + EQUAL_ONLY)
def test_equal_to_duckdb_with_and_without_optimizations(query: str) -> None:
    tables = _tables()
    lf = pl.SQLContext(tables).execute(query)
    expected = rounded(duckdb_rows(query, tables), 6)
    assert rounded(lf.collect().rows(), 6) == expected
    assert rounded(lf.collect(optimizations=pl.QueryOptFlags.none()).rows(), 6) == expected


@pytest.mark.parametrize("query", REUSED)
def test_group_by_reads_the_key_aggregate(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain(optimized=False)
    assert REAGGREGATED.search(plan), plan


@pytest.mark.parametrize("query", NOT_REUSED)
def test_group_by_reads_the_table_where_reaggregating_is_wrong(query: str) -> None:
    plan = pl.SQLContext(_tables()).execute(query).explain(optimized=False)
    assert not REAGGREGATED.search(plan), plan
