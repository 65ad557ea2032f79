"""DataFrame/LazyFrame.join_asof against Polars: strategies, exact matches, tolerance (numbers
and durations), `by` groups with nulls, duplicate right keys, NaN and null keys, empty sides,
inputs of several chunks, and the errors Polars raises (unsorted keys, mismatched dtypes)."""
import datetime
import math
import warnings

import polars as pl
import pytest

import frazil as fz


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    norm = lambda rows: [tuple("nan" if isinstance(v, float) and math.isnan(v) else v for v in r) for r in rows]
    assert norm(got.rows()) == norm(want.rows())


LEFT = {"a": [None, 1, 2, 3, 5, 8, 8], "x": [0, 10, 20, 30, 40, 50, 60]}
RIGHT = {"a": [1, 3, 3, 6, 7, 7], "y": [1, 2, 3, 4, 5, 6]}


def both(fn, lazy=False):
    got = fn(fz, lambda m, d: m.DataFrame(d).lazy() if lazy else m.DataFrame(d))
    want = fn(pl, lambda m, d: m.DataFrame(d).lazy() if lazy else m.DataFrame(d))
    if lazy:
        got, want = got.collect(), want.collect()
    same(got, want)


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("strategy", ["backward", "forward", "nearest"])
@pytest.mark.parametrize("exact", [True, False])
@pytest.mark.parametrize("tolerance", [None, 1, 2.5])
def test_strategies(strategy, exact, tolerance, lazy):
    both(lambda m, f: f(m, LEFT).join_asof(f(m, RIGHT), on="a", strategy=strategy, allow_exact_matches=exact,
                                           tolerance=tolerance), lazy)


@pytest.mark.filterwarnings("ignore:Sortedness of columns")
@pytest.mark.parametrize("strategy", ["backward", "forward", "nearest"])
def test_by_groups_with_nulls(strategy):
    left = {"t": [1, 2, 3, 4, 5, 6], "g": [1, 1, 2, None, 2, 1], "v": list("abcdef")}
    right = {"t": [0, 1, 2, 4, 5, 6], "g": [1, 2, None, 2, 1, 1], "w": [10, 20, 30, 40, 50, 60]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both(lambda m, f: f(m, left).join_asof(f(m, right), on="t", by="g", strategy=strategy))
        both(lambda m, f: f(m, left).join_asof(f(m, right).rename({"g": "h"}), on="t", by_left="g", by_right="h",
                                               strategy=strategy))


def test_different_key_names_and_suffix():
    left = {"a": [1, 2, 3], "b": [4, 5, 6]}
    right = {"k": [1, 2, 3], "b": [9, 10, 11]}
    both(lambda m, f: f(m, left).join_asof(f(m, right), left_on="a", right_on="k"))
    both(lambda m, f: f(m, left).join_asof(f(m, right), left_on="a", right_on="k", suffix="_r"))
    both(lambda m, f: f(m, left).join_asof(f(m, {"a": [1, 2], "c": [0, 1]}), on="a", coalesce=False))


@pytest.mark.filterwarnings("ignore:Sortedness of columns")
def test_temporal_tolerance():
    t = lambda s: datetime.datetime(2020, 1, 1, 9, 0, s)
    left = {"time": [t(1), t(1), t(3), t(6)], "stock": ["A", "B", "B", "C"], "trade": [101, 299, 301, 500]}
    right = {"time": [t(0), t(2), t(4), t(6)], "stock": ["A", "B", "C", "A"], "quote": [100, 300, 501, 102]}
    for tol in ["2s", "1s", datetime.timedelta(seconds=1)]:
        for strategy in ["backward", "forward", "nearest"]:
            both(lambda m, f: f(m, left).join_asof(f(m, right), on="time", by="stock", tolerance=tol,
                                                   strategy=strategy))


def test_nan_and_empty_and_chunks():
    left = {"time": [0.0, 6.0, math.nan, math.nan], "value": [100, 101, 102, 103]}
    right = {"time": [0.0, 5.0, 10.0, 42.0], "value": [100, 200, 300, 400]}
    for strategy in ["backward", "nearest"]:
        both(lambda m, f: f(m, left).join_asof(f(m, right), on="time", strategy=strategy))
    empty = {"a": [], "y": []}
    got = fz.DataFrame(LEFT).join_asof(fz.DataFrame(empty, schema={"a": fz.Int64, "y": fz.Int64}), on="a")
    want = pl.DataFrame(LEFT).join_asof(pl.DataFrame(empty, schema={"a": pl.Int64, "y": pl.Int64}), on="a")
    same(got, want)
    chunked = fz.concat([fz.DataFrame(RIGHT).head(3), fz.DataFrame(RIGHT).tail(3)], rechunk=False)
    same(fz.DataFrame(LEFT).join_asof(chunked, on="a"), pl.DataFrame(LEFT).join_asof(pl.DataFrame(RIGHT), on="a"))


def test_errors_as_polars():
    df = {"a": [1, 1, 1, 2, 2, 2], "b": [2, 1, 3, 1, 2, 3]}
    with pytest.raises(fz.exceptions.InvalidOperationError, match="is not sorted"):
        fz.DataFrame(df).join_asof(fz.DataFrame(df), on="b")
    with pytest.warns(UserWarning, match="Sortedness of columns cannot be checked"):
        fz.DataFrame(df).join_asof(fz.DataFrame(df), on="b", by="a")
    with pytest.raises(fz.exceptions.SchemaError, match="datatypes of join keys don't match"):
        fz.DataFrame({"a": [1]}).join_asof(fz.DataFrame({"a": [1.0]}), on="a")
    with pytest.raises(TypeError, match="expected `on` to be str or Expr, got 'list'"):
        fz.DataFrame({"a": [1]}).join_asof(fz.DataFrame({"a": [1]}), on=["a"])
    with pytest.raises(fz.exceptions.DuplicateError):
        fz.DataFrame({"a": [1, 2, 3], "b": [4, 5, 6]}).join_asof(fz.DataFrame({"b": [1, 2, 3], "c": [9, 10, 11]}),
                                                                 left_on="a", right_on="b", suffix="")
