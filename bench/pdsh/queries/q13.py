"""Q13, customer distribution: how many customers have 0, 1, 2, ... ordinary orders."""
import frazil as pl


def q(customer: pl.LazyFrame, orders: pl.LazyFrame) -> pl.LazyFrame:
    ordinary = orders.filter(pl.col("o_comment").str.contains("special.*requests").not_())
    return (
        customer.join(ordinary, left_on="c_custkey", right_on="o_custkey", how="left")
        .group_by("c_custkey")
        .agg(pl.col("o_orderkey").count().alias("c_count"))
        .group_by("c_count")
        .agg(pl.len().alias("custdist"))
        .sort(["custdist", "c_count"], descending=[True, True])
    )
