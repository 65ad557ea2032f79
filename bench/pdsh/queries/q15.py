"""Q15, top supplier: the supplier(s) with the most revenue in the first quarter of 1996."""
from datetime import date

import frazil as pl


def q(lineitem: pl.LazyFrame, supplier: pl.LazyFrame) -> pl.LazyFrame:
    revenue = (
        lineitem.filter(pl.col("l_shipdate").is_between(date(1996, 1, 1), date(1996, 4, 1), closed="left"))
        .group_by("l_suppkey")
        .agg((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).sum().alias("total_revenue"))
    )
    return (
        supplier.join(revenue, left_on="s_suppkey", right_on="l_suppkey")
        .filter(pl.col("total_revenue") == pl.col("total_revenue").max())
        .select("s_suppkey", "s_name", "s_address", "s_phone", pl.col("total_revenue").round(2))
        .sort("s_suppkey")
    )
