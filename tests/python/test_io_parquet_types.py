"""Parquet type mapping of Int128, UInt128, Float16, Categorical and Enum, differential against
Polars: frazil's files read by Polars (and frazil) as the same dtypes and values, Polars' files
read by frazil, over nulls, extremes, -0.0/NaN, one row, empty frames and several row groups;
the Categorical/Enum footer read by pyarrow and DuckDB too."""
import math

import polars as pl
import pytest

import frazil as fz

I128 = [1, -2, None, 2**100, -(2**127), 2**127 - 1, 0]
U128 = [1, None, 2**128 - 1, 0, 5, 2**64, None]
F16 = [1.5, None, -0.0, float("nan"), 65504.0, float("-inf"), 6e-8]
ENUM = ["b", "a", None, "c", "b", "c", "a"]
CAT = ["x", None, "y", "x", "z", "zz", "y"]


def frame(m, rows):
    cut = slice(0, rows)
    return m.DataFrame({
        "a": m.Series(I128[cut], dtype=m.Int128),
        "b": m.Series(U128[cut], dtype=m.UInt128),
        "c": m.Series(F16[cut], dtype=m.Float16),
        "e": m.Series(ENUM[cut], dtype=m.Enum(["c", "b", "a"])),
        "k": m.Series(CAT[cut], dtype=m.Categorical),
    })


def same_values(got: list, want: list) -> bool:
    return len(got) == len(want) and all(
        (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))
        or (x == y and (not isinstance(x, float) or math.copysign(1, x) == math.copysign(1, y)))
        for x, y in zip(got, want))


def assert_same_frame(got, want):
    assert [repr(t) for t in got.dtypes] == [repr(t) for t in want.dtypes]
    for name in want.columns:
        assert same_values(got.get_column(name).to_list(), want.get_column(name).to_list()), name


@pytest.mark.parametrize("rows", [0, 1, 7])
@pytest.mark.parametrize("row_group_size", [None, 2])
def test_frazil_files_read_by_polars_and_frazil(tmp_path, rows, row_group_size):
    path = tmp_path / "t.parquet"
    opts = {} if row_group_size is None else {"row_group_size": row_group_size}
    frame(fz, rows).write_parquet(path, **opts)
    want = frame(pl, rows)
    assert_same_frame(pl.read_parquet(path), want)
    assert_same_frame(fz.read_parquet(path), want)


@pytest.mark.parametrize("rows", [0, 1, 7])
def test_polars_files_read_by_frazil(tmp_path, rows):
    path = tmp_path / "p.parquet"
    frame(pl, rows).write_parquet(path, row_group_size=3)
    assert_same_frame(fz.read_parquet(path), frame(pl, rows))
    assert_same_frame(fz.scan_parquet(path).select("b", "a").collect(), frame(pl, rows).select("b", "a"))


def test_categories_footer_for_pyarrow_and_duckdb(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    pa_parquet = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "c.parquet"
    frame(fz, 7).select("c", "e", "k").write_parquet(path)
    t = pa_parquet.read_table(path)
    assert str(t.schema.field("e").type) == "dictionary<values=string, indices=uint32, ordered=1>"
    assert t.column("e").to_pylist() == ENUM and t.column("k").to_pylist() == CAT
    assert str(t.schema.field("c").type) == "halffloat"
    rows = duckdb.sql(f"select e, k from '{path}'").fetchall()
    assert rows == list(zip(ENUM, CAT))


def test_nested_wide_integers_are_a_clear_error(tmp_path):
    df = fz.DataFrame({"l": [[1, 2]]}, schema={"l": fz.List(fz.Int128)})
    with pytest.raises(fz.exceptions.InvalidOperationError, match="Int128/UInt128 inside"):
        df.write_parquet(tmp_path / "n.parquet")
    assert not (tmp_path / "n.parquet").exists()
