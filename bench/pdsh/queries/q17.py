"""Q17, small-quantity-order revenue: yearly loss if small orders of one brand and container
were dropped."""
import frazil as pl


def q(lineitem: pl.LazyFrame, part: pl.LazyFrame) -> pl.LazyFrame:
    items = part.filter((pl.col("p_brand") == "Brand#23") & (pl.col("p_container") == "MED BOX")).join(
        lineitem, left_on="p_partkey", right_on="l_partkey"
    )
    small = items.group_by("p_partkey").agg((0.2 * pl.col("l_quantity").mean()).alias("small_quantity"))
    return (
        items.join(small, on="p_partkey")
        .filter(pl.col("l_quantity") < pl.col("small_quantity"))
        .select((pl.col("l_extendedprice").sum() / 7.0).round(2).alias("avg_yearly"))
    )
