"""Positions and selection, distinct values and counts, value mapping, differential against
Polars: gather, get, gather_every, slice/head/tail with expressions, arg_*, search_sorted,
top_k_by/bottom_k_by, min_by/max_by, extend_constant, append, repeat_by, is_duplicated &
co, mode, value_counts, unique_counts, approx_n_unique, implode, replace, replace_strict;
in a select, inside agg() and over(), optimizations on and off."""
import polars as pl
import pytest

from expr_checks import NUMS, check_agg, check_all, check_over, check_select, ok
from fuzz.harness import assert_same, assert_same_error


@pytest.mark.parametrize("idx", [[0], [0, -1, 2], [], [1, 1]])
def test_gather(idx):
    check_select(lambda pl: pl.col("i").gather(idx), edges=False)
    check_agg(lambda pl: pl.col("i").gather([0, -1]))
    check_select(lambda pl: pl.col("s").gather(pl.col("j").drop_nulls()), edges=False)


def test_gather_out_of_bounds():
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").gather([100])), NUMS)
    check_select(lambda pl: pl.col("i").gather([100, 1], null_on_oob=True), edges=False)


@pytest.mark.parametrize("idx", [0, -1, 3])
def test_get(idx):
    check_select(lambda pl: pl.col("f").get(idx), edges=False)
    check_agg(lambda pl: pl.col("f").get(0))
    check_over(lambda pl: pl.col("i").get(0))


@pytest.mark.parametrize("n, offset", [(1, 0), (2, 1), (3, 0), (10, 2)])
def test_gather_every(n, offset):
    check_select(lambda pl: pl.col("i").gather_every(n, offset))
    check_agg(lambda pl: pl.col("i").gather_every(n, offset))


@pytest.mark.parametrize("offset, length", [(0, 2), (1, None), (-3, 2), (-20, 5), (5, 100)])
def test_slice_head_tail(offset, length):
    check_select(lambda pl: pl.col("i").slice(offset, length))
    check_agg(lambda pl: pl.col("i").slice(offset, length))
    check_agg(lambda pl: pl.col("i").slice(pl.len() - 1))
    check_agg(lambda pl: pl.col("i").head(pl.len() // 2).alias("h"))
    check_select(lambda pl: pl.col("i").tail(pl.lit(3)))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("nulls_last", [False, True])
@pytest.mark.parametrize("col", ["i", "f", "s"])
def test_arg_sort(col, descending, nulls_last):
    check_all(lambda pl: pl.col(col).arg_sort(descending=descending, nulls_last=nulls_last))


@pytest.mark.parametrize("fn", ["arg_min", "arg_max"])
@pytest.mark.parametrize("col", ["i", "f", "h", "s", "b", "u16"])
def test_arg_min_max(fn, col):
    if col == "b":  # (Polars 2.1's optimized lazy arg_max of a Boolean gives the last true, eager the first)
        if fn == "arg_min":
            check_all(lambda pl: getattr(pl.col(col), fn)())
        return
    check_all(lambda pl: getattr(pl.col(col), fn)())


def test_arg_unique_and_arg_true():
    check_select(lambda pl: pl.col("j").arg_unique())
    check_agg(lambda pl: pl.col("j").arg_unique())
    check_select(lambda pl: (pl.col("i") > 0).arg_true())
    check_agg(lambda pl: (pl.col("i") > 0).arg_true())
    check_select(lambda pl: pl.arg_where(pl.col("b")))


@pytest.mark.parametrize("side", ["any", "left", "right"])
def test_search_sorted(side):
    data = pl.DataFrame({"x": [None, 1, 1, 2, 4, 4, 4, 9]})
    check_select(lambda pl: pl.col("x").search_sorted(4, side), data, edges=False)
    check_select(lambda pl: pl.col("x").search_sorted(pl.Series([0, 4, 10, None]), side), data, edges=False)
    data = pl.DataFrame({"x": [9, 4, 4, 2, 1]})
    check_select(lambda pl: pl.col("x").search_sorted(4, side, descending=True), data, edges=False)


@pytest.mark.parametrize("fn", ["top_k_by", "bottom_k_by"])
@pytest.mark.parametrize("k", [0, 2, 5, 20])
def test_top_bottom_k_by(fn, k):
    # Polars leaves the order of the k rows unspecified.
    q = lambda build: (lambda pl, lf: lf.select(build(pl)))  # noqa: E731
    for chunks in (1, 3):
        ok(assert_same(q(lambda pl: getattr(pl.col("s"), fn)("t", k)), NUMS, check_row_order=False, chunks=chunks))
        assert_same(q(lambda pl: getattr(pl.col("i"), fn)(["j", "t"], k, reverse=[True, False])), NUMS,
                    check_row_order=False, chunks=chunks)
    ok(assert_same(lambda pl, lf: lf.group_by("g").agg(getattr(pl.col("i"), fn)("t", k).sort()).sort("g"), NUMS))


@pytest.mark.parametrize("fn", ["min_by", "max_by"])
@pytest.mark.parametrize("by", ["f", "i", "s", "t"])
def test_min_max_by(fn, by):
    if by == "f":  # (-0.0 and 0.0 tie; Polars 2.1 breaks the tie differently over several chunks)
        check_select(lambda pl: getattr(pl.col("j"), fn)(by), chunks=False)
        return
    check_all(lambda pl: getattr(pl.col("j"), fn)(by))


def test_extend_constant_append_repeat_by():
    check_select(lambda pl: pl.col("i").extend_constant(7, 2))
    check_agg(lambda pl: pl.col("i").extend_constant(None, 1))
    check_select(lambda pl: pl.col("i").append(pl.col("f")))
    check_select(lambda pl: pl.col("s").append(pl.lit("z")))
    check_all(lambda pl: pl.col("s").repeat_by("u16"), over=False)
    check_select(lambda pl: pl.col("i").repeat_by(2))


@pytest.mark.parametrize("fn", ["is_duplicated", "is_unique", "is_first_distinct", "is_last_distinct"])
@pytest.mark.parametrize("col", ["i", "f", "s", "b", "j"])
def test_distinct_tests(fn, col):
    check_all(lambda pl: getattr(pl.col(col), fn)())


@pytest.mark.parametrize("col", ["i", "j", "s", "b"])
def test_mode_value_counts_unique_counts(col):
    assert_same(lambda pl, lf: lf.select(pl.col(col).mode()), NUMS, check_row_order=False)
    for kw in ({}, {"normalize": True}, {"name": "n"}):
        assert_same(lambda pl, lf: lf.select(pl.col(col).value_counts(**kw)).unnest(col) if False else
                    lf.select(pl.col(col).value_counts(**kw)), NUMS, check_row_order=False)
    ok(assert_same(lambda pl, lf: lf.select(pl.col(col).value_counts(sort=True)).head(1), NUMS))
    check_select(lambda pl: pl.col(col).unique_counts())
    check_agg(lambda pl: pl.col(col).unique_counts())
    check_all(lambda pl: pl.col(col).approx_n_unique())


def test_implode():
    check_select(lambda pl: pl.col("i").implode())
    check_agg(lambda pl: pl.col("s").implode())


@pytest.mark.parametrize("old, new", [(1, 10), ([3, -1], [30, 10]), ([None], [0]), ({3: 0, 7: None}, None),
                                      ([1.5, 3], [2, 4])])
def test_replace(old, new):
    if new is None:
        check_all(lambda pl: pl.col("i").replace(old))
    else:
        check_all(lambda pl: pl.col("i").replace(old, new))


def test_replace_strings_and_expressions():
    check_all(lambda pl: pl.col("s").replace(["x", "y"], ["X", "Y"]))
    check_select(lambda pl: pl.col("s").replace("x", pl.lit("Q")))


@pytest.mark.parametrize("default", [None, "z", "col"])
def test_replace_strict(default):
    mapping = {3: "three", -1: "minus one", 0: "zero", 7: "seven", -5: "m5", 2: "two"}
    if default is None:
        check_all(lambda pl: pl.col("i").replace_strict(mapping))
    elif default == "col":
        check_all(lambda pl: pl.col("i").replace_strict({3: "three"}, default=pl.col("s")))
    else:
        check_all(lambda pl: pl.col("i").replace_strict({3: "three"}, default=default))
    check_select(lambda pl: pl.col("i").replace_strict([3, 7], [1.5, 2.5], default=0, return_dtype=pl.Float32))


def test_replace_strict_without_a_match_is_an_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").replace_strict({3: 1})), NUMS)


# Length-changing functions reduced to one value, so that they stand everywhere (a select, no
# rows, one row, several chunks, agg() and over()): the contexts the tests above leave out.
REDUCED = {
    "gather_every": lambda pl: pl.col("i").gather_every(2, offset=1).sum(),
    "search_sorted": lambda pl: pl.col("f").sort().search_sorted(0.5, side="left"),
    "arg_unique": lambda pl: pl.col("j").arg_unique().len(),
    "arg_true": lambda pl: (pl.col("i") > 0).arg_true().max(),
    "value_counts": lambda pl: pl.col("s").value_counts(sort=True).struct.field("count").max(),
    "value_counts_normalized": lambda pl: pl.col("j").value_counts(normalize=True).struct.field("proportion").max(),
    "unique_counts": lambda pl: pl.col("f").unique_counts().max(),
    "mode": lambda pl: pl.col("j").mode().min(),
    "implode": lambda pl: pl.col("i").implode().list.len(),
    "hist": lambda pl: pl.col("f").hist(bins=[-1, 0, 1]).sum(),
    "rle": lambda pl: pl.col("j").rle().struct.field("len").max(),
    "head_tail_slice": lambda pl: pl.col("i").head(3).sum() - pl.col("i").tail(2).min() + pl.col("i").slice(1, 2).max(),
    "extend_constant": lambda pl: pl.col("i").extend_constant(None, 2).count(),
    "append": lambda pl: pl.col("i").append(pl.col("j")).max(),
    "top_k_by": lambda pl: pl.col("i").top_k_by([pl.col("f"), pl.col("i")], 2).min(),
    # random: read through aggregates their order cannot change
    "sample": lambda pl: pl.col("i").sample(fraction=0.5, seed=1).len(),
    "shuffle": lambda pl: pl.col("f").shuffle(seed=3).max(),
    "sample_all": lambda pl: pl.col("s").sample(fraction=1.0, shuffle=True, seed=2).min(),
}


@pytest.mark.parametrize("name", list(REDUCED))
def test_reduced_length_changing_functions_everywhere(name):
    # (search_sorted's one value is not an aggregate: inside over() it raises, tested below.)
    check_all(REDUCED[name], over=name != "search_sorted")


@pytest.mark.parametrize("build", [
    lambda pl: pl.col("f").sort().search_sorted(0.5),
    lambda pl: pl.col("i").search_sorted(pl.lit(2)),
    lambda pl: pl.col("i").search_sorted(pl.col("i").first()),
    lambda pl: pl.col("i").head(1),
    lambda pl: pl.col("j").mode(),
], ids=["search_sorted", "search_sorted_lit", "search_sorted_first", "head_1", "mode"])
def test_one_row_non_aggregate_over_partitions_is_a_shape_error(build):
    # Only aggregates are broadcast over a partition: a non-aggregate giving a partition of
    # several rows one row is Polars' ShapeError, not a broadcast.
    assert_same_error(lambda pl, lf: lf.select(build(pl).over("g")), NUMS, kind="ShapeError")
    # A partition of one row takes its one value; no rows give no rows.
    ones = NUMS.filter(pl.col("g") == "c")
    ok(assert_same(lambda pl, lf: lf.select(build(pl).over("g")), ones))
    assert_same(lambda pl, lf: lf.select(build(pl).over("g")), NUMS.clear())
