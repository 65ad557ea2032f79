"""Q18, large volume customer: the 100 largest orders of more than 300 units."""
import frazil as pl


def q(customer: pl.LazyFrame, orders: pl.LazyFrame, lineitem: pl.LazyFrame) -> pl.LazyFrame:
    large = (
        lineitem.group_by("l_orderkey")
        .agg(pl.col("l_quantity").sum().alias("sum_quantity"))
        .filter(pl.col("sum_quantity") > 300)
    )
    return (
        orders.join(large, left_on="o_orderkey", right_on="l_orderkey")
        .join(customer, left_on="o_custkey", right_on="c_custkey")
        .select(
            "c_name",
            pl.col("o_custkey").alias("c_custkey"),
            "o_orderkey",
            pl.col("o_orderdate").alias("o_orderdat"),
            "o_totalprice",
            pl.col("sum_quantity").alias("col6"),
        )
        .sort(["o_totalprice", "o_orderdat"], descending=[True, False])
        .head(100)
    )
