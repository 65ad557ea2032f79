"""Q11, important stock identification: German parts holding more than 0.01% of the German
stock value."""
import frazil as pl


def q(partsupp: pl.LazyFrame, supplier: pl.LazyFrame, nation: pl.LazyFrame) -> pl.LazyFrame:
    return (
        partsupp.join(supplier, left_on="ps_suppkey", right_on="s_suppkey")
        .join(nation.filter(pl.col("n_name") == "GERMANY"), left_on="s_nationkey", right_on="n_nationkey")
        .group_by("ps_partkey")
        .agg((pl.col("ps_supplycost") * pl.col("ps_availqty")).sum().alias("value"))
        .filter(pl.col("value") > pl.col("value").sum() * 0.0001)
        .with_columns(pl.col("value").round(2))
        .sort("value", descending=True)
    )
