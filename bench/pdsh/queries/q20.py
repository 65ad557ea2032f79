"""Q20, potential part promotion: Canadian suppliers with an excess of 'forest' parts."""
from datetime import date

import frazil as pl


def q(supplier: pl.LazyFrame, nation: pl.LazyFrame, partsupp: pl.LazyFrame, part: pl.LazyFrame,
      lineitem: pl.LazyFrame) -> pl.LazyFrame:
    shipped = (
        lineitem.filter(pl.col("l_shipdate").is_between(date(1994, 1, 1), date(1995, 1, 1), closed="left"))
        .group_by("l_partkey", "l_suppkey")
        .agg(pl.col("l_quantity").sum().alias("shipped_qty"))
    )
    excess = (
        partsupp.join(part.filter(pl.col("p_name").str.starts_with("forest")), left_on="ps_partkey",
                      right_on="p_partkey", how="semi")
        .join(shipped, left_on=["ps_partkey", "ps_suppkey"], right_on=["l_partkey", "l_suppkey"])
        .filter(pl.col("ps_availqty") > 0.5 * pl.col("shipped_qty"))
    )
    return (
        supplier.join(nation.filter(pl.col("n_name") == "CANADA"), left_on="s_nationkey", right_on="n_nationkey")
        .join(excess, left_on="s_suppkey", right_on="ps_suppkey", how="semi")
        .select("s_name", "s_address")
        .sort("s_name")
    )
