"""Series from NumPy arrays: the dtype kept as Polars keeps it, numeric buffers shared (no
per-value conversion), and back with to_numpy / np.asarray."""
import numpy as np
import polars as pl
import pytest

import frazil as fz

ARRAYS = [
    np.arange(5, dtype=np.int32), np.arange(3, dtype=np.uint8), np.array([1.5, np.nan, -0.0]),
    np.array([True, False]), np.array(["2024-01-01", "NaT"], dtype="datetime64[ns]"),
    np.array([1, -2], dtype="timedelta64[us]"), np.array([], dtype=np.float32), np.array(["a", "bc"]),
]


@pytest.mark.parametrize("i", range(len(ARRAYS)))
def test_from_numpy_matches_polars(i):
    f, p = fz.Series("a", ARRAYS[i]), pl.Series("a", ARRAYS[i])
    assert str(f.dtype) == str(p.dtype)
    assert repr(f) == repr(p)


def test_numeric_buffers_are_shared():
    a = np.arange(1000, dtype=np.int64)
    assert fz.Series("x", a)._col.buffer_address(0, 0) == a.ctypes.data


def test_dtype_argument_casts():
    assert fz.Series("a", np.arange(3), dtype=fz.Float32).to_list() == [0.0, 1.0, 2.0]
    assert fz.Series("a", np.arange(3), dtype=fz.Float32).dtype == fz.Float32


def test_back_to_numpy():
    s = fz.Series("a", [1.0, None, 3.0])
    assert np.array_equal(np.asarray(s), np.array([1.0, np.nan, 3.0]), equal_nan=True)
    assert fz.Series("a", np.arange(4, dtype=np.int16)).to_numpy().dtype == np.int16


def test_strict_and_nan_to_null_as_polars():
    assert fz.Series("a", ["x", "1"], dtype=fz.Int64, strict=False).to_list() == pl.Series(
        "a", ["x", "1"], dtype=pl.Int64, strict=False).to_list()
    with pytest.raises(TypeError):
        fz.Series("a", ["x", "1"], dtype=fz.Int64)
    arr = np.array([1.0, np.nan])
    assert fz.Series("a", arr, nan_to_null=True).to_list() == pl.Series("a", arr, nan_to_null=True).to_list()
    got, want = fz.Series("a", [1.0, np.nan], nan_to_null=True).to_list(), pl.Series(
        "a", [1.0, np.nan], nan_to_null=True).to_list()
    assert np.isnan(got[1]) and np.isnan(want[1])  # lists keep NaN (Polars applies it to NumPy input)
