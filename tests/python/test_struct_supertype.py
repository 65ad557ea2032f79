"""Structs of the same field names and different field dtypes meet in the struct of the
fields' supertypes, differential against Polars: comparisons (==, !=, eq_missing), when/then,
concat(how="vertical_relaxed"), with null struct rows and null fields, several chunks, no rows."""
import polars
import pytest

from fuzz.harness import assert_same

DATA = {
    "i": [{"a": 1, "b": 2}, {"a": 3, "b": 4}, None, {"a": None, "b": 0}],
    "f": [{"a": 1.0, "b": 2}, {"a": 3.5, "b": 4}, {"a": 1.0, "b": None}, {"a": None, "b": 0}],
}


@pytest.mark.parametrize("chunks", [1, 2])
def test_comparisons_and_when_then(chunks):
    assert_same(lambda pl, lf: lf.select(eq=pl.col("i") == pl.col("f"), ne=pl.col("f") != pl.col("i"),
                                         m=pl.col("i").eq_missing(pl.col("f")),
                                         w=pl.when(pl.col("i").struct.field("b") > 1).then("i").otherwise("f")),
                DATA, chunks=chunks)
    assert_same(lambda pl, lf: lf.filter(pl.col("i") == pl.col("f")), DATA, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(eq=pl.col("i") == pl.col("f")), polars.DataFrame(DATA).clear())


def test_vertical_relaxed_concat():
    assert_same(lambda pl, lf: pl.concat([lf.select(x="i"), lf.select(x="f")], how="vertical_relaxed"), DATA)
