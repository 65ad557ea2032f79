"""Nested, categorical, decimal and binary columns keep their dtypes through Parquet and
Arrow, against Polars 2.1, pyarrow and DuckDB: List (nested, of Struct, of Categorical),
Array, Struct of List, Categorical, Enum, Decimal and Binary, with null rows and null values
inside, empty lists, no rows, one row, several row groups and chunks; Arrays inside Structs
and Lists and an Array of Enum. frazil's files and
Arrow tables are read by Polars as the frame Polars builds itself; Polars' files and tables
are read by frazil with the same dtypes and values; DuckDB sees the same column types in
both and hands back tables frazil reads as Polars does (DuckDB reads dictionaries as
VARCHAR and Parquet Arrays as lists, for Polars' output as for frazil's)."""
import decimal

import duckdb
import polars
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

import frazil


def frame(m, rows: int = 4):
    data = {
        "l": [[1, None], None, [], [4]],
        "ll": [[["a"], None], [[]], None, [["b", None]]],
        "arr": [[1, 2], None, [None, 4], [5, 6]],
        "s": [{"a": 1, "b": ["x"]}, None, {"a": None, "b": None}, {"a": 4, "b": []}],
        "ls": [[{"p": 1}], [None], None, []],
        "cat": ["x", None, "y", "x"],
        "enum": ["lo", "hi", None, "lo"],
        "dec": [decimal.Decimal("1.25"), None, decimal.Decimal("-3.50"), decimal.Decimal("0")],
        "bin": [b"\x00a", None, b"", b"zz"],
        "lcat": [["x"], None, [None, "y"], []],
        "aenum": [["lo", "hi"], None, ["hi", None], ["lo", "lo"]],
        "sarr": [{"w": [[1, 2]]}, {"w": None}, None, {"w": [[None, 3]]}],
    }
    schema = {"arr": m.Array(m.Int64, 2), "cat": m.Categorical, "enum": m.Enum(["lo", "hi"]),
              "dec": m.Decimal(10, 2), "lcat": m.List(m.Categorical), "aenum": m.Array(m.Enum(["lo", "hi"]), 2),
              "sarr": m.Struct({"w": m.List(m.Array(m.Int64, 2))})}
    df = m.DataFrame(data, schema_overrides=schema)
    return m.concat([df] * (rows // 4 + 1)).head(rows)


SIZES = [0, 1, 4, 1000]


def as_polars(df) -> polars.DataFrame:
    return polars.DataFrame(df.to_arrow())


def same_dtypes(a, b) -> bool:
    return [str(d) for d in a.dtypes] == [str(d) for d in b.dtypes]


def structural(t: pa.DataType):
    """An Arrow type with dictionary index widths left out (Polars narrows an Enum's indices)."""
    if pa.types.is_dictionary(t):
        return ("dictionary", structural(t.value_type), t.ordered)
    if pa.types.is_struct(t):
        return ("struct", tuple((f.name, structural(f.type)) for f in t))
    if pa.types.is_fixed_size_list(t):
        return ("fixed_size_list", t.list_size, structural(t.value_type))
    if pa.types.is_large_list(t) or pa.types.is_list(t):
        return ("list", structural(t.value_type))
    if pa.types.is_large_string(t) or pa.types.is_string(t):
        return "string"
    return str(t)


@pytest.mark.parametrize("rows", SIZES)
def test_frazil_parquet_is_read_unchanged(tmp_path, rows):
    fz, pl = frame(frazil, rows), frame(polars, rows)
    path = tmp_path / "f.parquet"
    fz.write_parquet(path, row_group_size=300)
    assert_frame_equal(polars.read_parquet(path), pl)
    back = frazil.read_parquet(path)
    assert same_dtypes(back, fz)
    assert_frame_equal(as_polars(back), pl)
    theirs = tmp_path / "p.parquet"
    pl.write_parquet(theirs)
    assert [structural(f.type) for f in pq.read_schema(path)] == [structural(f.type) for f in pq.read_schema(theirs)]


@pytest.mark.parametrize("rows", SIZES)
def test_polars_parquet_is_read_unchanged(tmp_path, rows):
    pl = frame(polars, rows)
    path = tmp_path / "p.parquet"
    pl.write_parquet(path, row_group_size=300)
    got = frazil.read_parquet(path)
    assert same_dtypes(got, pl)
    assert_frame_equal(as_polars(got), pl)
    assert_frame_equal(as_polars(frazil.scan_parquet(path).collect()), pl)


@pytest.mark.parametrize("rows", SIZES)
def test_arrow_both_ways(rows):
    fz, pl = frame(frazil, rows), frame(polars, rows)
    mine, theirs = fz.to_arrow(), pl.to_arrow()
    assert [structural(f.type) for f in mine.schema] == [structural(f.type) for f in theirs.schema]
    assert_frame_equal(polars.from_arrow(mine), pl)
    got = frazil.from_arrow(theirs)
    assert same_dtypes(got, pl)
    assert_frame_equal(as_polars(got), pl)
    # Several chunks: one table of record batches of 3 rows.
    chunked = pa.Table.from_batches(theirs.to_batches(max_chunksize=3), theirs.schema)
    assert_frame_equal(as_polars(frazil.from_arrow(chunked)), pl)


@pytest.mark.parametrize("rows", [0, 4])
def test_duckdb_sees_the_types_polars_gives_it(rows):
    # DuckDB 2.0 reads a dictionary inside a fixed-size list as its indices (UTINYINT[2] for
    # Polars' Array(Enum), UINTEGER[2] for frazil's, whose indices are 32-bit): left out.
    fz, pl = frame(frazil, rows).drop("aenum"), frame(polars, rows).drop("aenum")  # noqa: F841 (read by name)
    assert duckdb.sql("select * from fz").types == duckdb.sql("select * from pl").types
    back = frazil.from_arrow(duckdb.sql("select * from fz").arrow().read_all())
    expected = polars.from_arrow(duckdb.sql("select * from pl").arrow().read_all())
    assert same_dtypes(back, expected)
    assert_frame_equal(as_polars(back), expected)


def test_duckdb_enum_array_struct_and_decimal_read_as_polars_reads_them():
    con = duckdb.connect()
    con.sql("create type mood as enum ('sad', 'ok', 'happy')")
    table = con.sql(
        "select x::mood as e, [x::mood] as le, {'k': x::mood, 'n': [1, null]} as se, [1, 2]::INT[2] as a, "
        "1.5::DECIMAL(5, 2) as d, 'ab'::BLOB as b from (values ('ok'), (null), ('happy')) t(x)").arrow().read_all()
    got, expected = frazil.from_arrow(table), polars.from_arrow(table)
    assert same_dtypes(got, expected)
    assert_frame_equal(as_polars(got), expected)
