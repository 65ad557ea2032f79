"""DataFrame.pivot / LazyFrame.pivot / unstack against Polars: aggregations (empty cells as
Polars: 0 for sum/len, null for first), several values and on columns, sort_columns,
on_columns, null keys, and the errors."""
import polars as pl
import pytest

import frazil as fz

DATA = {"i": ["a", "a", "b", None, "b", "a"], "o": [1, 2, 1, 2, None, 1], "p": ["x", "y", "x", "x", "y", "y"],
        "v": [1.0, 2.0, None, 4.0, 5.0, 6.0], "w": [1, 2, 3, 4, 5, 6]}


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    assert got.rows() == want.rows()


@pytest.mark.parametrize("agg", ["sum", "len", "first", "last", "min", "max", "mean", "median"])
@pytest.mark.parametrize("sort_columns", [False, True])
def test_named_aggregations(agg, sort_columns):
    kw = dict(on="o", index="i", values=["v", "w"], aggregate_function=agg, sort_columns=sort_columns)
    same(fz.DataFrame(DATA).pivot(**kw), pl.DataFrame(DATA).pivot(**kw))


def test_expression_several_on_and_defaults():
    same(fz.DataFrame(DATA).pivot("o", index="i", values="w", aggregate_function=fz.element().sum() * 2),
         pl.DataFrame(DATA).pivot("o", index="i", values="w", aggregate_function=pl.element().sum() * 2))
    same(fz.DataFrame(DATA).pivot(["o", "p"], index="i", values="w", aggregate_function="sum"),
         pl.DataFrame(DATA).pivot(["o", "p"], index="i", values="w", aggregate_function="sum"))
    one = {"i": [1, 1, 2], "o": ["x", "y", "x"], "v": [1, 2, 3]}
    same(fz.DataFrame(one).pivot("o", index="i"), pl.DataFrame(one).pivot("o", index="i"))
    same(fz.DataFrame(one).pivot("o", values="v"), pl.DataFrame(one).pivot("o", values="v"))
    same(fz.DataFrame(one).pivot("o", index="i", on_columns=["y", "z"]),
         pl.DataFrame(one).pivot("o", index="i", on_columns=["y", "z"]))
    # Lazy pivot: row order unspecified (Polars' maintain_order=False).
    same(fz.DataFrame(one).lazy().pivot("o", on_columns=["x", "y"], index="i").collect().sort("i"),
         pl.DataFrame(one).lazy().pivot("o", on_columns=["x", "y"], index="i").collect().sort("i"))


def test_errors():
    with pytest.raises(fz.exceptions.ComputeError, match="expected no or a single value"):
        fz.DataFrame(DATA).pivot("o", index="i", values="w")
    with pytest.raises(fz.exceptions.InvalidOperationError, match="needs either"):
        fz.DataFrame(DATA).pivot("o")
    with pytest.raises(fz.exceptions.DuplicateError):
        fz.DataFrame({"a": ["a"], "b": [1]}).pivot("a", index="a", values="b")


@pytest.mark.parametrize("how", ["vertical", "horizontal"])
@pytest.mark.parametrize("step", [1, 2, 3])
def test_unstack(how, step):
    data = {"c": list("abcdefg"), "n": [1, 2, None, 4, 5, 6, 7]}
    same(fz.DataFrame(data).unstack(step=step, how=how), pl.DataFrame(data).unstack(step=step, how=how))
    same(fz.DataFrame(data).unstack(step=step, how=how, columns="n", fill_values=0),
         pl.DataFrame(data).unstack(step=step, how=how, columns="n", fill_values=0))
