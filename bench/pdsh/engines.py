"""How each engine runs one PDS-H query: build it once, then collect it as often as asked.

frazil and Polars run the same Python query modules (bench/pdsh/queries); frazil-sql
(frazil's SQL front end), DuckDB and DataFusion run the SQL text of bench/pdsh/sql. Every runner returns a Polars DataFrame so
that results can be validated the same way.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from bench.pdsh import tables
from bench.pdsh.queries import load, tables_of

ENGINES = ("frazil", "frazil-sql", "polars", "duckdb", "datafusion")
SQL_DIR = Path(__file__).resolve().parent / "sql"


def sql_text(n: int) -> str:
    return (SQL_DIR / f"q{n}.sql").read_text()


def prepare(engine: str, n: int, scale: float, fmt: str, threads: int) -> Callable[[], Any]:
    """A function that runs query n once in `engine` and returns its result as a Polars
    DataFrame. Planning (building the lazy query, registering tables) happens here, once."""
    if engine == "frazil":
        import frazil

        fn = load(n, "frazil")
        lf = fn(**tables.lazy_tables(frazil, tables_of(fn), scale, fmt))
        return lambda: lf.collect().to_polars()
    if engine == "frazil-sql":
        import frazil

        from bench.pdsh import datagen

        ctx = frazil.SQLContext(tables.lazy_tables(frazil, list(datagen.TABLES), scale, fmt))
        lf = ctx.execute(sql_text(n))
        return lambda: lf.collect().to_polars()
    if engine == "polars":
        import polars

        fn = load(n, "polars")
        lf = fn(**tables.lazy_tables(polars, tables_of(fn), scale, fmt))
        return lambda: lf.collect(engine="streaming")
    if engine == "duckdb":
        con = tables.duckdb_connect(scale, fmt, threads)
        text = sql_text(n)
        return lambda: con.sql(text).pl()
    if engine == "datafusion":
        import polars

        ctx = tables.datafusion_context(scale, fmt, threads)
        text = sql_text(n)
        return lambda: polars.from_arrow(ctx.sql(text).to_arrow_table())
    raise ValueError(f"unknown engine {engine!r}: expected one of {ENGINES}")

