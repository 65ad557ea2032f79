"""Q16, parts/supplier relationship: suppliers without complaints per brand, type and size."""
import frazil as pl


def q(part: pl.LazyFrame, partsupp: pl.LazyFrame, supplier: pl.LazyFrame) -> pl.LazyFrame:
    complained = supplier.filter(pl.col("s_comment").str.contains("Customer.*Complaints"))
    return (
        part.filter(
            pl.col("p_brand") != "Brand#45",
            pl.col("p_type").str.starts_with("MEDIUM POLISHED").not_(),
            pl.col("p_size").is_in([49, 14, 23, 45, 19, 3, 36, 9]),
        )
        .join(partsupp, left_on="p_partkey", right_on="ps_partkey")
        .join(complained, left_on="ps_suppkey", right_on="s_suppkey", how="anti")
        .group_by("p_brand", "p_type", "p_size")
        .agg(pl.col("ps_suppkey").n_unique().alias("supplier_cnt"))
        .sort(["supplier_cnt", "p_brand", "p_type", "p_size"], descending=[True, False, False, False])
    )
