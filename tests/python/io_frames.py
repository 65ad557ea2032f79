"""Frames with every dtype frazil has (nulls, zones, nested types), for the I/O round-trip
tests, and value comparison that treats NaN as equal to NaN."""
from __future__ import annotations

import datetime
import decimal
import math

import frazil as pl


def every_dtype(n: int = 50) -> pl.DataFrame:
    """Every frazil dtype, with a null every 7 rows, NaN and -0.0, empty strings and lists."""
    def nulls(values: list) -> list:
        return [None if i % 7 == 3 else v for i, v in enumerate(values)]

    base = datetime.datetime(2024, 3, 31, 1, 2, 3, 456789)
    floats = [float(i) / 3 for i in range(n)]
    floats[1], floats[2] = float("nan"), -0.0
    data = {
        "bool": nulls([i % 3 == 0 for i in range(n)]),
        "i8": nulls([(i * 37) % 256 - 128 for i in range(n)]),
        "i16": nulls([(i * 1000) % 60000 - 30000 for i in range(n)]),
        "i32": nulls([(i * 100_000) % 2**31 for i in range(n)]),
        "i64": nulls([(i * 10**15) % 2**62 - 2**62 for i in range(n)]),
        "u8": nulls([i % 256 for i in range(n)]),
        "u16": nulls([(i * 1000) % 65536 for i in range(n)]),
        "u32": nulls([(i * 80_000_000) % 2**32 for i in range(n)]),
        "u64": nulls([2**64 - 1 - i for i in range(n)]),
        "f32": nulls([1.5 * i for i in range(n)]),
        "f64": nulls(floats),
        "str": nulls(["", "a", "ünïcödé", "a long string that does not fit a view inline"] * (n // 4) + ["x"] * (n % 4)),
        "bin": nulls([bytes([i % 256, 0, 255]) for i in range(n)]),
        "date": nulls([datetime.date(1970, 1, 1) + datetime.timedelta(days=i * 400 - 9000) for i in range(n)]),
        "dt_us": nulls([base + datetime.timedelta(hours=i * 13) for i in range(n)]),
        "time": nulls([datetime.time(i % 24, i % 60, i % 60, i * 1000 % 1_000_000) for i in range(n)]),
        "dur": nulls([datetime.timedelta(seconds=i * 3601, microseconds=i) for i in range(n)]),
        "dec": nulls([decimal.Decimal(i * 12345 - 300000).scaleb(-3) for i in range(n)]),
        "list": nulls([[j for j in range(i % 4)] for i in range(n)]),
        "list_str": nulls([["a", None, "bc"][: i % 4] for i in range(n)]),
        "struct": nulls([{"x": i, "y": f"s{i}"} for i in range(n)]),
    }
    schema = {
        "i8": pl.Int8, "i16": pl.Int16, "i32": pl.Int32, "u8": pl.UInt8, "u16": pl.UInt16, "u32": pl.UInt32,
        "u64": pl.UInt64, "f32": pl.Float32, "dec": pl.Decimal(18, 3),
    }
    df = pl.DataFrame(data, schema_overrides=schema)
    return df.with_columns(
        pl.col("dt_us").cast(pl.Datetime("ns")).alias("dt_ns"),
        pl.col("dt_us").cast(pl.Datetime("ms")).alias("dt_ms"),
        pl.col("dt_us").cast(pl.Datetime("us", "UTC")).alias("dt_utc"),
        pl.col("dt_us").cast(pl.Datetime("us", "Europe/Amsterdam")).alias("dt_zone"),
    )


def rows_equal(a: list, b: list) -> bool:
    def norm(v):
        if isinstance(v, float) and math.isnan(v):
            return "NaN"
        if isinstance(v, list):
            return [norm(x) for x in v]
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, datetime.datetime) and v.tzinfo is not None:
            return v.astimezone(datetime.timezone.utc)
        return v

    return norm(a) == norm(b)
