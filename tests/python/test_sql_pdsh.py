"""The 22 PDS-H queries in SQL (bench/pdsh/sql, the text DuckDB and DataFusion run) through
frazil's SQL, against the scale-1 answers; and their plans join tables by keys, never by
a cross product."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import frazil  # noqa: E402
from bench.pdsh import datagen, tables, validate  # noqa: E402
from bench.pdsh.engines import sql_text  # noqa: E402
from bench.pdsh.queries import QUERY_NUMBERS  # noqa: E402


@pytest.fixture(scope="module")
def context() -> frazil.SQLContext:
    if validate.answers_dir() is None:
        pytest.skip("PDS-H answers not found (shared/pdsh/answers beside the work tree, or $PDSH_ANSWERS)")
    datagen.generate(1, "parquet", quiet=True)
    return frazil.SQLContext(tables.lazy_tables(frazil, list(datagen.TABLES), 1, "parquet"))


@pytest.mark.parametrize("n", QUERY_NUMBERS, ids=[f"q{n}" for n in QUERY_NUMBERS])
def test_pdsh_sql_matches_answer(context: frazil.SQLContext, n: int) -> None:
    lf = context.execute(sql_text(n))
    assert "CROSS JOIN" not in lf.explain() or n in (11, 15, 22)  # an uncorrelated scalar subquery: one row, "a FROM list joined without its keys"
    diff = validate.mismatch(lf.collect().to_polars(), validate.answer(n))
    assert diff is None, f"q{n}: {diff}"
