"""Writes the Parquet fixtures the C++ tests read (tests/cpp/io/parquet/).

Run with the repo's venv:  .venv/bin/python tests/data/parquet/make_fixtures.py
Every value is a formula of the row index i that the C++ test recomputes
(tests/cpp/io/parquet/fixture_values.hpp), so no expected-value files are needed.
Row i of an optional column is null when i % 5 == 2. The fixtures are written by
pyarrow and each one is read back with pyarrow and polars to check the formulas.
"""
import decimal
import os
import shutil
import sys

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))
U32 = 2**32
U64 = 2**64


def opt(i, v):
    return None if i % 5 == 2 else v


def s_val(i):
    return f"v{(i * 7919) % 50}" + "x" * (i % 17)


def b_val(i):
    return (f"b{i}" + "y" * (i % 15)).encode()


def flat_columns(n):
    """name -> (arrow type, values). Must match fixture_values.hpp."""
    d = decimal.Decimal
    cols = {
        "i8": (pa.int8(), [opt(i, (i * 37) % 256 - 128) for i in range(n)]),
        "i16": (pa.int16(), [opt(i, (i * 1237) % 65536 - 32768) for i in range(n)]),
        "i32": (pa.int32(), [opt(i, i * 104729 - 10000000) for i in range(n)]),
        "i64": (pa.int64(), [opt(i, i * 1000000007 * (1 if i % 2 else -1)) for i in range(n)]),
        "u8": (pa.uint8(), [opt(i, (i * 37) % 256) for i in range(n)]),
        "u16": (pa.uint16(), [opt(i, (i * 1237) % 65536) for i in range(n)]),
        "u32": (pa.uint32(), [opt(i, (i * 2654435761) % U32) for i in range(n)]),
        "u64": (pa.uint64(), [opt(i, (i * 11400714819323198485) % U64) for i in range(n)]),
        "f32": (pa.float32(), [opt(i, i * 0.25 - 20.0) for i in range(n)]),
        "f64": (pa.float64(), [opt(i, i * 0.125 - 12.5) for i in range(n)]),
        "bool": (pa.bool_(), [opt(i, i % 3 == 0) for i in range(n)]),
        "str": (pa.string(), [opt(i, s_val(i)) for i in range(n)]),
        "bin": (pa.binary(), [opt(i, b_val(i)) for i in range(n)]),
        "date": (pa.date32(), [opt(i, i * 3 - 300) for i in range(n)]),
        "ts_ms": (pa.timestamp("ms"), [opt(i, i * 86400123 - 10**10) for i in range(n)]),
        "ts_us": (pa.timestamp("us", tz="UTC"), [opt(i, i * 3600000001) for i in range(n)]),
        "ts_ns": (pa.timestamp("ns"), [opt(i, i * 1000000007123) for i in range(n)]),
        "time_ms": (pa.time32("ms"), [opt(i, (i * 1234567) % 86400000) for i in range(n)]),
        "time_us": (pa.time64("us"), [opt(i, (i * 987654321) % 86400000000) for i in range(n)]),
        "time_ns": (pa.time64("ns"), [opt(i, (i * 987654321123) % 86400000000000) for i in range(n)]),
        "dec9": (pa.decimal128(9, 2), [opt(i, d((i * 12345 - 1000000) * (-1) ** i).scaleb(-2)) for i in range(n)]),
        "dec18": (pa.decimal128(18, 4), [opt(i, d(i * 123456789012 - 5 * 10**12).scaleb(-4)) for i in range(n)]),
        "dec38": (pa.decimal128(38, 10), [opt(i, d(i * 10**25 + 12345 * (1 if i % 2 else -1)).scaleb(-10)) for i in range(n)]),
        "fixed": (pa.binary(4), [opt(i, (i * 16777619 % U32).to_bytes(4, "big")) for i in range(n)]),
        "null": (pa.null(), [None] * n),
    }
    return cols


def flat_table(n):
    cols = flat_columns(n)
    fields = [pa.field(k, t) for k, (t, _) in cols.items()]
    arrays = [pa.array(v, type=t) for (t, v) in cols.values()]
    # Required columns (no nulls, REQUIRED repetition).
    fields += [pa.field("req_i64", pa.int64(), nullable=False), pa.field("req_str", pa.string(), nullable=False)]
    arrays += [pa.array([i * 3 for i in range(n)], pa.int64()), pa.array([f"r{i % 7}" for i in range(n)], pa.string())]
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


def nested_table(n):
    def lst(i):
        if i % 7 == 3:
            return None
        return [None if (i + j) % 5 == 1 else i * 10 + j for j in range(i % 4)]

    def lstr(i):
        if i % 6 == 4:
            return None
        return [f"e{i}_{j}" + "z" * (j * 5) for j in range(i % 3)]

    def ll(i):
        if i % 6 == 1:
            return None
        return [None if (i + k) % 4 == 2 else [i * 100 + k * 10 + m for m in range((i + k) % 3)] for k in range(i % 3)]

    def st(i):
        if i % 9 == 4:
            return None
        return {"a": None if i % 4 == 1 else i * 2, "b": f"s{i}"}

    def sl(i):
        if i % 8 == 5:
            return None
        return {"x": None if i % 3 == 2 else [f"x{i}{m}" for m in range(i % 3)], "y": i * 0.5}

    def ls(i):
        if i % 10 == 7:
            return None
        return [{"p": i + k, "q": None if k == 1 else (i + k) % 2 == 0} for k in range(i % 3)]

    def mp(i):
        if i % 6 == 0:
            return None
        return [(f"k{m}", i * m) for m in range(i % 3)]

    schema = pa.schema([
        ("id", pa.int64()),
        ("lst", pa.list_(pa.int64())),
        ("lstr", pa.list_(pa.string())),
        ("ll", pa.list_(pa.list_(pa.int32()))),
        ("st", pa.struct([("a", pa.int32()), ("b", pa.string())])),
        ("sl", pa.struct([("x", pa.list_(pa.string())), ("y", pa.float64())])),
        ("ls", pa.list_(pa.struct([("p", pa.int16()), ("q", pa.bool_())]))),
        ("mp", pa.map_(pa.string(), pa.int32())),
    ])
    data = {
        "id": list(range(n)),
        "lst": [lst(i) for i in range(n)],
        "lstr": [lstr(i) for i in range(n)],
        "ll": [ll(i) for i in range(n)],
        "st": [st(i) for i in range(n)],
        "sl": [sl(i) for i in range(n)],
        "ls": [ls(i) for i in range(n)],
        "mp": [mp(i) for i in range(n)],
    }
    return pa.Table.from_pydict(data, schema=schema)


def write(name, table, **kw):
    path = os.path.join(HERE, name)
    pq.write_table(table, path, **kw)
    back = pq.read_table(path)
    assert back.equals(table), f"{name}: pyarrow read-back differs"
    return path


def check_polars(path, table):
    try:
        import polars as pl
    except ImportError:
        return
    df = pl.read_parquet(path)
    assert df.height == table.num_rows, path


def main():
    for f in os.listdir(HERE):
        if f.endswith(".parquet"):
            os.remove(os.path.join(HERE, f))
    for d in ("hive", "multi"):
        shutil.rmtree(os.path.join(HERE, d), ignore_errors=True)

    small = flat_table(200)
    # Every codec, v1 pages, several row groups and several pages per chunk.
    for codec in ["none", "snappy", "gzip", "zstd", "lz4"]:
        p = write(f"flat_{codec}.parquet", small, compression=codec, row_group_size=64, data_page_size=512)
        check_polars(p, small)
    # Data page v2.
    for codec in ["none", "snappy", "zstd"]:
        p = write(f"flat_v2_{codec}.parquet", small, compression=codec, row_group_size=64, data_page_size=512,
                  data_page_version="2.0")
        check_polars(p, small)

    big = flat_table(1000)
    # PLAIN only, one row group, many pages.
    write("enc_plain.parquet", big, use_dictionary=False, compression="none", data_page_size=2048)
    # Format 1.0: PLAIN_DICTIONARY pages.
    write("enc_dict_v1.parquet", big.drop_columns(["u32", "u64", "u16", "u8", "time_ns", "time_us", "ts_ns", "null"]),
          version="1.0", compression="snappy", data_page_size=2048)
    # RLE_DICTIONARY (format 2.6 default) with a dictionary per chunk.
    write("enc_dict.parquet", big, compression="zstd", data_page_size=2048)

    ints = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "date", "ts_ms", "ts_us", "ts_ns", "time_ms",
            "time_us", "time_ns", "req_i64"]
    enc = {c: "DELTA_BINARY_PACKED" for c in ints}
    enc.update({"str": "DELTA_LENGTH_BYTE_ARRAY", "bin": "DELTA_BYTE_ARRAY", "req_str": "DELTA_BYTE_ARRAY",
                "f32": "BYTE_STREAM_SPLIT", "f64": "BYTE_STREAM_SPLIT", "fixed": "BYTE_STREAM_SPLIT",
                "bool": "RLE"})
    for v in ["1.0", "2.0"]:
        write(f"enc_delta_v{v[0]}.parquet", big, use_dictionary=False, column_encoding=enc, compression="none",
              data_page_size=2048, data_page_version=v)
    enc2 = {"str": "DELTA_BYTE_ARRAY", "bin": "DELTA_LENGTH_BYTE_ARRAY", "i32": "BYTE_STREAM_SPLIT",
            "i64": "BYTE_STREAM_SPLIT", "dec38": "DELTA_BYTE_ARRAY"}
    write("enc_delta2.parquet", big, use_dictionary=False, column_encoding=enc2, compression="snappy",
          data_page_size=2048, data_page_version="2.0")

    # Decimals stored as INT32 / INT64, INT96 timestamps.
    write("decimal_int.parquet", small.select(["dec9", "dec18", "dec38"]), store_decimal_as_integer=True)
    int96 = pa.table({"ts_ns": small.column("ts_ns")})
    path = os.path.join(HERE, "int96.parquet")
    pq.write_table(int96, path, use_deprecated_int96_timestamps=True)

    nested = nested_table(120)
    for v in ["1.0", "2.0"]:
        write(f"nested_v{v[0]}.parquet", nested, row_group_size=50, data_page_size=256, data_page_version=v,
              compression="snappy")

    # Files written by polars' own writer (its page layout and metadata differ from pyarrow's).
    import polars as pl
    pl.from_arrow(small).write_parquet(os.path.join(HERE, "polars_flat.parquet"), row_group_size=64)
    pl.from_arrow(nested).write_parquet(os.path.join(HERE, "polars_nested.parquet"), row_group_size=50)

    # Several files of one schema, and a hive-partitioned directory.
    os.makedirs(os.path.join(HERE, "multi"))
    t = small.select(["i64", "str"])
    for k in range(3):
        pq.write_table(t.slice(k * 60, 60), os.path.join(HERE, "multi", f"part-{k}.parquet"))
    for year in (2023, 2024):
        for month in (1, 2):
            d = os.path.join(HERE, "hive", f"year={year}", f"month={month}")
            os.makedirs(d)
            off = (year - 2023) * 40 + (month - 1) * 20
            pq.write_table(t.slice(off, 20), os.path.join(d, "data.parquet"))
    d = os.path.join(HERE, "hive", "year=2025", "month=__HIVE_DEFAULT_PARTITION__")
    os.makedirs(d)
    pq.write_table(t.slice(80, 20), os.path.join(d, "data.parquet"))

    total = 0
    for root, _, files in os.walk(HERE):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files if f.endswith(".parquet"))
    print(f"fixtures written: {total / 1024:.0f} KiB")
    if total > 2 * 1024 * 1024:
        sys.exit("fixtures exceed 2 MB")


if __name__ == "__main__":
    main()
