"""group_by(...).agg(...) and GroupBy.len(), differential against Polars."""
import math

import polars as pl
import pytest

from fuzz.harness import assert_same

NAN = math.nan

DATA = pl.DataFrame(
    {
        "k": ["a", "b", "a", None, "c", "b", "a", None, "c", "a"],
        "k2": [1, 1, 2, 2, 1, None, 1, 2, 1, 2],
        "v": [1, 2, None, 4, 5, -6, 7, 8, None, 10],
        "f": [0.5, NAN, -0.0, 1.5, None, 2.5, -1.0, 3.0, 0.0, 1e300],
        "s": ["x", "y", None, "x", "zz", "", "q", "x", None, "w"],
        "p": [True, None, False, True, True, False, None, True, False, True],
        "fk": [1.0, -0.0, 0.0, NAN, NAN, None, 1.0, 2.0, None, -0.0],
    }
)
EMPTY = DATA.clear()
ONE = DATA.head(1)

AGGS = [
    ("sum", lambda pl: pl.col("v").sum()),
    ("mean", lambda pl: pl.col("v").mean()),
    ("min_max", lambda pl: [pl.col("v").min().alias("lo"), pl.col("f").max().alias("hi")]),
    ("count_len", lambda pl: [pl.col("v").count().alias("c"), pl.len()]),
    ("n_unique", lambda pl: pl.col("s").n_unique()),
    ("first_last", lambda pl: [pl.col("s").first(), pl.col("v").last().alias("lv")]),
    ("median", lambda pl: pl.col("v").median()),
    ("std_var", lambda pl: [pl.col("v").std().alias("sd"), pl.col("f").var().alias("va")]),
    ("quantile", lambda pl: pl.col("v").quantile(0.5, interpolation="linear")),
    ("any_all", lambda pl: [pl.col("p").any().alias("an"), pl.col("p").all().alias("al")]),
    ("null_count", lambda pl: pl.col("s").null_count()),
    ("sum_bool", lambda pl: pl.col("p").sum()),
    ("sum_float_nan", lambda pl: pl.col("f").sum()),
    ("min_str", lambda pl: pl.col("s").min()),
    ("agg_expr", lambda pl: (pl.col("v") * 2 + 1).sum()),
    ("agg_arith", lambda pl: (pl.col("v").max() - pl.col("v").min()).alias("range")),
    ("agg_ratio", lambda pl: (pl.col("v").sum() / pl.len()).alias("avg")),
    ("filtered_sum", lambda pl: pl.col("v").filter(pl.col("p")).sum()),
    ("filtered_count", lambda pl: pl.col("v").filter(pl.col("f") > 0).count()),
    ("filtered_shift_sum", lambda pl: pl.col("v").shift(1).filter(pl.lit(True)).sum()),
    ("shift_filtered_by_shift", lambda pl: pl.col("f").filter(pl.col("v").shift(-1) > 2).max()),
    ("keyword", lambda pl: {"total": pl.col("v").sum(), "n": pl.len()}),
    ("agg_cast", lambda pl: pl.col("v").sum().cast(pl.Float32)),
    ("when_in_agg", lambda pl: pl.when(pl.col("v") > 3).then(pl.col("v")).otherwise(0).sum()),
    ("agg_of_when_of_agg", lambda pl: pl.when(pl.col("v").sum() > 5).then(pl.lit("hi")).otherwise(pl.lit("lo"))),
    ("literal_in_agg", lambda pl: pl.lit(1).alias("one")),
    ("implode", lambda pl: pl.col("v")),
]


def _agg(build, pl):
    out = build(pl)
    if isinstance(out, dict):
        return [], out
    return (out if isinstance(out, list) else [out]), {}


KEYS = [
    ("one_key", lambda pl: ["k"]),
    ("two_keys", lambda pl: ["k", "k2"]),
    ("expr_key", lambda pl: [(pl.col("k2") * 10).alias("kk")]),
    ("float_key", lambda pl: ["fk"]),
    ("bool_key", lambda pl: ["p"]),
]


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("keys", [k for _, k in KEYS], ids=[n for n, _ in KEYS])
@pytest.mark.parametrize("build", [b for _, b in AGGS], ids=[n for n, _ in AGGS])
def test_group_by_agg(build, keys, frame):
    def query(pl, lf):
        pos, named = _agg(build, pl)
        return lf.group_by(*keys(pl), maintain_order=True).agg(*pos, **named)

    assert_same(query, frame, chunks=3)


@pytest.mark.parametrize("build", [b for _, b in AGGS[:12]], ids=[n for n, _ in AGGS[:12]])
def test_group_by_unordered(build):
    def query(pl, lf):
        pos, named = _agg(build, pl)
        return lf.group_by("k").agg(*pos, **named)

    assert_same(query, DATA, check_row_order=False)


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
def test_group_by_len(frame):
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).len(), frame)
    assert_same(lambda pl, lf: lf.group_by("k", "k2", maintain_order=True).len(name="n"), frame)
    assert_same(lambda pl, lf: lf.group_by("k").len(), frame, check_row_order=False)


# (Polars 2 removed GroupBy.count; frazil still has it, as an alias of len("count").)
SHORTCUTS = ["sum", "mean", "min", "max", "first", "last", "n_unique"]


@pytest.mark.parametrize("method", SHORTCUTS)
def test_group_by_shortcuts(method):
    def query(pl, lf):
        return getattr(lf.select("k", "v", "f").group_by("k", maintain_order=True), method)()

    assert_same(query, DATA)


def test_group_by_named_key_and_agg_on_key():
    assert_same(lambda pl, lf: lf.group_by(key=pl.col("k2") % 2, maintain_order=True).agg(pl.col("v").sum()), DATA)
    assert_same(lambda pl, lf: lf.group_by("k2", maintain_order=True).agg(pl.col("k").n_unique()), DATA)


def test_group_by_then_filter_sort_and_join_back():
    def query(pl, lf):
        agg = lf.group_by("k").agg(total=pl.col("v").sum())
        return lf.join(agg, on="k", how="left").filter(pl.col("total") > 5).sort("v", "s", nulls_last=True)

    assert_same(query, DATA)


def test_group_by_many_groups_chunked():
    frame = pl.DataFrame({"k": [i % 97 for i in range(3000)], "v": list(range(3000))})
    assert_same(lambda pl, lf: lf.group_by("k").agg(pl.col("v").sum(), pl.col("v").max().alias("m"), pl.len())
                .sort("k"), frame, chunks=7)


def test_agg_on_empty_frame_without_keys_in_select():
    assert_same(lambda pl, lf: lf.select(pl.col("v").sum(), pl.col("v").mean().alias("m"), pl.len()), EMPTY)


@pytest.mark.parametrize("dtype", [pl.Int64, pl.UInt64, pl.Int8])
def test_n_unique_per_group_with_extreme_integers(dtype):
    # max - min of the values overflowed (signed overflow under UBSan, found by the fuzzer).
    info = {pl.Int64: (-(2**63), 2**63 - 1), pl.UInt64: (0, 2**64 - 1), pl.Int8: (-128, 127)}[dtype]
    frame = pl.DataFrame({"k": [1, 1, 2, 2, 2], "v": [info[0], info[1], info[1], None, 0]},
                         schema={"k": pl.Int64, "v": dtype})
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(pl.col("v").n_unique()), frame)
    assert_same(lambda pl, lf: lf.select(pl.col("v").n_unique().over("k")), frame)


LISTS = [
    ("arith", lambda pl: pl.col("v") + 1),
    ("minus_group_mean", lambda pl: pl.col("v") - pl.col("v").mean()),
    ("shift", lambda pl: pl.col("v").shift(1)),
    ("filter", lambda pl: pl.col("v").filter(pl.col("f") > 0)),
    ("sort_desc", lambda pl: pl.col("s").sort(descending=True, nulls_last=True)),
    ("head", lambda pl: pl.col("v").head(2)),
    ("reverse", lambda pl: pl.col("f").reverse()),
    ("when", lambda pl: pl.when(pl.col("p")).then(pl.col("v")).otherwise(-1)),
    ("shift_then_filter", lambda pl: pl.col("f").shift(1).filter(pl.lit(True))),
    ("unique_ordered", lambda pl: pl.col("k2").unique(maintain_order=True)),
]


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("build", [b for _, b in LISTS], ids=[n for n, _ in LISTS])
def test_non_reducing_expression_gives_lists(build, frame):
    # Each group's list is the expression over that group's rows (order-dependent ones too:
    # shift() used to run over the whole column, found by the fuzzer).
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(build(pl).alias("x")), frame)


def test_null_count_of_order_dependent_input_per_group():
    # shift(fill_value=...) inside null_count() ran over the whole column (found by the fuzzer).
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(
        pl.col("v").shift(1, fill_value=0).null_count().alias("a"), pl.col("s").shift(-1).null_count().alias("b"),
        (pl.col("v") + 1).null_count().alias("c"), pl.col("v").null_count().alias("d"),
        pl.lit(None, dtype=pl.Boolean).null_count().alias("e")), DATA)


def test_null_count_of_an_aggregate_per_group():
    # One value per group (not a list) under null_count(): crashed (found by the fuzzer).
    assert_same(lambda pl, lf: lf.group_by("k", maintain_order=True).agg(
        (pl.lit(math.inf) / pl.col("f").filter(pl.lit(False)).mean()).null_count().alias("n"),
        pl.col("v").max().null_count().alias("m")), DATA)
