"""The eager DataFrame API and its printed form, against Polars."""
import datetime as dt
import decimal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

import frazil as fz

# Frames whose printed form must match Polars' character for character.
REPR_FRAMES = [
    {"a": [1, 2, 3]},
    {"a": [1.5, None, 3.0], "b": ["x", "y", None], "c": [True, False, None]},
    {"a": list(range(25)), "b": [f"s{i}" for i in range(25)]},
    {"d": [dt.date(2020, 1, 1), None], "ts": [dt.datetime(2020, 1, 1, 12, 30), dt.datetime(2021, 5, 6, 1, 2, 3, 456000)]},
    {"l": [[1, 2], [3], None], "s": [{"a": 1, "b": "x"}, None, {"a": 2, "b": None}]},
    {"dec": [decimal.Decimal("1.50"), decimal.Decimal("-2.25"), None]},
    {"bin": [b"abc", b"\x00\xff", None]},
    {"n": [None, None]},
    {"td": [dt.timedelta(days=1, seconds=5), dt.timedelta(microseconds=30), None]},
    {"u": ["héllo wörld", "ü", "ñandú"]},
    {},
    {"a": []},
    {"neg": [-1, -22, None], "big": [2**62, 0, 1]},
]


@pytest.mark.parametrize("data", REPR_FRAMES, ids=lambda d: ",".join(d) or "empty")
def test_repr_matches_polars(data):
    ours, theirs = fz.DataFrame(data), pl.DataFrame(data)
    assert str(ours) == str(theirs)
    assert repr(ours) == repr(theirs)


def test_repr_of_polars_typed_frame():
    p = pl.DataFrame({"f32": pl.Series([1.5, 2.25], dtype=pl.Float32), "u8": pl.Series([1, 2], dtype=pl.UInt8)})
    assert str(fz.DataFrame(p)) == str(p)


def test_shape_and_schema():
    data = {"a": [1, 2, 3], "b": ["x", None, "z"]}
    df, p = fz.DataFrame(data), pl.DataFrame(data)
    assert df.shape == p.shape == (3, 2)
    assert df.height == 3 and df.width == 2 and len(df) == 3
    assert df.columns == ["a", "b"]
    assert df.schema == p.schema
    assert df.schema.names() == ["a", "b"]
    assert df.schema.dtypes() == [fz.Int64, fz.String]
    assert repr(df.schema) == repr(p.schema)
    assert df.dtypes == [fz.Int64, fz.String]
    assert "a" in df and "z" not in df
    assert not df.is_empty() and fz.DataFrame({"a": []}).is_empty()


def test_values_access():
    data = {"a": [1, 2, 3], "b": ["x", None, "z"]}
    df, p = fz.DataFrame(data), pl.DataFrame(data)
    assert df.to_dict(as_series=False) == p.to_dict(as_series=False)
    assert {k: v.to_list() for k, v in df.to_dict().items()} == data
    assert df.rows() == p.rows()
    assert df.rows(named=True) == p.rows(named=True)
    assert df.row(1) == p.row(1)
    assert df.item(2, "b") == "z" and df.item(0, 0) == 1
    assert fz.DataFrame({"x": [2.5]}).item() == 2.5
    assert df.get_column("b").to_list() == ["x", None, "z"]
    assert df["a"].name == "a" and df["a"].dtype == fz.Int64
    assert [s.name for s in df.get_columns()] == ["a", "b"]
    assert df[["b"]].columns == ["b"]


def test_head_tail_slice():
    data = {"a": list(range(10)), "s": [str(i) for i in range(10)]}
    df, p = fz.DataFrame(data), pl.DataFrame(data)
    for n in (0, 1, 5, 20, -3):
        assert df.head(n).rows() == p.head(n).rows(), n
        assert df.tail(n).rows() == p.tail(n).rows(), n
    assert df.head().rows() == p.head().rows()
    assert df.slice(2, 3).rows() == p.slice(2, 3).rows()
    assert df.slice(-4).rows() == p.slice(-4).rows()
    assert df[3:5].rows() == p[3:5].rows()
    one = fz.DataFrame({"a": [7]})
    assert one.head(3).rows() == [(7,)]


def test_equals():
    a = fz.DataFrame({"x": [1, None], "f": [float("nan"), 1.0]})
    assert a.equals(fz.DataFrame({"x": [1, None], "f": [float("nan"), 1.0]}))
    assert not a.equals(fz.DataFrame({"x": [1, 2], "f": [float("nan"), 1.0]}))
    assert not a.equals(fz.DataFrame({"y": [1, None], "f": [float("nan"), 1.0]}))
    assert not a.equals(fz.DataFrame({"x": [1.0, None], "f": [float("nan"), 1.0]}))


def test_construct_from_series_rows_and_frames():
    df = fz.DataFrame([fz.Series("a", [1, 2]), fz.Series("b", ["x", "y"])])
    assert df.rows() == [(1, "x"), (2, "y")]
    rows = fz.DataFrame([{"a": 1, "b": "x"}, {"a": 2}])
    assert rows.rows() == [(1, "x"), (2, None)]
    assert fz.DataFrame(df).equals(df)
    assert fz.DataFrame().shape == (0, 0)
    assert fz.DataFrame({"a": fz.Series("ignored", [1, 2])}).columns == ["a"]


def test_demo_runs():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-m", "frazil.demo"], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(root / "python")},
    ).stdout
    assert out.startswith("shape: (5, 6)")
    assert "Nairobi" in out


def test_no_heavy_imports_unless_asked():
    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys, frazil as fz\n"
        "df = fz.DataFrame({'a': [1, 2], 's': ['x', None]})\n"
        "str(df); df.rows(); df.schema; df['a'].to_list()\n"
        "print(sorted(m for m in ('pyarrow', 'polars', 'pandas', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(root / "python")}).stdout
    assert out.strip() == "[]"
