"""Q21, suppliers who kept orders waiting: Saudi suppliers who alone were late on a
multi-supplier order."""
import frazil as pl


def q(supplier: pl.LazyFrame, lineitem: pl.LazyFrame, orders: pl.LazyFrame, nation: pl.LazyFrame) -> pl.LazyFrame:
    late = lineitem.filter(pl.col("l_receiptdate") > pl.col("l_commitdate"))
    multi_supplier = (
        lineitem.group_by("l_orderkey")
        .agg(pl.col("l_suppkey").n_unique().alias("n_suppliers"))
        .filter(pl.col("n_suppliers") > 1)
    )
    one_late_supplier = (
        late.group_by("l_orderkey")
        .agg(pl.col("l_suppkey").n_unique().alias("n_late"))
        .filter(pl.col("n_late") == 1)
    )
    return (
        late.join(multi_supplier, on="l_orderkey", how="semi")
        .join(one_late_supplier, on="l_orderkey", how="semi")
        .join(orders.filter(pl.col("o_orderstatus") == "F"), left_on="l_orderkey", right_on="o_orderkey", how="semi")
        .join(supplier, left_on="l_suppkey", right_on="s_suppkey")
        .join(nation.filter(pl.col("n_name") == "SAUDI ARABIA"), left_on="s_nationkey", right_on="n_nationkey",
              how="semi")
        .group_by("s_name")
        .agg(pl.len().alias("numwait"))
        .sort(["numwait", "s_name"], descending=[True, False])
        .head(100)
    )
