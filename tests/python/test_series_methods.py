"""Series methods with their own Series form (series.py, series_dispatch.py) against Polars:
head/tail with negative and out-of-range n, sort(in_place), comparisons with an expression,
dtype=Unknown, append/extend input checks."""
import datetime as dt

import polars
import pytest

import frazil as pl
@pytest.mark.parametrize("n", [0, 3, 10, 100, -2, -8, -10, -12])
def test_head_tail_with_negative_and_out_of_range_n(n):
    ours, theirs = pl.Series("a", [1, None, 3, 4, 5, 6, 7, 8, 9, 10]), polars.Series("a", [1, None, 3, 4, 5, 6, 7, 8, 9, 10])
    assert ours.tail(n).to_list() == theirs.tail(n).to_list()
    assert ours.head(n).to_list() == theirs.head(n).to_list()


@pytest.mark.parametrize("kwargs", [{}, {"descending": True}, {"nulls_last": True},
                                    {"descending": True, "nulls_last": True}])
def test_sort_in_place_sorts_this_series(kwargs):
    for lib in (pl, polars):
        s = lib.Series("a", [3.0, None, float("nan"), -0.0, 1.0])
        copy = s.sort(**kwargs)
        assert s.to_list()[0] == 3.0
        assert s.sort(in_place=True, **kwargs) is s
        assert str(s.to_list()) == str(copy.to_list())
    assert str(pl.Series([3.0, None, float("nan"), -0.0]).sort(**kwargs).to_list()) == \
        str(polars.Series([3.0, None, float("nan"), -0.0]).sort(**kwargs).to_list())


@pytest.mark.parametrize("method", ["eq_missing", "ne_missing", "eq", "ne", "lt", "ge"])
def test_comparison_with_an_expression_is_an_expression(method):
    results = []
    for lib in (pl, polars):
        out = getattr(lib.Series("s", [1, None, 2]), method)(lib.lit(1))
        assert isinstance(out, lib.Expr)
        results.append(lib.select(out).to_series().to_list())
    assert results[0] == results[1]


@pytest.mark.parametrize("value", [100, 8.5, "서울", dt.date(2020, 1, 2), dt.datetime(2020, 1, 2, 3, 4, 5, 6),
                                   dt.time(23, 59, 59), dt.timedelta(hours=7, seconds=123), None])
def test_unknown_dtype_means_infer(value):
    ours, theirs = pl.Series([value], dtype=pl.Unknown), polars.Series([value], dtype=polars.Unknown)
    assert str(ours.dtype) == str(theirs.dtype) and ours.to_list() == theirs.to_list() == [value]


def test_append_and_extend_need_a_series():
    for method in ("append", "extend"):
        with pytest.raises(TypeError, match="expected `other` to be a 'Series', not 'DataFrame'"):
            getattr(pl.Series("a", [1, 2]), method)(pl.DataFrame({"a": [3]}))
