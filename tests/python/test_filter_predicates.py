"""filter/remove read their predicates as Polars: expressions, Boolean column names, Boolean
masks (lists, tuples, Series, NumPy), True/False, and refuse anything else."""
import numpy as np
import polars as pl
import pytest

import frazil as fz


def frame(m):
    return m.DataFrame({"colx": ["aa", "bb", "cc", "dd"], "b": [True, None, False, True], "n": [1, 2, 3, 4]})


PREDICATES = {
    "true": lambda m: (True,), "false": lambda m: (False,), "zero": lambda m: (0,), "unknown_name": lambda m: ("x",),
    "int_list": lambda m: ([2, 3],), "dict": lambda m: ({"x": 1},), "int_series": lambda m: (m.Series([1, 2, 3]),),
    "none": lambda m: (None,), "bool_column": lambda m: ("b",), "mask_list": lambda m: ([True, False, False, True],),
    "mask_tuple": lambda m: ((False, True, True, False),),
    "mask_numpy": lambda m: (np.array([True, False, True, False]),),
    "mask_series_with_null": lambda m: (m.Series([True, None, True, False]),),
    "expr_list": lambda m: ([m.col("n") > 1, m.col("n") < 4],), "mixed_list": lambda m: ([m.col("n") > 1, 1],),
    "bool_and_int_list": lambda m: ([True, 1],), "expr": lambda m: (m.col("n") > 2,),
    "true_and_expr": lambda m: (True, m.col("n") > 1),
    "two_masks": lambda m: ([True, True, True, False], [False, True, True, True]),
    "expr_mask_and_constraint": lambda m: (m.col("n") > 1, [True, True, False, True]),
    "nothing": lambda m: (),
}


def outcome(m, method, lazy, make):
    f = frame(m).lazy() if lazy else frame(m)
    try:
        out = getattr(f, method)(*make(m), **({"n": 4} if make is PREDICATES["expr_mask_and_constraint"] else {}))
        return (out.collect() if lazy else out).rows()
    except Exception as e:  # noqa: BLE001 - the error kind is compared
        return type(e).__name__


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("method", ["filter", "remove"])
@pytest.mark.parametrize("name", sorted(PREDICATES))
def test_predicates(name, method, lazy):
    if method == "remove" and name == "nothing":
        pytest.skip("Polars' remove() needs a predicate")
    make = PREDICATES[name]
    assert outcome(fz, method, lazy, make) == outcome(pl, method, lazy, make)


def test_string_column_is_not_a_predicate():
    # (Polars' remove("colx") keeps every row; frazil refuses a non-Boolean predicate in both.)
    for method in ("filter", "remove"):
        with pytest.raises(fz.exceptions.InvalidOperationError):
            getattr(frame(fz), method)("colx")
