"""join_where against Polars: one and two inequalities (range join), equalities with
inequalities, predicates written right-to-left, suffixes, nulls and NaN, how='left',
computed predicates, empty sides. Row order is unspecified: compared sorted."""
import math

import polars as pl
import pytest

import frazil as fz

EAST = {"id": [100, 101, 102, 103], "dur": [140, 100, 90, None], "rev": [12, 12, 5, 7], "cores": [2, 8, 4, 4]}
WEST = {"t_id": [404, 498, 676, 742, 800], "time": [100, 140, 80, 90, None], "cost": [6, 11, 10, 5, 1],
        "cores": [4, 2, 1, 4, 2]}


def sorted_rows(df):
    key = lambda r: tuple((v is None, -math.inf if v is None else v) for v in r)
    return df.columns, [str(t) for t in df.dtypes], sorted(df.rows(), key=key)


PREDICATES = [
    lambda m: [m.col("dur") < m.col("time")],
    lambda m: [m.col("dur") <= m.col("time")],
    lambda m: [m.col("dur") > m.col("time")],
    lambda m: [m.col("dur") >= m.col("time")],
    lambda m: [m.col("time") > m.col("dur")],
    lambda m: [m.col("dur") < m.col("time"), m.col("rev") > m.col("cost")],
    lambda m: [m.col("cores") == m.col("cores_right"), m.col("dur") > m.col("time")],
    lambda m: [m.col("cores") != m.col("cores_right")],
    lambda m: [(m.col("dur") + 10) < m.col("time")],
]


@pytest.mark.parametrize("how", ["inner", "left"])
@pytest.mark.parametrize("case", range(len(PREDICATES)))
def test_matches_polars(case, how):
    got = fz.DataFrame(EAST).join_where(fz.DataFrame(WEST), *PREDICATES[case](fz), how=how)
    want = pl.DataFrame(EAST).join_where(pl.DataFrame(WEST), *PREDICATES[case](pl), how=how)
    assert sorted_rows(got) == sorted_rows(want)


def test_floats_lazy_and_empty():
    a = {"x": [1.0, float("nan"), None, 3.0]}
    b = {"y": [0.5, 2.0, float("nan")]}
    got = fz.LazyFrame(a).join_where(fz.LazyFrame(b), fz.col("x") > fz.col("y")).collect()
    want = pl.LazyFrame(a).join_where(pl.LazyFrame(b), pl.col("x") > pl.col("y")).collect()
    norm = lambda df: sorted(str(r) for r in df.rows())
    assert norm(got) == norm(want)
    empty = fz.DataFrame({"y": []}, schema={"y": fz.Float64})
    assert fz.DataFrame(a).join_where(empty, fz.col("x") < fz.col("y")).shape == (0, 2)


def test_errors():
    with pytest.raises(fz.exceptions.InvalidOperationError, match="expected join keys/predicates"):
        fz.DataFrame(EAST).join_where(fz.DataFrame(WEST))
    with pytest.raises(TypeError):
        fz.LazyFrame(EAST).join_where(fz.DataFrame(WEST), fz.col("dur") < fz.col("time"))
