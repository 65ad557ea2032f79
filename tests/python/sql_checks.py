"""Helpers for SQL tests that compare frazil's answers with DuckDB's."""
from __future__ import annotations

import pytest

import frazil as pl


def duckdb_rows(query: str, tables: dict[str, pl.LazyFrame]) -> list[tuple]:
    """The rows DuckDB gives for `query` over the frames (collected), as tuples."""
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    for name, lf in tables.items():
        con.register(name, lf.collect().to_arrow())
    return [tuple(r) for r in con.sql(query).fetchall()]


def rounded(rows: list[tuple], digits: int = 9) -> list[tuple]:
    """Floats rounded, for answers whose sums may add in another order."""
    return [tuple(round(x, digits) if isinstance(x, float) else x for x in row) for row in rows]
