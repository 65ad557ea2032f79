"""Q1, pricing summary report: shipped quantities, prices and discounts per flag and status."""
from datetime import date

import frazil as pl


def q(lineitem: pl.LazyFrame) -> pl.LazyFrame:
    disc_price = pl.col("l_extendedprice") * (1 - pl.col("l_discount"))
    return (
        lineitem.filter(pl.col("l_shipdate") <= date(1998, 9, 2))
        .group_by("l_returnflag", "l_linestatus")
        .agg(
            pl.col("l_quantity").sum().alias("sum_qty"),
            pl.col("l_extendedprice").sum().alias("sum_base_price"),
            disc_price.sum().alias("sum_disc_price"),
            (disc_price * (1 + pl.col("l_tax"))).sum().alias("sum_charge"),
            pl.col("l_quantity").mean().alias("avg_qty"),
            pl.col("l_extendedprice").mean().alias("avg_price"),
            pl.col("l_discount").mean().alias("avg_disc"),
            pl.len().alias("count_order"),
        )
        .sort("l_returnflag", "l_linestatus")
    )
