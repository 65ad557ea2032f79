"""DataFrame operators against Polars: supertypes over the frame, frames paired by position,
division rules, comparisons and their errors."""
import warnings

import polars as pl
import pytest

import frazil as fz


def outcome(m, make):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = make(m)
        except Exception as e:  # noqa: BLE001 - the error kind is compared
            return "error", type(e).__name__
    if hasattr(r, "to_dict"):
        return r.to_dict(as_series=False), [str(t) for t in r.dtypes]
    return r


def df(m):
    return m.DataFrame({"a": [1, 2], "b": [1.5, None]})


CASES = {
    "add_int": lambda m: df(m) + 1, "add_none": lambda m: df(m) + None, "mul_float": lambda m: df(m) * 2.5,
    "add_narrow_frame": lambda m: df(m) + m.DataFrame({"x": [10, 20]}),
    "add_taller_frame": lambda m: df(m) + m.DataFrame({"x": [10, 20, 30], "y": [1, 1, 1]}),
    "taller_plus_frame": lambda m: m.DataFrame({"x": [10, 20, 30], "y": [1, 1, 1]}) + df(m),
    "add_self": lambda m: df(m) + df(m), "radd": lambda m: 1 + df(m), "rmul": lambda m: 3 * df(m),
    "floordiv": lambda m: df(m) // 2, "floordiv_negative": lambda m: m.DataFrame({"a": [7, -7]}) // 2,
    "truediv": lambda m: df(m) / 2, "div_zero": lambda m: df(m) / 0, "mod": lambda m: df(m) % 2,
    "sub_series": lambda m: df(m) - m.Series([1, 2]), "add_unit_series": lambda m: df(m) + m.Series([1]),
    "floordiv_series": lambda m: df(m) // m.Series([2, 0]),
    "div_frame": lambda m: df(m) / m.DataFrame({"x": [0, 1]}),
    "mod_frame": lambda m: df(m) % m.DataFrame({"x": [2, 2]}),
    "string_add": lambda m: m.DataFrame({"s": ["a", None]}) + "x", "string_radd": lambda m: "x" + m.DataFrame({"s": ["a"]}),
    "string_column_makes_all_string": lambda m: m.DataFrame({"s": ["a"], "n": [1]}) + 1,
    "frame_of_strings": lambda m: df(m) + m.DataFrame({"x": ["q", "r"]}),
    "bool": lambda m: df(m) + True, "int8": lambda m: m.DataFrame({"a": [1]}, schema={"a": m.Int8}) * 2,
    "uint8_floordiv_none": lambda m: m.DataFrame({"n": [2, 3]}, schema={"n": m.UInt8}) // None,
    "empty_frame": lambda m: df(m) * m.DataFrame({"a": [], "b": []}, schema={"a": m.Int64, "b": m.Float64}),
    "no_columns": lambda m: m.DataFrame() / 2,
    "eq_scalar": lambda m: df(m) == 1, "gt_frame": lambda m: df(m) > df(m), "eq_none": lambda m: df(m) == None,  # noqa: E711
    "eq_frame": lambda m: df(m) == m.DataFrame({"a": [1, 2], "b": [1.5, None]}),
    "eq_other_columns": lambda m: df(m) == m.DataFrame({"a": [1, 2]}),
    "eq_other_shape": lambda m: df(m) == m.DataFrame({"a": [1], "b": [1.5]}),
    "eq_string_to_numbers": lambda m: df(m) == "x",
    "list_operand": lambda m: df(m) + [1], "neg": lambda m: -df(m), "rsub": lambda m: 2 - df(m),
    "pow": lambda m: df(m) ** 2, "truth": lambda m: bool(df(m)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_frame_operator(name):
    assert outcome(fz, CASES[name]) == outcome(pl, CASES[name])


def test_comparison_with_none_warns():
    with pytest.warns(UserWarning, match="always result in null"):
        df(fz) == None  # noqa: B015, E711


def test_frames_are_not_hashable():
    with pytest.raises(TypeError):
        hash(df(fz))
