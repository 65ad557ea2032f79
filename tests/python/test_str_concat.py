"""pl.concat_str, pl.format and str.join, differential against Polars: separators, nulls
(propagated or ignored), non-string inputs cast to String, group_by aggregation."""
import datetime as dt

import pytest

from fuzz.harness import assert_same

DATA = {"a": ["x", None, "héllo", ""], "b": [1, 2, None, 4], "c": [1.5, None, -0.0, 2.0],
        "d": [dt.date(2024, 1, 1), None, dt.date(1969, 12, 31), dt.date(2150, 6, 1)], "g": [1, 1, 2, 2]}


@pytest.mark.parametrize("sep", ["", "-", "::", "é"])
@pytest.mark.parametrize("ignore_nulls", [False, True])
def test_concat_str(sep, ignore_nulls):
    assert_same(lambda pl, lf: lf.select(pl.concat_str("a", "b", pl.col("c"), "d", pl.lit("!"), separator=sep,
                                                       ignore_nulls=ignore_nulls)), DATA, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.concat_str([pl.col("a"), pl.col("a").str.to_uppercase()],
                                                       separator=sep)), DATA)


def test_format():
    assert_same(lambda pl, lf: lf.select(pl.format("{} and {}!", pl.col("a"), pl.col("b")).alias("f"),
                                         pl.format("{}", "c").alias("g"), pl.format("no args").alias("h")), DATA)


@pytest.mark.parametrize("ignore_nulls", [False, True])
def test_join(ignore_nulls):
    assert_same(lambda pl, lf: lf.select(pl.col("a").str.join("-", ignore_nulls=ignore_nulls)), DATA)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("a").str.join(",", ignore_nulls=ignore_nulls))
                .sort("g"), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("b").str.join("|")), DATA)
