"""str.split / split_exact / splitn, differential against Polars: List(String) and Struct
results, inclusive splits, empty separators, regex splits, nulls, empty strings,
non-ASCII text, per-row separators, multiple chunks."""
import pytest

from fuzz.harness import assert_same, assert_same_error

TEXT = ["a,b,,c", "", None, "abc", "héllo,wörld,", ",", "日本,語", "a,b,c,d,e,f"]
DATA = {"s": TEXT}


@pytest.mark.parametrize("by", [",", ",,", "", "b", "語", "xyz"])
@pytest.mark.parametrize("inclusive", [False, True])
def test_split(by, inclusive):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.split(by, inclusive=inclusive)), DATA, chunks=2)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("inclusive", [False, True])
def test_split_exact(n, inclusive):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.split_exact(",", n, inclusive=inclusive)), DATA)


@pytest.mark.parametrize("n", [1, 2, 3, 10])
def test_splitn(n):
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.splitn(",", n)), DATA)


def test_split_then_explode():
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.split(",").explode()), DATA)


def test_per_row_separator():
    data = {"s": ["a-b", "c_d_e", None, "f"], "by": ["-", "_", ",", None]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.split(pl.col("by"))), data)


def test_regex_split():
    data = {"s": ["a1b22c", "x", "", None, "1a1"]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.split(r"\d+", literal=False).alias("p"),
                                         pl.col("s").str.split(r"\d", literal=False, inclusive=True).alias("i")), data)
    # An invalid regex fails, or with strict=False gives nulls.
    assert_same_error(lambda pl, lf: lf.select(pl.col("s").str.split("(", literal=False)), data, kind="ComputeError")
    assert_same(lambda pl, lf: lf.select(pl.col("s").str.split("(", literal=False, strict=False)), data)
