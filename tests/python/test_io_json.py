"""NDJSON and JSON against Polars: inference (widening, nested objects and arrays), the
written text byte for byte, errors naming the line and column, ignore_errors, parallel
parsing of large inputs, compressed input, and round trips through DuckDB."""
from __future__ import annotations

import gzip
import io
import json

import polars
import pytest
from io_frames import every_dtype, rows_equal

import frazil as pl

CASES = [
    b'{"a":1,"b":[1,2]}\n{"a":1.5,"b":null,"c":{"x":true}}\n\n{"a":"s"}\n',
    b'{"a":1}\n{"a":null}\n{"b":"x"}\n',
    b'{"n":null}\n{"n":null}\n',
    b'{"l":[[1,2],[3]],"o":{"p":{"q":[{"r":1}]}}}\n{"l":null,"o":{"p":null}}\n',
    b'{"i":9223372036854775807,"f":-0.0,"e":1e300,"u":"\\u00e9\\n\\"x"}\n',
    b'{"a":1}\r\n{"a":2}\r\n',
    b'{"m":1,"k":"x"}\n{"m":"two"}\n{"m":3.5,"k":7}\n',
]


@pytest.mark.parametrize("data", CASES)
def test_read_ndjson_matches_polars(data: bytes) -> None:
    ours = pl.read_ndjson(data)
    theirs = polars.read_ndjson(data)
    assert polars.from_arrow(ours.to_arrow()).schema == theirs.schema
    assert rows_equal(ours.to_arrow().to_pylist(), theirs.to_arrow().to_pylist())


def test_infer_schema_length_and_overrides() -> None:
    data = b'{"a":1}\n' * 5 + b'{"a":2.5}\n'
    with pytest.raises(pl.ComputeError, match=r"cannot parse '2.5' \(number\) as Int64.*line 6"):
        pl.read_ndjson(data, infer_schema_length=5)
    assert pl.read_ndjson(data, infer_schema_length=None).schema == {"a": pl.Float64}
    assert pl.read_ndjson(data, infer_schema_length=5, ignore_errors=True)["a"].to_list() == [1] * 5 + [None]
    got = pl.read_ndjson(data, schema_overrides={"a": pl.Float32})
    assert got.schema == {"a": pl.Float32}
    got = pl.read_ndjson(b'{"d":"2024-01-31","t":"2024-01-31 12:00:00.5","x":3}\n',
                         schema={"d": pl.Date, "t": pl.Datetime("ms"), "x": pl.Int8})
    assert got.row(0) == (polars.Series([0]).cast(polars.Date).item().__class__(2024, 1, 31),
                          got["t"].item(), 3)
    assert str(got["t"].item()) == "2024-01-31 12:00:00.500000"


def test_errors_name_line_and_column() -> None:
    with pytest.raises(pl.ComputeError, match="line 2"):
        pl.read_ndjson(b'{"a":1}\n{"a":\n')
    with pytest.raises(pl.ComputeError, match="got non-null value for NULL-typed column: AAAA"):
        pl.read_ndjson(b'{"a":"AAAA"}\n', schema={"a": pl.Null})
    with pytest.raises(pl.ComputeError, match=r"at line 1: NDJSON line expected to contain JSON object: list\[i64\]"):
        pl.read_ndjson(b'[1,2]\n')


@pytest.mark.parametrize("method", ["write_ndjson", "write_json"])
def test_written_text_equals_polars(method: str) -> None:
    df = every_dtype().drop("bin", "dt_zone")  # Polars cannot write Binary; zones: see json_writer.hpp
    ours = getattr(df, method)()
    theirs = getattr(polars.from_arrow(df.to_arrow()), method)()
    assert ours == theirs


def test_round_trip_through_files_and_duckdb(tmp_path) -> None:
    # NaN is written as null (as Polars writes it): f64 is checked against Polars' text above.
    df = every_dtype().drop("bin", "dt_zone", "dt_utc", "time", "dur", "dec", "f64")
    path = tmp_path / "x.jsonl"
    df.write_ndjson(path)
    back = pl.read_ndjson(path, schema=df.schema)
    assert rows_equal(back.to_arrow().to_pylist(), df.to_arrow().to_pylist())
    duckdb = pytest.importorskip("duckdb")
    got = duckdb.sql(f"select i64, str, list from read_json('{path}')").fetchall()
    assert [list(r) for r in got] == [list(r) for r in df.select("i64", "str", "list").rows()]
    # DuckDB's NDJSON reads in frazil.
    out = tmp_path / "duck.jsonl"
    duckdb.sql(f"copy (select range as a, 'x' || range as s, [range, 1] as l from range(5)) to '{out}' (format json)")
    assert pl.read_ndjson(out).to_arrow().to_pylist() == polars.read_ndjson(out).to_arrow().to_pylist()


def test_large_input_parses_in_parallel_chunks() -> None:
    rows = [{"i": i, "s": f"row {i}", "l": list(range(i % 5)), "o": {"k": i % 3} if i % 11 else None}
            for i in range(60_000)]
    data = "\n".join(json.dumps(r) for r in rows).encode()
    assert len(data) > 2 << 20  # more than one parse chunk
    ours = pl.read_ndjson(data)
    assert ours.height == 60_000
    assert rows_equal(ours.to_arrow().to_pylist(), polars.read_ndjson(data).to_arrow().to_pylist())
    got = pl.scan_ndjson(data).filter(pl.col("i") % 1000 == 7).select("s").collect()
    assert got["s"].to_list() == [f"row {i}" for i in range(7, 60_000, 1000)]


def test_compressed_input_and_output(tmp_path) -> None:
    data = b'{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n'
    assert pl.read_ndjson(gzip.compress(data))["a"].to_list() == [1, 2]
    df = pl.DataFrame({"a": [1, 2]})
    for compression, ext in (("gzip", "gz"), ("zstd", "zst")):
        path = tmp_path / f"x.jsonl.{ext}"
        df.write_ndjson(path, compression=compression)
        assert pl.read_ndjson(path)["a"].to_list() == [1, 2]
    with pytest.raises(pl.InvalidOperationError, match="use the compression parameter"):
        df.write_ndjson(tmp_path / "y.jsonl.gz")


def test_read_json_and_lazy_sources() -> None:
    data = b'[{"a":1,"b":{"c":[1,2]}},{"a":2,"b":null}]'
    assert rows_equal(pl.read_json(data).to_arrow().to_pylist(), polars.read_json(data).to_arrow().to_pylist())
    assert pl.read_json(io.BytesIO(b'{"a":1}'))["a"].to_list() == [1]
    f = io.BytesIO(b'{"a":1}\n{"a":2}\n')
    got = pl.scan_ndjson([f, f], row_index_name="r", include_file_paths="p").collect()
    assert got["r"].to_list() == [0, 1, 2, 3]
    assert got.columns == ["r", "a", "p"]


def test_write_ndjson_of_many_blocks_matches_polars_bytes(tmp_path):
    # Several waves of 16K-row blocks (the block buffers are reused between waves and batches).
    n = 150_001
    data = {
        "i": [None if i % 97 == 0 else i * 31 for i in range(n)],
        "s": [None if i % 89 == 0 else f"v{i % 1000}\u00e9" * (i % 5) for i in range(n)],
        "f": [i / 7 for i in range(n)],
    }
    ours, theirs = tmp_path / "f.jsonl", tmp_path / "p.jsonl"
    pl.DataFrame(data).write_ndjson(ours)
    polars.DataFrame(data).write_ndjson(theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    # Two frames in a row through the lazy sink: the second batch reuses the buffers.
    sunk = tmp_path / "s.jsonl"
    pl.concat([pl.DataFrame(data), pl.DataFrame(data).head(70_000)]).lazy().sink_ndjson(sunk)
    assert sunk.read_bytes() == theirs.read_bytes() + b"".join(theirs.read_bytes().splitlines(True)[:70_000])


@pytest.mark.parametrize("dtype", ["Categorical", "Enum"])
def test_categorical_and_enum_columns_read_as_polars_reads_them(dtype: str) -> None:
    text = b'{"a":"x","s":{"k":"y"}}\n{"a":null,"s":null}\n{"a":"y","s":{"k":"x"}}\n'

    def schema(m):
        t = m.Categorical if dtype == "Categorical" else m.Enum(["y", "x"])
        return {"a": t, "s": m.Struct({"k": t})}
    got = pl.read_ndjson(io.BytesIO(text), schema=schema(pl))
    want = polars.read_ndjson(io.BytesIO(text), schema=schema(polars))
    assert str(got.schema) == str(want.schema)
    assert got.to_dicts() == want.to_dicts()


def test_a_string_outside_an_enum_or_a_number_as_categorical_names_the_column() -> None:
    with pytest.raises(pl.InvalidOperationError, match="column 'a'.*\\[\"x\"\\]"):
        pl.read_ndjson(io.BytesIO(b'{"a":"x"}\n{"a":"y"}\n'), schema={"a": pl.Enum(["y"])})
    with pytest.raises(pl.ComputeError, match="cannot parse '1' \\(number\\) as Categorical \\(column 'a', line 2"):
        pl.read_ndjson(io.BytesIO(b'{"a":"x"}\n{"a":1}\n'), schema={"a": pl.Categorical})


@pytest.mark.parametrize("text", [b'{"a":18446744073709551615}\n{"a":1}', b'{"a":18446744073709551615}\n{"a":1.5}',
                                  b'{"a":9223372036854775808}', b'{"a":1}\n{"a":null}'])
def test_integers_beyond_int64_infer_int128_as_in_polars(text: bytes) -> None:
    got, want = pl.read_ndjson(io.BytesIO(text)), polars.read_ndjson(io.BytesIO(text))
    assert str(got.schema) == str(want.schema)
    assert got.to_dicts() == want.to_dicts()


def test_int128_schema_reads_the_whole_json_integer_range() -> None:
    text = b'{"a":18446744073709551615}\n{"a":-1}\n{"a":null}'
    got = pl.read_ndjson(io.BytesIO(text), schema={"a": pl.Int128})
    assert got.to_dicts() == polars.read_ndjson(io.BytesIO(text), schema={"a": polars.Int128}).to_dicts()
    with pytest.raises(pl.ComputeError, match="cannot parse '-1' \\(number\\) as UInt128 \\(column 'a', line 2"):
        pl.read_ndjson(io.BytesIO(text), schema={"a": pl.UInt128})


def test_read_json_of_compressed_or_bom_prefixed_bytes() -> None:
    import zlib

    import pyarrow as pa

    rows = [{"id": 1, "name": "Alice", "ok": True}, {"id": 2, "name": None, "ok": False}]
    text = json.dumps(rows).encode()
    for data in (gzip.compress(text), zlib.compress(text), zlib.compress(text, 1),
                 pa.compress(text, codec="zstd", asbytes=True), b"\xef\xbb\xbf" + text, io.BytesIO(text)):
        got = pl.read_json(data)
        assert got.to_dicts() == rows
        assert got.schema == {"id": pl.Int64, "name": pl.String, "ok": pl.Boolean}
    with pytest.raises(pl.ComputeError, match="not valid gzip data"):
        pl.read_json(b"x^ not zlib")


@pytest.mark.parametrize("text", ["{}", '{"j":{}}', "[]", "[{}]", '[{}, {"a": 1}]'])
def test_read_json_of_empty_objects_has_polars_shape(text: str) -> None:
    got, want = pl.read_json(io.StringIO(text)), polars.read_json(io.StringIO(text))
    assert got.shape == want.shape
    assert [(n, str(t)) for n, t in got.schema.items()] == [(n, str(t)) for n, t in want.schema.items()]
