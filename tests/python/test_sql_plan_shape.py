"""The optimized plans the SQL translation makes for PDS-H's shapes: what made SQL slower
than the same query written with the DataFrame API (issue #21)."""
from __future__ import annotations

import frazil as pl


def _ctx() -> pl.SQLContext:
    orders = pl.LazyFrame({"o_orderkey": [1, 2, 3, 4], "o_custkey": [10, 10, 20, 30], "o_status": ["F", "O", "F", "F"]})
    lineitem = pl.LazyFrame({"l_orderkey": [1, 1, 2, 3, 3, 4], "l_suppkey": [5, 6, 5, 7, 7, 8], "l_late": [True, False, True, True, True, False]})
    customer = pl.LazyFrame({"c_custkey": [10, 20, 30, 40], "c_name": ["a", "b", "c", "d"]})
    return pl.SQLContext(orders=orders, lineitem=lineitem, customer=customer)


def test_not_exists_joins_on_plain_keys_without_casts() -> None:
    # The subquery's key column was bound before its type was known: the anti join cast
    # the key to Int64 (a no-op that hid the plain column from the join strategies).
    lf = _ctx().execute("SELECT c_name FROM customer WHERE NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey)")
    plan = lf.explain()
    assert "ANTI JOIN" in plan
    assert "cast" not in plan
    assert sorted(lf.collect()["c_name"].to_list()) == ["d"]


def test_correlated_exists_on_one_table_of_a_comma_join_runs_after_the_join() -> None:
    # The join with orders (status 'F') comes first: the decorrelated per-key aggregate then
    # only sees the joined rows' keys.
    lf = _ctx().execute(
        """select l1.l_orderkey, l1.l_suppkey from lineitem l1, orders
           where o_orderkey = l1.l_orderkey and o_status = 'F' and l1.l_late
             and exists (select * from lineitem l2 where l2.l_orderkey = l1.l_orderkey and l2.l_suppkey <> l1.l_suppkey)
           order by 1, 2"""
    )
    plan = lf.explain(optimized=False)
    # The join with the subquery's aggregate holds the join of l1 and orders on its left.
    lines = plan.splitlines()
    outer_join = next(i for i, line in enumerate(lines) if "INNER JOIN" in line)
    orders_at = next(i for i, line in enumerate(lines) if "o_status" in line)
    agg_at = next(i for i, line in enumerate(lines) if "AGGREGATE" in line)
    assert outer_join < orders_at < agg_at, plan
    assert sum("INNER JOIN:" in line for line in lines) == 2, plan
    assert lf.collect().rows() == [(1, 5)]
