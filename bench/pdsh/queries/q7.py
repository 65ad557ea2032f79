"""Q7, volume shipping: yearly revenue of goods shipped between France and Germany."""
from datetime import date

import frazil as pl


def q(supplier: pl.LazyFrame, lineitem: pl.LazyFrame, orders: pl.LazyFrame, customer: pl.LazyFrame,
      nation: pl.LazyFrame) -> pl.LazyFrame:
    pair = nation.filter(pl.col("n_name").is_in(["FRANCE", "GERMANY"]))
    suppliers = supplier.join(pair, left_on="s_nationkey", right_on="n_nationkey").select(
        "s_suppkey", pl.col("n_name").alias("supp_nation")
    )
    customers = customer.join(pair, left_on="c_nationkey", right_on="n_nationkey").select(
        "c_custkey", pl.col("n_name").alias("cust_nation")
    )
    return (
        lineitem.filter(pl.col("l_shipdate").is_between(date(1995, 1, 1), date(1996, 12, 31)))
        .join(suppliers, left_on="l_suppkey", right_on="s_suppkey")
        .join(orders, left_on="l_orderkey", right_on="o_orderkey")
        .join(customers, left_on="o_custkey", right_on="c_custkey")
        .filter(pl.col("supp_nation") != pl.col("cust_nation"))
        .with_columns(
            pl.col("l_shipdate").dt.year().alias("l_year"),
            (pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).alias("volume"),
        )
        .group_by("supp_nation", "cust_nation", "l_year")
        .agg(pl.col("volume").sum().round(2).alias("revenue"))
        .sort("supp_nation", "cust_nation", "l_year")
    )
