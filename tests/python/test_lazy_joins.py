"""Joins of every type, differential against Polars. Polars (2.x) leaves the row order of
every join (semi and anti included) unspecified unless `maintain_order` is given, so rows
are compared as multisets there, and in order where `maintain_order` fixes it."""
import math

import polars as pl
import pytest

from fuzz.harness import assert_same, assert_same_error

LEFT = pl.DataFrame(
    {
        "id": [1, 2, 2, 3, None, 5, 6],
        "k2": ["a", "b", "b", "c", "a", None, "z"],
        "lv": [10.0, 20.0, 21.0, math.nan, 50.0, -0.0, None],
        "tag": ["l0", "l1", "l2", "l3", "l4", "l5", "l6"],
    }
)
RIGHT = pl.DataFrame(
    {
        "id": [2, 3, 3, 4, None, 6],
        "k2": ["b", "c", "x", "d", "a", "z"],
        "rv": [200, 300, 301, 400, 500, 600],
        "tag": ["r0", "r1", "r2", "r3", "r4", "r5"],
    }
)
SMALL_INT = pl.DataFrame({"id32": [2, 3, 7]}, schema={"id32": pl.Int32})

HOWS = ["inner", "left", "right", "full", "semi", "anti"]
# Without maintain_order no join type has a defined order in Polars 2.
ORDERED: set = set()


@pytest.mark.parametrize("how", HOWS)
def test_join_on_single_key(how):
    assert_same(lambda pl, a, b: a.join(b, on="id", how=how), LEFT, RIGHT, check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", HOWS)
def test_join_on_two_keys(how):
    assert_same(lambda pl, a, b: a.join(b, on=["id", "k2"], how=how), LEFT, RIGHT, check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", HOWS)
def test_join_left_on_right_on(how):
    def query(pl, a, b):
        return a.join(b.rename({"id": "rid"}), left_on="id", right_on="rid", how=how)

    assert_same(query, LEFT, RIGHT, check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", HOWS)
def test_join_suffix(how):
    assert_same(lambda pl, a, b: a.join(b, on="k2", how=how, suffix="_r"), LEFT, RIGHT,
                check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", ["inner", "left", "full"])
def test_join_key_expressions(how):
    def query(pl, a, b):
        return a.join(b, left_on=pl.col("id") * 2, right_on=pl.col("rv") // 100, how=how)

    assert_same(query, LEFT, RIGHT, check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", ["inner", "left", "full", "semi", "anti"])
def test_join_different_int_widths(how):
    assert_same(lambda pl, a, b: a.join(b, left_on="id", right_on="id32", how=how), LEFT, SMALL_INT,
                check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", ["left", "full", "right"])
def test_join_coalesce_flag(how):
    for coalesce in (True, False):
        assert_same(lambda pl, a, b: a.join(b, on="id", how=how, coalesce=coalesce), LEFT, RIGHT,
                    check_row_order=False)


def test_join_cross():
    assert_same(lambda pl, a, b: a.select("id", "tag").join(b.select("rv"), how="cross"), LEFT, RIGHT,
                check_row_order=False)
    assert_same(lambda pl, a, b: a.join(b, how="cross"), LEFT, RIGHT, check_row_order=False)
    assert_same(lambda pl, a, b: a.join(b.head(0), how="cross"), LEFT, RIGHT)
    assert_same(lambda pl, a, b: a.join(b, how="cross", maintain_order="left_right"), LEFT, RIGHT)


@pytest.mark.parametrize("how, order", [("inner", "left"), ("inner", "right"), ("inner", "left_right"),
                                        ("inner", "right_left"), ("left", "left"), ("left", "left_right"),
                                        ("right", "right"), ("right", "right_left"), ("full", "left_right")])
def test_join_maintain_order(how, order):
    assert_same(lambda pl, a, b: a.join(b, on="id", how=how, maintain_order=order), LEFT, RIGHT)


@pytest.mark.parametrize("how", HOWS)
def test_join_with_empty_side(how):
    assert_same(lambda pl, a, b: a.join(b.filter(pl.col("rv") < 0), on="id", how=how), LEFT, RIGHT,
                check_row_order=how in ORDERED)
    assert_same(lambda pl, a, b: a.head(0).join(b, on="id", how=how), LEFT, RIGHT, check_row_order=how in ORDERED)


@pytest.mark.parametrize("how", ["inner", "left", "semi", "anti"])
def test_join_then_filter_and_project(how):
    # Predicates and projections above a join (pushdown candidates).
    def query(pl, a, b):
        out = a.join(b, on="id", how=how)
        out = out.filter(pl.col("id") > 1).filter(pl.col("tag").str.starts_with("l"))
        return out.select("id", "tag")

    assert_same(query, LEFT, RIGHT, check_row_order=how in ORDERED)


def test_join_self_reused_subplan():
    def query(pl, a):
        sub = a.filter(pl.col("id").is_not_null()).with_columns(d=pl.col("lv") * 2)
        return sub.join(sub.select("id", "d"), on="id", how="inner").sort("tag", "d", "d_right")

    assert_same(query, LEFT)


def test_join_string_keys_with_nulls_chunked():
    assert_same(lambda pl, a, b: a.join(b, on="k2", how="full").sort("tag", "tag_right"), LEFT, RIGHT, chunks=3)


def test_join_then_group_by():
    def query(pl, a, b):
        return a.join(b, on="id").group_by("k2").agg(pl.col("rv").sum(), pl.len())

    assert_same(query, LEFT, RIGHT, check_row_order=False)


def test_join_key_dtype_mismatch_errors():
    assert_same_error(lambda pl, a, b: a.join(b, left_on="id", right_on="k2"), LEFT, RIGHT, kind="SchemaError")


def test_join_missing_key_errors():
    assert_same_error(lambda pl, a, b: a.join(b, on="nope"), LEFT, RIGHT, kind="ColumnNotFoundError")


@pytest.mark.parametrize("how", ["inner", "left", "right", "full", "cross"])
@pytest.mark.parametrize("order", ["left", "right", "left_right", "right_left"])
def test_join_maintain_order_all(how, order):
    # (One unmatched row per side: Polars leaves the order among several unmatched rows of
    # the side whose order is not kept open.)
    left = pl.DataFrame({"k": [1, 2, 3, 1, 2], "l": [0, 1, 2, 3, 4]})
    right = pl.DataFrame({"k": [1, 4, 1, 2, 2], "r": [0, 1, 2, 3, 4]})
    kwargs = {} if how == "cross" else {"on": "k"}
    assert_same(lambda pl, a, b: a.join(b, how=how, maintain_order=order, **kwargs), left, right)


@pytest.mark.parametrize("how", ["semi", "anti"])
def test_semi_anti_maintain_left_order(how):
    left = LEFT.sort("lv", nulls_last=True, maintain_order=True)
    assert_same(lambda pl, a, b: a.join(b, on=["id", "k2"], how=how, maintain_order="left"), left, RIGHT)


def test_join_int_with_float_key_errors():
    # Polars 2 matches integer keys with integer keys and floats with floats only.
    left = pl.DataFrame({"k": [1, 2]})
    right = pl.DataFrame({"k": [1.0, 2.0]})
    assert_same_error(lambda pl, a, b: a.join(b, on="k"), left, right, kind="SchemaError")
    assert_same(lambda pl, a, b: a.join(b.select(pl.col("k").cast(pl.UInt32)), on="k", how="semi"), left, right,
                check_row_order=False)


@pytest.mark.parametrize("right_dtype", ["Float64", "Float32", "String", "Boolean", "Decimal"])
@pytest.mark.parametrize("how", ["inner", "left", "full", "semi", "anti"])
def test_join_key_dtype_refusal_message_is_polars(right_dtype, how):
    # Int64 against a float, string, bool or decimal key: Polars' SchemaError word for word,
    # eager and lazy, and for join_asof; integer keys of other widths still join.
    import frazil

    def message(m, lazy, asof=False):
        dtype = m.Decimal(10, 2) if right_dtype == "Decimal" else getattr(m, right_dtype)
        a = m.DataFrame({"k": [1, 2, 3], "x": [1, 2, 3]})
        b = m.DataFrame({"k": m.Series([1, 0, 1]).cast(dtype), "y": [4, 5, 6]})
        try:
            if asof:
                a.sort("k").join_asof(b.sort("k"), on="k")
            elif lazy:
                a.lazy().join(b.lazy(), on="k", how=how).collect()
            else:
                a.join(b, on="k", how=how)
        except Exception as e:  # noqa: BLE001 - compared below
            return type(e).__name__, str(e).splitlines()[0]
        return None

    for lazy in (False, True):
        assert message(frazil, lazy) == message(pl, lazy)
    if how == "inner":
        assert message(frazil, False, asof=True) == message(pl, False, asof=True)
