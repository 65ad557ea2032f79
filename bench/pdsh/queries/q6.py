"""Q6, forecasting revenue change: revenue from small 1994 line items with 5-7% discount."""
from datetime import date

import frazil as pl


def q(lineitem: pl.LazyFrame) -> pl.LazyFrame:
    return lineitem.filter(
        pl.col("l_shipdate").is_between(date(1994, 1, 1), date(1995, 1, 1), closed="left"),
        pl.col("l_discount").is_between(0.05, 0.07),
        pl.col("l_quantity") < 24,
    ).select((pl.col("l_extendedprice") * pl.col("l_discount")).sum().round(2).alias("revenue"))
