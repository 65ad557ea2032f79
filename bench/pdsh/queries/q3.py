"""Q3, shipping priority: the ten unshipped orders of the BUILDING segment with the highest
revenue."""
from datetime import date

import frazil as pl


def q(customer: pl.LazyFrame, orders: pl.LazyFrame, lineitem: pl.LazyFrame) -> pl.LazyFrame:
    day = date(1995, 3, 15)
    return (
        customer.filter(pl.col("c_mktsegment") == "BUILDING")
        .join(orders.filter(pl.col("o_orderdate") < day), left_on="c_custkey", right_on="o_custkey")
        .join(lineitem.filter(pl.col("l_shipdate") > day), left_on="o_orderkey", right_on="l_orderkey")
        .group_by("o_orderkey", "o_orderdate", "o_shippriority")
        .agg((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).sum().round(2).alias("revenue"))
        .select(pl.col("o_orderkey").alias("l_orderkey"), "revenue", "o_orderdate", "o_shippriority")
        .sort(["revenue", "o_orderdate"], descending=[True, False])
        .head(10)
    )
