"""Q9, product type profit measure: yearly profit per supplier nation on 'green' parts."""
import frazil as pl


def q(part: pl.LazyFrame, supplier: pl.LazyFrame, lineitem: pl.LazyFrame, partsupp: pl.LazyFrame,
      orders: pl.LazyFrame, nation: pl.LazyFrame) -> pl.LazyFrame:
    return (
        part.filter(pl.col("p_name").str.contains("green"))
        .join(lineitem, left_on="p_partkey", right_on="l_partkey")
        .join(partsupp, left_on=["p_partkey", "l_suppkey"], right_on=["ps_partkey", "ps_suppkey"])
        .join(supplier, left_on="l_suppkey", right_on="s_suppkey")
        .join(orders, left_on="l_orderkey", right_on="o_orderkey")
        .join(nation, left_on="s_nationkey", right_on="n_nationkey")
        .select(
            pl.col("n_name").alias("nation"),
            pl.col("o_orderdate").dt.year().alias("o_year"),
            (
                pl.col("l_extendedprice") * (1 - pl.col("l_discount"))
                - pl.col("ps_supplycost") * pl.col("l_quantity")
            ).alias("amount"),
        )
        .group_by("nation", "o_year")
        .agg(pl.col("amount").sum().round(2).alias("sum_profit"))
        .sort(["nation", "o_year"], descending=[False, True])
    )
