"""Expr.meta, differential against Polars: the same expression built in both libraries
gives the same answers (names, selections, literals, shapes, aliases, equality)."""
import polars
import pytest

import frazil as pl

EXPRS = [
    lambda p: p.col("foo"),
    lambda p: p.col("foo") * p.col("bar"),
    lambda p: p.col("foo").alias("x"),
    lambda p: p.col("foo").sum().over("g"),
    lambda p: p.col("foo").name.suffix("_s"),
    lambda p: p.col("foo").abs().name.keep(),
    lambda p: p.col(["a", "b"]),
    lambda p: p.col("^a.*$"),
    lambda p: p.all(),
    lambda p: p.lit(1),
    lambda p: p.lit(1).alias("one"),
    lambda p: p.len(),
    lambda p: p.col("foo").filter(p.col("bar") > 1),
    lambda p: p.when(p.col("c")).then(p.col("t")).otherwise(p.col("o")),
    lambda p: p.col("foo").cum_sum(),
    lambda p: p.col("foo").unique(),
    lambda p: p.col("foo").cast(p.Int32) + p.col("foo").max(),
    lambda p: p.col("s").struct.field("f"),
]
QUESTIONS = ["has_multiple_outputs", "is_column", "is_column_selection", "is_literal", "is_regex_projection",
             "root_names", "is_scalar", "is_length_preserving", "is_row_separable"]


@pytest.mark.parametrize("build", EXPRS)
@pytest.mark.parametrize("question", QUESTIONS)
def test_answers_match_polars(build, question):
    assert answer(build(pl), question) == answer(build(polars), question)


def answer(expr, question):
    try:
        return getattr(expr.meta, question)()
    except Exception as e:  # both raise for a multi-output expression (is_scalar, ...)
        return type(e).__name__


@pytest.mark.parametrize("build", EXPRS)
def test_output_name_matches_polars(build):
    assert build(pl).meta.output_name(raise_if_undetermined=False) == \
        build(polars).meta.output_name(raise_if_undetermined=False)


@pytest.mark.parametrize("build", EXPRS)
def test_undo_aliases_and_pop_match_polars(build):
    ours, theirs = build(pl), build(polars)
    assert ours.meta.undo_aliases().meta.output_name(raise_if_undetermined=False) == \
        theirs.meta.undo_aliases().meta.output_name(raise_if_undetermined=False)
    assert len(ours.meta.pop()) == len(theirs.meta.pop())


def test_equality_and_hash():
    a, b = pl.col("a") + 1, pl.col("a") + 1
    assert a.meta == b and a.meta.eq(b) and not a.meta.ne(b)
    assert hash(a.meta) == hash(b.meta)
    assert not (pl.col("a") + 2).meta.eq(a)
    assert not pl.col("a").sum().meta.eq(pl.col("a").mean())
    assert pl.lit(float("nan")).meta.eq(pl.lit(float("nan")))
    assert len({e.meta for e in [pl.col("a"), pl.col("a"), pl.col("b").round(1), pl.col("b").round(2)]}) == 3
    with pytest.raises(TypeError, match="Consider hashing"):
        hash(pl.col("a"))


def test_output_name_undetermined_raises():
    with pytest.raises(pl.exceptions.ComputeError, match="unable to find root column name"):
        pl.all().name.suffix("_").meta.output_name()


def test_tree_format_and_graph():
    e = (pl.col("foo") * pl.col("bar")).sum().over(pl.col("ham")) / 2
    text = e.meta.tree_format(return_as_string=True)
    assert text.splitlines()[0] == "binary: /" and "col(foo)" in text and "window" in text
    dot = e.meta.show_graph(show=False, raw_output=True)
    assert dot.startswith("digraph") and "binary: *" in dot


def test_filter_with_constraints_matches_polars():
    from fuzz.harness import assert_same

    data = {"a": [1, 2, 3, None], "bar": [13, 1, 13, 13], "s": ["x", "y", "x", None]}
    assert_same(lambda pl, lf: lf.select(pl.col("a").filter(bar=13)), data)
    assert_same(lambda pl, lf: lf.select(pl.col("a").filter(pl.col("a") > 1, bar=13, s="x")), data)
    assert pl.col("foo").filter(bar=13).meta.root_names() == ["foo", "bar"]
