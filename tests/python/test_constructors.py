"""pl.from_numpy / from_pandas / from_records / from_dataframe / rows and iterables against Polars."""
import collections.abc
import math

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import frazil as fz


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    norm = lambda rows: [tuple("nan" if isinstance(v, float) and math.isnan(v) else v for v in r) for r in rows]  # noqa: E731
    assert norm(got.rows()) == norm(want.rows())


ARRAY = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)


@pytest.mark.parametrize("kwargs", [{}, {"orient": "row"}, {"orient": "col"}, {"schema": ["a", "b", "c"]},
                                    {"schema": ["a", "b"]}, {"schema": {"a": None, "b": None}, "orient": "col"},
                                    {"schema": ["a", "b", "c"], "schema_overrides": {"b": pl.Float64}}])
def test_from_numpy(kwargs):
    fk = {k: ({n: (fz.Float64 if t is pl.Float64 else t) for n, t in v.items()} if k == "schema_overrides" else v)
          for k, v in kwargs.items()}
    same(fz.from_numpy(ARRAY, **fk), pl.from_numpy(ARRAY, **kwargs))


def test_from_numpy_one_dimension_and_errors():
    same(fz.from_numpy(np.array([1.5, np.nan])), pl.from_numpy(np.array([1.5, np.nan])))
    with pytest.raises(ValueError, match="more than two dimensions"):
        fz.from_numpy(np.zeros((2, 2, 2)))


@pytest.mark.parametrize("nan_to_null", [True, False])
def test_from_pandas(nan_to_null):
    pdf = pd.DataFrame({"a": [1.0, np.nan], "b": ["x", None], "c": pd.to_datetime(["2024-01-01", None]),
                        "d": pd.array([1, None], dtype="Int64")})
    same(fz.from_pandas(pdf, nan_to_null=nan_to_null), pl.from_pandas(pdf, nan_to_null=nan_to_null))
    assert fz.from_pandas(pdf["a"], nan_to_null=nan_to_null).to_list() == pytest.approx(
        pl.from_pandas(pdf["a"], nan_to_null=nan_to_null).to_list(), nan_ok=True)
    same(fz.from_pandas(pdf, include_index=True), pl.from_pandas(pdf, include_index=True))
    named = pdf.set_index("b")
    same(fz.from_pandas(named, include_index=True), pl.from_pandas(named, include_index=True))


def test_from_records_and_dataframe():
    same(fz.from_records([(1, "a"), (2, "b")], schema=["x", "y"]),
         pl.from_records([(1, "a"), (2, "b")], schema=["x", "y"], orient="row"))
    same(fz.from_records([{"x": 1}, {"x": 2, "y": 3}]), pl.from_records([{"x": 1}, {"x": 2, "y": 3}]))
    same(fz.from_dataframe(pa.table({"a": [1, 2]})), pl.from_dataframe(pa.table({"a": [1, 2]})))
    with pytest.raises(TypeError, match="PyCapsule"):
        fz.from_dataframe(object())


def test_bare_decimal_dtype_infers_the_scale():
    from decimal import Decimal as D

    values = [None, D("1.2"), D("2.13"), D("4.990")]
    for make in (lambda m: m.Series(values, dtype=m.Decimal),
                 lambda m: m.DataFrame({"a": values}, schema={"a": m.Decimal}).to_series(),
                 lambda m: m.Series([1, None, 3], dtype=m.Decimal),
                 lambda m: m.Series(values, dtype=m.Decimal(10, 1), strict=False)):
        a, b = make(pl), make(fz)
        assert str(b.dtype) == str(a.dtype) and b.to_list() == a.to_list()


class _Record(collections.abc.Mapping):  # a Mapping that is not a dict
    def __init__(self, **values):
        self._values = values

    def __getitem__(self, key):
        return self._values[key]

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)


_RECORDS = [{"id": 1, "value": 100, "_meta": "a"}, {"id": 2, "value": 101, "_meta": "b"}]


def _rows(n):
    for i in range(n):
        yield str(i), i, 2 ** i


class _Rows:
    def __iter__(self):
        yield from _rows(3)


ROW_INPUTS = [
    lambda m: m.DataFrame(_RECORDS), lambda m: m.DataFrame([None] + _RECORDS), lambda m: m.from_dicts(_RECORDS + [None]),
    lambda m: m.DataFrame([_Record(**r) for r in _RECORDS]), lambda m: m.from_dicts([None] + [_Record(**r) for r in _RECORDS]),
    lambda m: m.DataFrame([{"a": 1}, {"b": 2}]), lambda m: m.DataFrame([{"a": 1}, {"b": 2}], schema=["b"]),
    lambda m: m.DataFrame(_RECORDS, schema_overrides={"id": m.Int16}),
    lambda m: m.from_dicts(_RECORDS, schema=["id", "zz"]), lambda m: m.from_dicts(_RECORDS, schema={"id": m.Int8, "zz": m.String}),
    lambda m: m.from_dicts([{"a": 1, "b": 2}], schema=["x"]),
    lambda m: m.DataFrame([None, None]), lambda m: m.DataFrame([1, 2, 3]), lambda m: m.DataFrame(["a", None]),
    lambda m: m.DataFrame([None, 2, None, 4], schema={"col": m.Int64}), lambda m: m.DataFrame([1, 2], schema=["x"]),
    lambda m: m.DataFrame([1, 2], schema=["x", "y"]), lambda m: m.DataFrame([]),
    lambda m: m.DataFrame(_rows(3), schema=["a", "b", "c"]), lambda m: m.DataFrame(_rows(3), schema=["a", "b", "c"], orient="row"),
    lambda m: m.DataFrame((i, i + 1) for i in range(3)), lambda m: m.DataFrame(((i, i + 1) for i in range(3)), orient="col"),
    lambda m: m.DataFrame(_Rows(), schema=["a", "b", "c"]), lambda m: m.DataFrame(range(3)),
    lambda m: m.DataFrame(iter([{"a": 1}, {"a": 2, "b": "x"}])), lambda m: m.DataFrame(_rows(0)),
]


@pytest.mark.parametrize("case", range(len(ROW_INPUTS)))
def test_rows_of_mappings_values_and_iterables(case):
    def run(m):
        try:
            return ROW_INPUTS[case](m)
        except Exception as e:  # noqa: BLE001 - both must fail alike
            return type(e).__name__

    got, want = run(fz), run(pl)
    if isinstance(want, str):
        assert got == want
    else:
        same(got, want)


ZERO_WIDTH = [
    lambda m: m.DataFrame(height=5).shape, lambda m: m.DataFrame(height=0).shape,
    lambda m: m.LazyFrame(height=3).collect().shape, lambda m: m.concat([m.DataFrame(height=5)] * 2).shape,
    lambda m: m.DataFrame(height=5).vstack(m.DataFrame(height=2)).shape,
    lambda m: m.concat([m.LazyFrame(height=2), m.LazyFrame(height=4)]).collect().shape,
    lambda m: m.DataFrame(height=5).clone().shape, lambda m: m.DataFrame(height=5).clear().shape,
    lambda m: m.DataFrame(height=5).join(m.DataFrame(height=5), how="cross").shape,
    lambda m: m.DataFrame(height=4).equals(m.DataFrame(height=4)), lambda m: m.DataFrame(height=4).equals(m.DataFrame()),
]


@pytest.mark.parametrize("case", range(len(ZERO_WIDTH)))
def test_frames_of_no_columns_with_a_height(case):
    assert ZERO_WIDTH[case](fz) == ZERO_WIDTH[case](pl)
