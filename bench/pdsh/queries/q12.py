"""Q12, shipping modes and order priority: late 1994 line items by ship mode and priority."""
from datetime import date

import frazil as pl


def q(orders: pl.LazyFrame, lineitem: pl.LazyFrame) -> pl.LazyFrame:
    urgent = pl.col("o_orderpriority").is_in(["1-URGENT", "2-HIGH"])
    return (
        lineitem.filter(
            pl.col("l_shipmode").is_in(["MAIL", "SHIP"]),
            pl.col("l_commitdate") < pl.col("l_receiptdate"),
            pl.col("l_shipdate") < pl.col("l_commitdate"),
            pl.col("l_receiptdate").is_between(date(1994, 1, 1), date(1995, 1, 1), closed="left"),
        )
        .join(orders, left_on="l_orderkey", right_on="o_orderkey")
        .group_by("l_shipmode")
        .agg(
            pl.when(urgent).then(1).otherwise(0).sum().alias("high_line_count"),
            pl.when(urgent).then(0).otherwise(1).sum().alias("low_line_count"),
        )
        .sort("l_shipmode")
    )
