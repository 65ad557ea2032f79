"""Q2, minimum cost supplier: for each 15-size BRASS part, the European suppliers with the
lowest supply cost."""
import frazil as pl


def q(part: pl.LazyFrame, partsupp: pl.LazyFrame, supplier: pl.LazyFrame, nation: pl.LazyFrame,
      region: pl.LazyFrame) -> pl.LazyFrame:
    europe = (
        partsupp.join(supplier, left_on="ps_suppkey", right_on="s_suppkey")
        .join(nation, left_on="s_nationkey", right_on="n_nationkey")
        .join(region.filter(pl.col("r_name") == "EUROPE"), left_on="n_regionkey", right_on="r_regionkey")
    )
    candidates = part.filter(
        (pl.col("p_size") == 15) & pl.col("p_type").str.ends_with("BRASS")
    ).join(europe, left_on="p_partkey", right_on="ps_partkey")
    cheapest = candidates.group_by("p_partkey").agg(pl.col("ps_supplycost").min())
    return (
        candidates.join(cheapest, on=["p_partkey", "ps_supplycost"])
        .select("s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone", "s_comment")
        .sort(["s_acctbal", "n_name", "s_name", "p_partkey"], descending=[True, False, False, False])
        .head(100)
    )
