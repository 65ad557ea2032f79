"""_row_encode / _row_decode, differential against Polars. The bytes are frazil's own, so
the checks compare what Polars' tests observe: the order of the keys (arg_sort of the
encoded column, per option) and the round trip back to the columns, on nulls, NaN, -0.0,
empty and one-row frames, nested values and several chunks, with optimizations on and off."""
import math

import polars
import pytest

import frazil as pl
from fuzz.harness import assert_same

DATA = {
    "i": [3, None, -1, 3, 0, None, 7],
    "f": [1.5, -0.0, float("nan"), None, float("-inf"), 0.0, 2.0],
    "s": ["b", "", None, "ab", "a", "b", "a\x00"],
    "l": [[1, None], [], None, [1], [1, 2], [None], [0]],
    "t": [{"x": 1, "y": "a"}, None, {"x": None, "y": "b"}, {"x": 1, "y": None}, {"x": 0, "y": "a"},
          {"x": 1, "y": "a"}, {"x": 2, "y": ""}],
    "g": ["a", "b", "a", "b", "a", "a", "b"],
}
OPTIONS = [(False, False), (True, False), (False, True), (True, True)]


@pytest.mark.parametrize("desc,last", OPTIONS)
@pytest.mark.parametrize("col", ["i", "f", "s", "l", "t"])
def test_key_order_matches_polars(col, desc, last):
    assert_same(lambda pl, lf: lf.select(pl.col(col)._row_encode(descending=desc, nulls_last=last)
                                         .arg_sort(maintain_order=True)), DATA, chunks=2)


@pytest.mark.parametrize("desc,last", OPTIONS)
@pytest.mark.parametrize("cols", [["i", "s"], ["s", "f", "l"], ["t", "i"]])
def test_multi_column_key_order_matches_polars(cols, desc, last):
    n = len(cols)
    expected = polars.DataFrame(DATA).select(cols)._row_encode(descending=[desc] * n, nulls_last=[last] * n)
    got = pl.DataFrame(DATA).select(cols)._row_encode(descending=[desc] * n, nulls_last=[last] * n)
    assert got.arg_sort().to_list() == expected.arg_sort().to_list()


@pytest.mark.parametrize("desc,last", OPTIONS)
def test_frame_round_trip(desc, last):
    df = pl.DataFrame(DATA).drop("g")
    n = df.width
    enc = df._row_encode(descending=[desc] * n, nulls_last=[last] * n)
    assert enc.dtype == pl.Binary and enc.null_count() == 0
    back = enc._row_decode(df.columns, df.dtypes, descending=[desc] * n, nulls_last=[last] * n).struct.unnest()
    expected = df.with_columns(pl.col("f").fill_nan(None))  # NaN != NaN: compare them apart
    got = back.with_columns(pl.col("f").fill_nan(None))
    assert got.to_dicts() == expected.to_dicts()
    assert math.isnan(back["f"][2])
    assert str(back["f"][1]) == "0.0"  # -0.0 is encoded as 0.0, as in Polars


def test_sorted_keys_sort_the_frame_like_polars_sort():
    df = polars.DataFrame(DATA).drop("l", "t")
    for desc, last in OPTIONS:
        expected = df.with_row_index().sort(["i", "s", "f"], descending=desc, nulls_last=last, maintain_order=True)
        keys = pl.DataFrame(df.to_dict(as_series=False)).select("i", "s", "f")._row_encode(
            descending=[desc] * 3, nulls_last=[last] * 3)
        assert keys.arg_sort().to_list() == expected["index"].to_list()


@pytest.mark.parametrize("rows", [0, 1])
def test_empty_and_one_row(rows):
    df = pl.DataFrame({"i": DATA["i"][:rows], "s": DATA["s"][:rows]}, schema={"i": pl.Int64, "s": pl.String})
    enc = df._row_encode()
    assert len(enc) == rows
    assert enc._row_decode(["i", "s"], [pl.Int64, pl.String]).struct.unnest().to_dicts() == df.to_dicts()


def test_in_agg_and_over_and_opt_off():
    lf = pl.LazyFrame(DATA).select("g", "i", "s")
    per_row = lf.select(pl.col("i")._row_encode()).collect().to_series()
    over = lf.select(pl.col("i")._row_encode().over("g")).collect(no_optimization=True).to_series()
    assert over.to_list() == per_row.to_list()
    agg = lf.group_by("g", maintain_order=True).agg(pl.col("s")._row_encode(descending=True).alias("k")).collect()
    assert [len(v) for v in agg["k"].to_list()] == [4, 3]


def test_bad_input_is_an_error():
    enc = pl.Series("a", [1, 2])._row_encode()
    with pytest.raises(pl.exceptions.ComputeError, match="invalid row encoding at row 0"):
        enc._row_decode(["a"], [pl.String])
    with pytest.raises(pl.exceptions.InvalidOperationError, match="descending"):
        pl.DataFrame({"a": [1], "b": [2]})._row_encode(descending=[True])
    with pytest.raises(pl.exceptions.InvalidOperationError):
        pl.select(pl.lit(1)._row_decode(["a"], [pl.Int64])).to_series()
