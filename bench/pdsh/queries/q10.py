"""Q10, returned item reporting: the 20 customers who lost the most revenue to returns in one
quarter."""
from datetime import date

import frazil as pl


def q(customer: pl.LazyFrame, orders: pl.LazyFrame, lineitem: pl.LazyFrame, nation: pl.LazyFrame) -> pl.LazyFrame:
    return (
        orders.filter(pl.col("o_orderdate").is_between(date(1993, 10, 1), date(1994, 1, 1), closed="left"))
        .join(lineitem.filter(pl.col("l_returnflag") == "R"), left_on="o_orderkey", right_on="l_orderkey")
        .join(customer, left_on="o_custkey", right_on="c_custkey")
        .join(nation, left_on="c_nationkey", right_on="n_nationkey")
        .group_by("o_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment")
        .agg((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).sum().round(2).alias("revenue"))
        .select(
            pl.col("o_custkey").alias("c_custkey"),
            "c_name",
            "revenue",
            "c_acctbal",
            "n_name",
            "c_address",
            "c_phone",
            "c_comment",
        )
        .sort("revenue", descending=True)
        .head(20)
    )
