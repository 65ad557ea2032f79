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


def _lazy_pivot(m, data, chunks, **kw):
    frame = m.DataFrame(data)
    if chunks:  # the same rows in two chunks
        frame = m.concat([frame.head(2), frame.slice(2)], rechunk=False)
    lf = frame.lazy()
    try:
        out = lf.pivot(**kw).collect()
    except Exception as e:  # noqa: BLE001 - both must fail alike
        return type(e).__name__, str(e).splitlines()[0].split(" in col(")[0]  # frazil adds the expression
    return out.sort(out.columns, nulls_last=True) if out.height else out


FLOATS = {"i": [1, 1, 2, 2, None, 1], "o": [0.0, -0.0, float("nan"), 1.5, None, float("nan")],
          "v": [1, 2, 3, 4, 5, None]}

LAZY_CASES = [
    (DATA, dict(on="o", on_columns=[1, 2], index="i", values="w", aggregate_function="sum")),
    (DATA, dict(on="o", on_columns=[2, None, 7], index="i", values=["v", "w"], aggregate_function="first")),
    (DATA, dict(on="o", on_columns=[1, 2], index="i", values="v", aggregate_function="len")),
    (DATA, dict(on="o", on_columns=[1, 2], index="i", values="v", aggregate_function="count")),
    (DATA, dict(on="o", on_columns=[1], index="i", values="v", aggregate_function="mean", column_naming="combine")),
    (DATA, dict(on="p", on_columns=["x", "y"], index=["i", "o"], values="w")),      # item: one value per cell
    (DATA, dict(on="p", on_columns=["x", "y"], index="o", values="w")),             # item: several -> error
    (DATA, dict(on=["o", "p"], on_columns=pl.DataFrame({"o": [1, 2], "p": ["x", "x"]}), index="i", values="w",
                aggregate_function="max")),
    (DATA, dict(on="o", on_columns=[1, 2], index="i", values="w", aggregate_function=pl.element().sum() * 2)),
    (DATA, dict(on="o", on_columns=[1, 2], index="i", values="w", aggregate_function=pl.element() + pl.col("w"))),
    (DATA, dict(on="o", on_columns=[1, 2], index="i", aggregate_function="median")),
    (DATA, dict(on="o", on_columns=[1, 2], values="w", aggregate_function="sum", separator="|")),
    (DATA, dict(on="o", on_columns="12", index="i", values="w")),
    (FLOATS, dict(on="o", on_columns=[0.0, float("nan"), None], index="i", values="v", aggregate_function="sum")),
    ({"i": [1], "o": ["a"], "v": [7]}, dict(on="o", on_columns=["a", "b"], index="i", values="v",
                                           aggregate_function="min")),
    ({"i": [], "o": [], "v": []}, dict(on="o", on_columns=[], index="i", values="v", aggregate_function="sum")),
]


def _converted(m, kw):
    kw = dict(kw)
    if isinstance(kw.get("on_columns"), pl.DataFrame):
        kw["on_columns"] = m.DataFrame(kw["on_columns"].to_dict(as_series=False))
    if isinstance(kw.get("aggregate_function"), pl.Expr):
        agg = kw["aggregate_function"]
        kw["aggregate_function"] = (m.element().sum() * 2 if "sum" in str(agg) else m.element() + m.col("w"))
    return kw


@pytest.mark.parametrize("chunks", [False, True])
@pytest.mark.parametrize("case", range(len(LAZY_CASES)))
def test_lazy_pivot_matches_polars(case, chunks):
    data, kw = LAZY_CASES[case]
    got = _lazy_pivot(fz, data, chunks, **_converted(fz, kw))
    want = _lazy_pivot(pl, data, chunks, **kw)
    if isinstance(want, tuple):
        assert got == want
    else:
        same(got, want)


def test_lazy_pivot_is_lazy():
    # The pivot is part of the plan: nothing is collected when it is built, and a filter
    # before it applies.
    lf = fz.LazyFrame(DATA).filter(fz.col("w") > 1).pivot("o", on_columns=[1, 2], index="i", values="w",
                                                           aggregate_function="sum")
    plan = lf.explain()
    assert "AGGREGATE" in plan and "w" in plan and "> 1" in plan.replace("dyn int: ", "")
    assert lf.collect_schema().names() == ["i", "1", "2"]
