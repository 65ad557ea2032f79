"""Series methods derived from Expr (python/frazil/series_dispatch.py), against Polars:
the same values, dtypes and names, scalars for the reductions, operators, namespaces,
on nulls, NaN, -0.0, empty, one-row and multi-chunk series."""
import math

import polars as pl
import pytest

import frazil as fz

INPUTS = {
    "ints_with_null": ("i", [3, 1, None, 2, 1], None),
    "floats_nan_zero": ("f", [1.5, float("nan"), -0.0, None, 2.5], None),
    "empty": ("e", [], "Int64"),
    "one_row": ("o", [7], None),
    "bools": ("b", [True, None, False, True], None),
}

# (method, args, kwargs, which inputs)
NUMERIC = ("ints_with_null", "floats_nan_zero", "empty", "one_row")
CASES = [
    ("sum", (), {}, NUMERIC), ("mean", (), {}, NUMERIC), ("min", (), {}, NUMERIC), ("max", (), {}, NUMERIC),
    ("median", (), {}, NUMERIC), ("std", (), {}, NUMERIC), ("var", (), {}, NUMERIC),
    ("n_unique", (), {}, NUMERIC), ("count", (), {}, NUMERIC), ("first", (), {}, NUMERIC),
    ("last", (), {}, NUMERIC), ("quantile", (0.5,), {}, NUMERIC),
    ("is_null", (), {}, NUMERIC), ("is_not_null", (), {}, NUMERIC), ("abs", (), {}, NUMERIC),
    ("fill_null", (0,), {}, NUMERIC), ("shift", (1,), {}, NUMERIC), ("reverse", (), {}, NUMERIC),
    ("sort", (), {}, NUMERIC), ("sort", (), {"descending": True, "nulls_last": True}, NUMERIC),
    ("head", (2,), {}, NUMERIC), ("tail", (2,), {}, NUMERIC), ("drop_nulls", (), {}, NUMERIC),
    ("is_in", ([1, 2],), {}, ("ints_with_null", "empty")),
    ("is_between", (1, 2), {}, ("ints_with_null", "floats_nan_zero")),
    ("is_nan", (), {}, ("floats_nan_zero",)), ("fill_nan", (0.0,), {}, ("floats_nan_zero",)),
    ("round", (1,), {}, ("floats_nan_zero",)), ("floor", (), {}, ("floats_nan_zero",)),
    ("sqrt", (), {}, ("floats_nan_zero", "ints_with_null")), ("cast", ("Float32",), {}, NUMERIC),
    ("any", (), {}, ("bools",)), ("all", (), {}, ("bools",)), ("not_", (), {}, ("bools",)),
    ("null_count", (), {}, NUMERIC), ("len", (), {}, NUMERIC),
]


def make(module, key, chunks=1):
    name, values, dtype = INPUTS[key]
    dt = getattr(module, dtype) if dtype else None
    if chunks == 1 or len(values) < 2:
        return module.Series(name, values, dtype=dt)
    half = len(values) // 2
    s = module.Series(name, values[:half], dtype=dt)
    s.append(module.Series(name, values[half:], dtype=dt))
    return s


def argument(module, a):
    return getattr(module, a) if isinstance(a, str) and a in ("Float32", "Int64") else a


def same_scalar(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b and type(a) is type(b)


def same_series(fs, ps):
    assert fs.name == ps.name
    assert str(fs.dtype) == str(ps.dtype)
    left, right = fs.to_list(), ps.to_list()
    assert len(left) == len(right)
    for x, y in zip(left, right):
        assert same_scalar(x, y) or (x == y and isinstance(x, (int, float)) and isinstance(y, (int, float))), (left,
                                                                                                                right)


@pytest.mark.parametrize("chunks", [1, 2])
@pytest.mark.parametrize("method,args,kwargs,inputs", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_derived_method_matches_polars(method, args, kwargs, inputs, chunks):
    for key in inputs:
        fs, ps = make(fz, key, chunks), make(pl, key, chunks)
        fa = tuple(argument(fz, a) for a in args)
        pa = tuple(argument(pl, a) for a in args)
        got, want = getattr(fs, method)(*fa, **kwargs), getattr(ps, method)(*pa, **kwargs)
        if isinstance(want, pl.Series):
            assert isinstance(got, fz.Series), (method, key)
            same_series(got, want)
        else:
            assert not isinstance(got, fz.Series), (method, key, "a reduction gives a scalar")
            assert same_scalar(got, want), (method, key, got, want)


OPERATORS = [
    lambda s, t: s + t, lambda s, t: s - t, lambda s, t: s * t, lambda s, t: s / t, lambda s, t: s // t,
    lambda s, t: s % t, lambda s, t: s == t, lambda s, t: s != t, lambda s, t: s < t, lambda s, t: s >= t,
    lambda s, t: s + 1, lambda s, t: 10 - s, lambda s, t: 2 * s, lambda s, t: s ** 2, lambda s, t: -s,
    lambda s, t: abs(s), lambda s, t: s > 1,
]


@pytest.mark.parametrize("op", range(len(OPERATORS)))
def test_operators_match_polars(op):
    f = OPERATORS[op]
    got = f(fz.Series("a", [4, None, -3, 0]), fz.Series("b", [2, 5, None, 7]))
    want = f(pl.Series("a", [4, None, -3, 0]), pl.Series("b", [2, 5, None, 7]))
    same_series(got, want)


def test_boolean_operators_and_truth_value():
    a, b = fz.Series("a", [True, False, None]), fz.Series("b", [True, True, False])
    same_series(a & b, pl.Series("a", [True, False, None]) & pl.Series("b", [True, True, False]))
    same_series(a | b, pl.Series("a", [True, False, None]) | pl.Series("b", [True, True, False]))
    same_series(~a, ~pl.Series("a", [True, False, None]))
    with pytest.raises(TypeError, match="ambiguous"):
        bool(a)
    with pytest.raises(TypeError):
        hash(a)


def test_lengths_must_match():
    # Polars: arithmetic raises InvalidOperationError, a comparison ShapeError.
    for m in (pl, fz):
        with pytest.raises(m.exceptions.InvalidOperationError, match="series of different lengths"):
            m.Series("a", [1, 2]) + m.Series("b", [1, 2, 3])
        with pytest.raises(m.exceptions.ShapeError):
            _ = m.Series("a", [1, 2]) == m.Series("b", [1, 2, 3])


def test_namespaces_and_indexing():
    same_series(fz.Series("s", ["ab", None, "Cd"]).str.to_uppercase(),
                pl.Series("s", ["ab", None, "Cd"]).str.to_uppercase())
    s = fz.Series("i", [5, 6, 7, 8])
    assert s[[0, 3]].to_list() == [5, 8]
    for series in (pl.Series("i", [5, 6, 7, 8]), s):  # masks are refused (use filter), as in Polars
        with pytest.raises(TypeError, match="boolean mask"):
            series[series > 6]
    assert 6 in s and 9 not in s and None not in s
    assert s.new_from_index(1, 3).to_list() == [6, 6, 6]
    with pytest.raises(AttributeError, match="Series.str has no attribute 'nope'"):
        fz.Series("s", ["a"]).str.nope()


def test_series_only_methods():
    s = fz.Series("i", [1, 2])
    s.append(fz.Series("j", [3]))
    assert s.to_list() == [1, 2, 3] and s.n_chunks() == 2 and s.chunk_lengths() == [2, 1]
    assert [c.to_list() for c in s.get_chunks()] == [[1, 2], [3]]
    assert s.rechunk().n_chunks() == 1
    with pytest.raises(fz.exceptions.SchemaError):
        s.append(fz.Series("f", [1.0]))
    assert s.clear(2).to_list() == [None, None] and s.clear(2).dtype == fz.Int64
    assert s.zip_with(s > 1, s * 10).to_list() == pl.Series([1, 2, 3]).zip_with(
        pl.Series([1, 2, 3]) > 1, pl.Series([10, 20, 30])).to_list()
    assert list(s.to_numpy()) == [1, 2, 3]


def test_every_polars_expr_derived_name_frazil_expr_has_is_on_series():
    from frazil.series_dispatch import EXPR_DERIVED

    for name in EXPR_DERIVED:
        if callable(getattr(fz.Expr, name, None)):
            assert callable(getattr(fz.Series, name, None)), name


def test_list_and_dt_namespaces_are_subscriptable_as_polars():
    import datetime as dt

    import frazil
    import polars

    for m in (polars, frazil):
        lists = m.Series("a", [[1, 2, 3], [4, 5], [6, None], None])
        assert lists.list[0].to_list() == [1, 4, 6, None] and lists.list[0].name == "a"
        assert lists.list[-1].to_list() == [3, 5, None, None]
        with pytest.raises(m.exceptions.ComputeError, match="out of bounds"):
            lists.list[2]
        times = m.Series([dt.datetime(2020, 1, 1), None, dt.datetime(2021, 5, 6, 7)])
        assert (times.dt[0], times.dt[1], times.dt[-1]) == (dt.datetime(2020, 1, 1), None, dt.datetime(2021, 5, 6, 7))
        with pytest.raises(TypeError, match="not subscriptable"):
            m.Series(["x"]).str[0]
