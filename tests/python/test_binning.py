"""cut and qcut, differential against Polars: nulls, NaN, -0.0, infinities, empty and
one-row input, several chunks, inside agg and over, optimizations on and off (assert_same
runs both). Categories are compared as strings, dtypes apart."""

import polars
import pytest

import frazil as pl
from fuzz.harness import assert_same, assert_same_error

pytestmark = pytest.mark.filterwarnings("ignore:`(q)?cut` is deprecated:DeprecationWarning")

DATA = {"x": [-2.0, -1.0, None, 0.0, -0.0, float("nan"), 1.0, 2.5, float("inf"), 7.0],
        "i": [5, 1, 2, None, 4, 3, 3, 0, -1, 9],
        "g": ["a", "b", "a", "b", "a", "a", "b", "b", "a", "b"]}


def as_str(e):
    return e.cast(polars.String) if isinstance(e, polars.Expr) else e.cast(pl.String)


@pytest.mark.parametrize("col", ["x", "i"])
@pytest.mark.parametrize("kwargs", [{}, {"left_closed": True}, {"labels": ["lo", "mid", "hi"]}])
def test_cut(col, kwargs):
    assert_same(lambda pl, lf: lf.select(pl.col(col).cut([-1, 0.5], **kwargs).cast(pl.String)), DATA, chunks=2)


def test_cut_include_breaks_and_dtype():
    assert_same(lambda pl, lf: lf.select(pl.col("x").cut([-1, 0.5], include_breaks=True).struct.unnest())
                .with_columns(pl.col("category").cast(pl.String)), DATA)
    ours = pl.DataFrame(DATA).select(pl.col("i").cut([1, 3])).to_series().dtype
    assert ours == pl.Enum(["(-inf, 1]", "(1, 3]", "(3, inf]"])


@pytest.mark.parametrize("q", [[0.25, 0.5], [0.0, 0.25, 0.75], 2, 4])
@pytest.mark.parametrize("kwargs", [{}, {"left_closed": True}, {"allow_duplicates": True}])
def test_qcut(q, kwargs):
    assert_same(lambda pl, lf: lf.select(pl.col("i").qcut(q, **kwargs).cast(pl.String)), DATA, chunks=2)


def test_qcut_include_breaks_and_dtype():
    assert_same(lambda pl, lf: lf.select(pl.col("i").qcut([0.3], include_breaks=True).struct.unnest())
                .with_columns(pl.col("category").cast(pl.String)), DATA)
    assert pl.DataFrame(DATA).select(pl.col("i").qcut(2)).to_series().dtype == pl.Categorical


def test_in_over_and_agg():
    assert_same(lambda pl, lf: lf.select(pl.col("i").qcut([0.5], labels=["lo", "hi"]).over("g").cast(pl.String)),
                DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("x").cut([0]).over("g").cast(pl.String)), DATA)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("i").qcut([0.5]).cast(pl.String))
                .sort("g"), DATA)


@pytest.mark.parametrize("rows", [0, 1])
def test_empty_and_one_row(rows):
    data = {"i": DATA["i"][:rows]}
    assert_same(lambda pl, lf: lf.select(pl.col("i").cast(pl.Float64).cut([1]).cast(pl.String)), data)
    assert_same(lambda pl, lf: lf.select(pl.col("i").cast(pl.Float64).qcut([0.5]).cast(pl.String)), data)


def test_errors():
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").cut([1, 1])), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").cut([1, 2], labels=["a"])), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").qcut([0.5, 0.5])), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").qcut([1.5])), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").qcut([0.5])), {"x": [float("inf"), float("-inf")]})


def test_deprecation_warning_as_polars():
    with pytest.warns(DeprecationWarning, match="bin_intervals"):
        pl.col("a").cut([1])


@pytest.mark.parametrize("col", ["x", "i"])
@pytest.mark.parametrize("kwargs", [{"labels": False}, {"labels": ["lo", "mid", "hi"]},
                                    {"labels": False, "right_closed": True},
                                    {"labels": False, "include_intervals": True}])
def test_bin_intervals_explicit(col, kwargs):
    def q(pl, lf):
        out = lf.select(pl.col(col).bin_intervals([-1, 2], **kwargs).alias("b"))
        if kwargs.get("include_intervals"):
            return out.unnest("b")
        return out.select(pl.col("b").cast(pl.String)) if kwargs["labels"] else out

    assert_same(q, DATA, chunks=2)


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("col", ["x", "i"])
def test_bin_intervals_uniform(n, col):
    data = {"x": [-2.0, None, 0.5, 1.0, 7.0, float("nan")], "i": [5, 1, None, 2, 9, 4], "g": list("aabbab")}
    assert_same(lambda pl, lf: lf.select(pl.col(col).bin_intervals(n, labels=False, include_intervals=True)
                                         .alias("b")).unnest("b"), data)
    assert_same(lambda pl, lf: lf.select(pl.col(col).bin_intervals(n, labels=False).over("g")), data)


@pytest.mark.parametrize("q", [[0.25, 0.75], [0.5], 2, 4])
def test_bin_quantiles(q):
    assert_same(lambda pl, lf: lf.select(pl.col("x").bin_quantiles(q, labels=False, include_intervals=True)
                                         .alias("b")).unnest("b"), DATA)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("x").bin_quantiles(q, labels=False)).sort("g"), DATA)


def test_bin_intervals_strings_and_errors():
    data = {"s": ["b", "a", None, "c", ""]}
    assert_same(lambda pl, lf: lf.select(pl.col("s").bin_intervals(["a", "c"], labels=False, include_intervals=True)
                                         .alias("b")).unnest("b"), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").bin_intervals([2, 1], labels=False)), DATA)
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").bin_intervals([1, 2], labels=["a"])), DATA)


@pytest.mark.parametrize("ranks", [[0.41], [0.1], [0.59], [0.2, 0.2, 0.8], [0.25, 0.75], 2, 3, 4, 9])
def test_bin_ranks(ranks):
    data = {"v": [4, 0, 3, 1, 2, None, 3, 3], "f": [1.0, float("nan"), None, -0.0, 0.0, 2.0, 1.0, -1.0],
            "g": list("abababab")}
    for col in ("v", "f"):
        assert_same(lambda pl, lf: lf.select(pl.col(col).bin_ranks(ranks, labels=False, include_intervals=True)
                                             .alias("b")).unnest("b"), data)
    assert_same(lambda pl, lf: lf.select(pl.col("v").bin_ranks(ranks, labels=False).over("g")), data)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("v").bin_ranks(ranks, labels=False)).sort("g"), data)


def test_bin_ranks_labels_and_errors():
    data = {"x": [1, 1, 2, 2]}
    assert_same(lambda pl, lf: lf.select(pl.col("x").bin_ranks([0.25, 0.75], labels=["low", "mid", "high"])
                                         .cast(pl.String)), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").bin_ranks([0.5, 0.25], labels=False)), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").bin_ranks(2, labels=["a"])), data)


@pytest.mark.parametrize("values", [list(range(10)), [0, 1, 2, 3], [3, None, 0, 2, 1],
                                    [0.5, float("nan"), 2.0, float("nan"), -1.0, None, 4.0]])
@pytest.mark.parametrize("q", [[0.3], [0.5], [0.05, 0.5, 0.9], 3])
def test_bin_quantiles_breaks_at_lower_quantiles(values, q):
    # Polars' breaks are its "lower" quantiles over the non-null values, NaNs counted (sorted
    # last): 0.5 of [0, 1, 2, 3] is 1. frazil took rank floor(q * n) of the numbers, which
    # agrees only with one NaN (fuzz).
    assert_same(lambda pl, lf: lf.select(pl.col("x").bin_quantiles(q, labels=False, include_intervals=True)
                                         .alias("b")).unnest("b"), {"x": values})
    assert_same(lambda pl, lf: lf.select(pl.col("x").bin_quantiles(q, labels=False, right_closed=True)), {"x": values})
