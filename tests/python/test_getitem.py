"""DataFrame[...] and Series[...] read their keys as Polars does: rows, columns, values."""
import numpy as np
import polars as pl
import pytest

import frazil as fz


def frame(m):
    return m.DataFrame({"a": [1, 2, 3, 4, 5], "b": ["x", "y", None, "w", "v"], "c": [1.5, None, 3.0, 4.0, 5.0]})


def outcome(m, get):
    try:
        r = get(m)
    except Exception as e:  # noqa: BLE001 - the error kind is compared
        return "error", type(e).__name__
    kind = type(r).__name__
    if kind == "DataFrame":
        return kind, r.to_dict(as_series=False), [str(t) for t in r.dtypes]
    if kind == "Series":
        return kind, r.name, r.to_list(), str(r.dtype)
    return "value", r


FRAME_KEYS = [
    0, -1, 7, -6, slice(1, 4), slice(None, None, 2), slice(None, None, -1), slice(4, 0, -2), slice(3, 1),
    range(1, 3), range(4, 0, -1), [0, 2], [-1, 0], [], "a", ["a", "c"], (0, "a"), (-1, 1), (slice(0, 2), "b"),
    (slice(0, 2), ["a", "b"]), (0, ["a", "b"]), ([1, 3], slice(1, None)), (slice(None), [True, False, True]),
    (slice(None), [True, False]), (slice(None), slice("a", "b")), (slice(None), slice(None, None, -1)),
    [True, False, True, False, True], 1.5, (0, 5), (slice(None), 1), ([], "a"), (None, "a"), True, [1.5],
]


@pytest.mark.parametrize("key", FRAME_KEYS, ids=repr)
def test_frame_keys(key):
    assert outcome(fz, lambda m: frame(m)[key]) == outcome(pl, lambda m: frame(m)[key])


@pytest.mark.parametrize("make_key", [
    lambda m: np.array([0, 3]), lambda m: np.array([-1]), lambda m: np.array([True, False, True, False, True]),
    lambda m: m.Series([2, 0]), lambda m: m.Series([-2], dtype=m.Int8), lambda m: m.Series([True] * 5),
    lambda m: (m.Series([0]), 0), lambda m: (slice(None), m.Series(["c", "a"])), lambda m: (0, np.array([2, 0])),
])
def test_frame_keys_of_series_and_arrays(make_key):
    assert outcome(fz, lambda m: frame(m)[make_key(m)]) == outcome(pl, lambda m: frame(m)[make_key(m)])


@pytest.mark.parametrize("key", [0, -1, 5, -6, slice(None, None, -2), slice(1, None, 3), [0, -1], [], [True, False],
                                 range(4, 1, -1), "a", 1.5, None, True], ids=repr)
def test_series_keys(key):
    assert outcome(fz, lambda m: frame(m)["b"][key]) == outcome(pl, lambda m: frame(m)["b"][key])


def test_empty_frame_and_no_columns():
    for key in (0, slice(None), [0], (slice(None), []), ([0], "a")):
        empty = (lambda m: m.DataFrame({"a": []}, schema={"a": m.Int64}))
        assert outcome(fz, lambda m: empty(m)[key]) == outcome(pl, lambda m: empty(m)[key])


NESTED_GETS = [
    lambda m, s: s[0], lambda m, s: s[-1], lambda m, s: s[1], lambda m, s: s.item(2),
    lambda m, s: s.to_frame().item(0, 0), lambda m, s: s.to_frame()[2, 0], lambda m, s: s.slice(3, 1).item(),
    lambda m, s: [None if v is None else v.to_list() for v in s], lambda m, s: s.to_frame().row(0),
]


@pytest.mark.parametrize("get", range(len(NESTED_GETS)))
@pytest.mark.parametrize("values,dtype", [
    ([[1, None], None, [], [4]], "List(Int64)"),
    ([[[1]], None, [None, []], [[2, 3]]], "List(List(Int64))"),
    ([[1, 2], None, [None, 3], [4, 5]], "Array(Int64, 2)"),
    ([[{"x": 1}], None, [], [None]], "List(Struct({'x': Int64}))"),
])
def test_list_and_array_values_are_series(get, values, dtype):
    # One List or Array value is a Series of the inner dtype (Polars); rows keep lists.
    f = NESTED_GETS[get]
    make = lambda m: m.Series("s", values, dtype=eval(dtype, {}, vars(m)))  # noqa: E731
    assert outcome(fz, lambda m: f(m, make(m))) == outcome(pl, lambda m: f(m, make(m)))


@pytest.mark.parametrize("dtype", ["List(Int64)", "List(Categorical)", "Array(Int64, 2)"])
def test_series_values_build_list_columns_again(dtype):
    # The Series that s[i] gives build a List column back (Polars: List of their dtype).
    def build(m):
        s = m.Series("s", [[1, 2], None, [3, 4]], dtype=eval(dtype, {}, vars(m)) if "Cat" not in dtype else None)
        if "Cat" in dtype:
            s = m.Series("s", [["a", "b"], None, ["c", "a"]], dtype=m.List(m.Categorical))
        return m.Series("t", [s[0], s[1], s[2]])
    assert outcome(fz, build) == outcome(pl, build)
    assert outcome(fz, lambda m: m.DataFrame({"t": build(m).to_list()})) == outcome(
        pl, lambda m: m.DataFrame({"t": build(m).to_list()}))
