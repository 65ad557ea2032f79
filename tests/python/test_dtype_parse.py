"""Python types and annotations as dtypes, against Polars 2.1 (polars.datatypes._parse):
plain types and their subclasses (pandas' Timestamp/Timedelta), Python Enum classes,
list/tuple generics, unions with None (new and typing syntax), ForwardRefs, the TypeErrors
for what cannot be parsed, and the same inputs in a DataFrame schema and DataType.from_python;
dtype_to_init_repr against polars.datatypes._utils."""
import datetime as dt
import decimal
import enum
from typing import ForwardRef, Optional, Union

import pandas as pd
import polars
import polars.datatypes._parse as polars_parse
import polars.datatypes._utils as polars_utils
import pytest

import frazil
import frazil.datatypes as fd


class Letters(str, enum.Enum):
    A = "A"
    B = "B"


class Numbers(int, enum.Enum):
    ONE = 1


CASES = {
    "parse_py_type_into_dtype": [dt.datetime, dt.date, type(None), int, float, str, bool, bytes, dt.time,
                                 decimal.Decimal, list, tuple, Letters, Numbers, pd.Timedelta, pd.Timestamp,
                                 list[int], dict, complex],
    "_parse_generic_into_dtype": [list[int], tuple[str, ...], tuple[dt.datetime, dt.datetime], dict[str, float],
                                  tuple[int, str], tuple[int, float, float], list[list[int]]],
    "_parse_forward_ref_into_dtype": [ForwardRef("date"), ForwardRef("int | None"), ForwardRef("None | float"),
                                      ForwardRef("timedelta"), ForwardRef("foo")],
    "_parse_union_type_into_dtype": [int | None, float | None, int | float, int | str | None, Optional[int],
                                     Union[str, None]],
}


def outcome(fn, value):
    try:
        return "dtype", repr(fn(value))
    except TypeError as e:
        return "TypeError", str(e)


@pytest.mark.parametrize(("name", "value"), [(n, v) for n, vs in CASES.items() for v in vs])
def test_parsers_as_polars(name, value):
    assert outcome(getattr(fd, name), value) == outcome(getattr(polars_parse, name), value)


@pytest.mark.parametrize("value", [int, int | None, Optional[float], Union[int, None], list[str], tuple[bool, ...],
                                   Letters, pd.Timestamp, ForwardRef("str"), ForwardRef("int | None")])
def test_schemas_and_from_python(value):
    assert repr(frazil.DataType.from_python(value)) == repr(polars.DataType.from_python(value))
    got = frazil.DataFrame({"a": []}, schema={"a": value}).schema
    want = polars.DataFrame({"a": []}, schema={"a": value}).schema
    assert repr(got) == repr(want)


@pytest.mark.parametrize("build", [
    lambda m: m.Struct, lambda m: m.Array(m.Int8, 2), lambda m: m.List(m.Int32), lambda m: m.List(m.List(m.Int8)),
    lambda m: m.Struct({"x": m.String, "y": m.List(m.Int8)}), lambda m: m.Datetime("ms", "UTC"),
    lambda m: m.Array(m.Struct({"a": m.Decimal(5, 2)}), (2, 3)),
])
@pytest.mark.parametrize("prefix", ["pl.", ""])
def test_dtype_to_init_repr(build, prefix):
    assert fd.dtype_to_init_repr(build(frazil), prefix) == polars_utils.dtype_to_init_repr(build(polars), prefix)
