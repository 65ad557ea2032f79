"""Q8, national market share: Brazil's yearly share of American revenue for one part type."""
from datetime import date

import frazil as pl


def q(part: pl.LazyFrame, supplier: pl.LazyFrame, lineitem: pl.LazyFrame, orders: pl.LazyFrame,
      customer: pl.LazyFrame, nation: pl.LazyFrame, region: pl.LazyFrame) -> pl.LazyFrame:
    american_customers = (
        customer.join(nation, left_on="c_nationkey", right_on="n_nationkey")
        .join(region.filter(pl.col("r_name") == "AMERICA"), left_on="n_regionkey", right_on="r_regionkey")
        .select("c_custkey")
    )
    supplier_nations = supplier.join(nation, left_on="s_nationkey", right_on="n_nationkey").select(
        "s_suppkey", pl.col("n_name").alias("nation")
    )
    return (
        part.filter(pl.col("p_type") == "ECONOMY ANODIZED STEEL")
        .join(lineitem, left_on="p_partkey", right_on="l_partkey")
        .join(
            orders.filter(pl.col("o_orderdate").is_between(date(1995, 1, 1), date(1996, 12, 31))),
            left_on="l_orderkey",
            right_on="o_orderkey",
        )
        .join(american_customers, left_on="o_custkey", right_on="c_custkey")
        .join(supplier_nations, left_on="l_suppkey", right_on="s_suppkey")
        .select(
            pl.col("o_orderdate").dt.year().alias("o_year"),
            (pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).alias("volume"),
            "nation",
        )
        .group_by("o_year")
        .agg(
            (pl.when(pl.col("nation") == "BRAZIL").then(pl.col("volume")).otherwise(0).sum() / pl.col("volume").sum())
            .round(2)
            .alias("mkt_share")
        )
        .sort("o_year")
    )
