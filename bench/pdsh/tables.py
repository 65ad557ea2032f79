"""Where each engine reads the PDS-H tables from: lazy file scans (Parquet or CSV), the way
a user of that engine writes them."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.pdsh import datagen


def scan(pl: Any, path: Path, fmt: str) -> Any:
    """A LazyFrame over one table file, for frazil or polars (`pl` is the module)."""
    if fmt == "parquet":
        return pl.scan_parquet(str(path))
    if fmt == "csv":
        return pl.scan_csv(str(path), try_parse_dates=True)
    raise ValueError(f"unknown format {fmt!r}")


def lazy_tables(pl: Any, names: list[str], scale: float, fmt: str) -> dict[str, Any]:
    return {name: scan(pl, datagen.table_path(scale, fmt, name), fmt) for name in names}


def duckdb_connect(scale: float, fmt: str, threads: int) -> Any:
    import duckdb

    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    for table in datagen.TABLES:
        path = datagen.table_path(scale, fmt, table)
        reader = "read_parquet" if fmt == "parquet" else "read_csv_auto"
        con.execute(f"CREATE VIEW {table} AS SELECT * FROM {reader}('{path}')")
    return con


def datafusion_context(scale: float, fmt: str, threads: int) -> Any:
    import datafusion

    config = datafusion.SessionConfig().with_target_partitions(int(threads))
    ctx = datafusion.SessionContext(config)
    for table in datagen.TABLES:
        path = str(datagen.table_path(scale, fmt, table))
        if fmt == "parquet":
            ctx.register_parquet(table, path)
        else:
            ctx.register_csv(table, path, has_header=True)
    return ctx
