"""Q14, promotion effect: the share of September 1995 revenue from promoted parts."""
from datetime import date

import frazil as pl


def q(lineitem: pl.LazyFrame, part: pl.LazyFrame) -> pl.LazyFrame:
    revenue = pl.col("l_extendedprice") * (1 - pl.col("l_discount"))
    return (
        lineitem.filter(pl.col("l_shipdate").is_between(date(1995, 9, 1), date(1995, 10, 1), closed="left"))
        .join(part, left_on="l_partkey", right_on="p_partkey")
        .select(
            (100.0 * pl.when(pl.col("p_type").str.starts_with("PROMO")).then(revenue).otherwise(0).sum() / revenue.sum())
            .round(2)
            .alias("promo_revenue")
        )
    )
