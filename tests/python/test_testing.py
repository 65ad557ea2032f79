"""frazil.testing against polars.testing: the same verdict (and message) for the same inputs."""
import math

import polars as pl
import polars.testing as pt
import pytest

import frazil as fz
import frazil.testing as ft

SERIES_CASES = [
    ([1, 2], [1, 2], {}), ([1, 2], [1, 3], {}), ([1.0, 2.0], [1.0, 2.0 + 1e-9], {}),
    ([1.0, 2.0], [1.0, 2.0 + 1e-9], {"check_exact": True}), ([1.0, 2.0], [1.0, 2.1], {}),
    ([float("nan"), None], [float("nan"), None], {}), ([None, 1.0], [1.0, None], {}),
    ([None, 1.0], [1.0, None], {"check_order": False}), ([3, 1, 2], [1, 2, 3], {"check_order": False}),
    ([1, 2], [1.0, 2.0], {}), ([1, 2], [1.0, 2.0], {"check_dtypes": False}), ([1], [1, 2], {}),
    ([-0.0], [0.0], {}), ([math.inf], [math.inf], {}), ([math.inf], [-math.inf], {}),
    ([[1.0, 2.0]], [[1.0, 2.0 + 1e-9]], {}), (["a", None], ["a", None], {}), (["a"], ["b"], {}),
]


def verdict(module, testing, a, b, kwargs, names=("s", "s")):
    try:
        testing.assert_series_equal(module.Series(names[0], a), module.Series(names[1], b), **kwargs)
        return None
    except AssertionError as e:
        return str(e).split("\n")[0]


@pytest.mark.parametrize("a,b,kwargs", SERIES_CASES)
def test_series_verdicts_match_polars(a, b, kwargs):
    assert verdict(fz, ft, a, b, kwargs) == verdict(pl, pt, a, b, kwargs)


def test_series_names_and_not_equal():
    assert verdict(fz, ft, [1], [1], {}, ("a", "b")) == verdict(pl, pt, [1], [1], {}, ("a", "b"))
    assert verdict(fz, ft, [1], [1], {"check_names": False}, ("a", "b")) is None
    ft.assert_series_not_equal(fz.Series([1]), fz.Series([2]))
    with pytest.raises(AssertionError, match="expected not to be"):
        ft.assert_series_not_equal(fz.Series([1]), fz.Series([1]))


FRAME_CASES = [
    ({"a": [1]}, {"a": [1]}, {}), ({"a": [1]}, {"a": [2]}, {}), ({"a": [1]}, {"b": [1]}, {}),
    ({"a": [1]}, {"a": [1.0]}, {}), ({"a": [1]}, {"a": [1.0]}, {"check_dtypes": False}),
    ({"a": [1]}, {"a": [1, 2]}, {}), ({"a": [1], "b": [2]}, {"b": [2], "a": [1]}, {}),
    ({"a": [1], "b": [2]}, {"b": [2], "a": [1]}, {"check_column_order": False}),
    ({"a": [2, 1]}, {"a": [1, 2]}, {}), ({"a": [2, 1, None]}, {"a": [None, 1, 2]}, {"check_row_order": False}),
    ({"a": [1.0]}, {"a": [1.0 + 1e-7]}, {}), ({"a": [1.0]}, {"a": [1.0 + 1e-7]}, {"check_exact": True}),
]


def frame_verdict(module, testing, a, b, kwargs, lazy=False):
    left, right = module.DataFrame(a), module.DataFrame(b)
    if lazy:
        left, right = left.lazy(), right.lazy()
    try:
        testing.assert_frame_equal(left, right, **kwargs)
        return None
    except AssertionError as e:
        return str(e)


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("a,b,kwargs", FRAME_CASES)
def test_frame_verdicts_and_messages_match_polars(a, b, kwargs, lazy):
    assert frame_verdict(fz, ft, a, b, kwargs, lazy) == frame_verdict(pl, pt, a, b, kwargs, lazy)


def test_frame_input_types_and_not_equal():
    with pytest.raises(AssertionError, match="unexpected input types"):
        ft.assert_frame_equal(fz.DataFrame({"a": [1]}), fz.DataFrame({"a": [1]}).lazy())
    ft.assert_frame_not_equal(fz.DataFrame({"a": [1]}), fz.DataFrame({"a": [2]}))
    with pytest.raises(AssertionError, match="expected not to be"):
        ft.assert_frame_not_equal(fz.DataFrame({"a": [1]}), fz.DataFrame({"a": [1]}))

