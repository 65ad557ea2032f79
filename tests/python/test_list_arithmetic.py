"""Arithmetic with List and Array columns, differential against Polars: list with list
(element by element), list with a number column or a Python number (applied to each
element), nested lists, Arrays with numbers; nulls (null rows, null elements, null numbers),
NaN, -0.0, empty lists, no rows, one row, several chunks, optimizations on and off, and the
errors (lengths that differ, non-numeric inner types)."""
import math

import polars as pl
import pytest

from expr_checks import check_select
from fuzz.harness import assert_same, assert_same_error

LISTS = pl.DataFrame(
    {
        "a": [[1, 2], [3, None], None, [], [-4, 0], [7]],
        "b": [[1, 1], [1, 1], [2], [], [2, -3], [0]],
        "f": [[0.5, math.nan], [-0.0, 1.0], [2.0], None, [math.inf, -2.5], [0.0]],
        "c": [1, None, 3, 4, -2, 0],
        "x": [0.5, 2.0, None, -0.0, math.nan, 1.0],
        "n": [[[1, 2], [3]], [[4]], None, [[]], [[5, None]], [[6], [7, 8]]],
    },
    schema_overrides={"c": pl.Int64},
)

OPS = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__"]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize(("left", "right"), [("a", "b"), ("a", "c"), ("c", "a"), ("f", "x"), ("a", "x"),
                                             ("f", "f"), ("n", "c")])
def test_list_with_column(op, left, right):
    check_select(lambda pl: getattr(pl.col(left), op)(pl.col(right)).alias("r"), LISTS)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("number", [2, -1.5, 0])
def test_list_with_python_number_keeps_or_lifts_the_inner_dtype(op, number):
    check_select(lambda pl: getattr(pl.col("a"), op)(number).alias("r"), LISTS)
    check_select(lambda pl: getattr(pl.col("a").cast(pl.List(pl.Int8)), op)(number).alias("r"), LISTS)
    # Float32: Polars divides by a scalar through its reciprocal (last-bit differences).
    check_select(lambda pl: getattr(pl.col("f").cast(pl.List(pl.Float32)), op)(number).alias("r"), LISTS,
                 rel_tol=1e-6)


def test_array_with_number():
    data = pl.DataFrame({"a": [[1.5, -0.0], None, [math.nan, 2.0]]}, schema={"a": pl.Array(pl.Float32, 2)})
    for build in (lambda pl: pl.col("a") + 1, lambda pl: pl.col("a") / 2, lambda pl: 3 - pl.col("a"),
                  lambda pl: pl.col("a") * pl.col("a").arr.first()):
        check_select(lambda pl, b=build: b(pl).alias("r"), data)


def test_one_row_list_broadcasts():
    assert_same(lambda pl, lf: lf.select(pl.col("a") + pl.lit([10, 20], dtype=pl.List(pl.Int64))),
                {"a": [[1, 2], [3, 4], None]})


@pytest.mark.parametrize("query", [
    lambda pl, lf: lf.select(pl.col("a") + pl.col("b")),        # lengths differ in a row
    lambda pl, lf: lf.select(pl.col("s") + pl.col("s")),        # non-numeric inner types
    lambda pl, lf: lf.select(pl.col("a") + pl.col("s")),
    lambda pl, lf: lf.select(pl.col("a") + pl.col("n")),        # different nesting
    lambda pl, lf: lf.select(pl.col("a") + "x"),                # a string: a column name here
    lambda pl, lf: lf.select(pl.col("a") + pl.lit("x")),
])
def test_errors_as_polars(query):
    data = {"a": [[1, 2]], "b": [[1]], "s": [["x"]], "n": [[[1]]]}
    assert_same_error(query, data)


def test_series_of_different_lengths():
    import frazil

    for mod in (pl, frazil):
        with pytest.raises(mod.exceptions.InvalidOperationError, match="series of different lengths: got 3 and 2"):
            mod.Series([[1, 2], [3, 4], [5, 6]]) + mod.Series([1, 2])
        with pytest.raises(mod.exceptions.InvalidOperationError, match="series of different lengths: got 2 and 3"):
            mod.Series([1, 2]) + mod.Series([1, 2, 3])
