"""Q5, local supplier volume: 1994 revenue in Asia from orders whose customer and supplier
share a nation."""
from datetime import date

import frazil as pl


def q(customer: pl.LazyFrame, orders: pl.LazyFrame, lineitem: pl.LazyFrame, supplier: pl.LazyFrame,
      nation: pl.LazyFrame, region: pl.LazyFrame) -> pl.LazyFrame:
    return (
        region.filter(pl.col("r_name") == "ASIA")
        .join(nation, left_on="r_regionkey", right_on="n_regionkey")
        .join(customer, left_on="n_nationkey", right_on="c_nationkey")
        .join(
            orders.filter(pl.col("o_orderdate").is_between(date(1994, 1, 1), date(1995, 1, 1), closed="left")),
            left_on="c_custkey",
            right_on="o_custkey",
        )
        .join(lineitem, left_on="o_orderkey", right_on="l_orderkey")
        .join(supplier, left_on=["l_suppkey", "n_nationkey"], right_on=["s_suppkey", "s_nationkey"])
        .group_by("n_name")
        .agg((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).sum().round(2).alias("revenue"))
        .sort("revenue", descending=True)
    )
