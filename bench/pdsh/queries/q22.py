"""Q22, global sales opportunity: customers of seven country codes with a high balance and no
orders."""
import frazil as pl


def q(customer: pl.LazyFrame, orders: pl.LazyFrame) -> pl.LazyFrame:
    codes = ["13", "31", "23", "29", "30", "18", "17"]
    candidates = customer.with_columns(pl.col("c_phone").str.slice(0, 2).alias("cntrycode")).filter(
        pl.col("cntrycode").is_in(codes)
    )
    average = candidates.filter(pl.col("c_acctbal") > 0.0).select(pl.col("c_acctbal").mean().alias("avg_acctbal"))
    return (
        candidates.join(average, how="cross")
        .filter(pl.col("c_acctbal") > pl.col("avg_acctbal"))
        .join(orders, left_on="c_custkey", right_on="o_custkey", how="anti")
        .group_by("cntrycode")
        .agg(pl.len().alias("numcust"), pl.col("c_acctbal").sum().round(2).alias("totacctbal"))
        .sort("cntrycode")
    )
