"""Q4, order priority checking: orders of one quarter with at least one late line item, per
priority."""
from datetime import date

import frazil as pl


def q(orders: pl.LazyFrame, lineitem: pl.LazyFrame) -> pl.LazyFrame:
    late = lineitem.filter(pl.col("l_commitdate") < pl.col("l_receiptdate"))
    return (
        orders.filter(pl.col("o_orderdate").is_between(date(1993, 7, 1), date(1993, 10, 1), closed="left"))
        .join(late, left_on="o_orderkey", right_on="l_orderkey", how="semi")
        .group_by("o_orderpriority")
        .agg(pl.len().alias("order_count"))
        .sort("o_orderpriority")
    )
