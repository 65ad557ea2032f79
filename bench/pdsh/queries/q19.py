"""Q19, discounted revenue: revenue of air-shipped, hand-delivered parts of three brand and
container groups."""
import frazil as pl


def q(lineitem: pl.LazyFrame, part: pl.LazyFrame) -> pl.LazyFrame:
    def group(brand: str, containers: list, low: int, high_size: int) -> pl.Expr:
        return (
            (pl.col("p_brand") == brand)
            & pl.col("p_container").is_in(containers)
            & pl.col("l_quantity").is_between(low, low + 10)
            & pl.col("p_size").is_between(1, high_size)
        )

    return (
        lineitem.filter(
            pl.col("l_shipmode").is_in(["AIR", "AIR REG"]),
            pl.col("l_shipinstruct") == "DELIVER IN PERSON",
        )
        .join(part, left_on="l_partkey", right_on="p_partkey")
        .filter(
            group("Brand#12", ["SM CASE", "SM BOX", "SM PACK", "SM PKG"], 1, 5)
            | group("Brand#23", ["MED BAG", "MED BOX", "MED PKG", "MED PACK"], 10, 10)
            | group("Brand#34", ["LG CASE", "LG BOX", "LG PACK", "LG PKG"], 20, 15)
        )
        .select((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).sum().round(2).alias("revenue"))
    )
