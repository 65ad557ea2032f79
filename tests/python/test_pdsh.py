"""PDS-H validation: the 22 queries of bench/pdsh/queries, run in frazil over scale-1 Parquet
files, must equal the reference answers (polars-benchmark's check: assert_frame_equal with
check_dtypes=False and the default tolerances; names, values and row order all count).

The scale-1 tables are generated once under data/pdsh/ (about half a minute) when missing.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import frazil  # noqa: E402
from bench.pdsh import datagen, tables, validate  # noqa: E402
from bench.pdsh.queries import QUERY_NUMBERS, load, tables_of  # noqa: E402

# Queries that frazil cannot answer correctly yet, with the precise reason; they run as
# strict xfails so that a fix turns them into a failure until this list is updated.
KNOWN_FAILURES: dict[int, str] = {}


@pytest.fixture(scope="module")
def scale1_parquet() -> Path:
    if validate.answers_dir() is None:
        pytest.skip("PDS-H answers not found (shared/pdsh/answers beside the work tree, or $PDSH_ANSWERS)")
    return datagen.generate(1, "parquet", quiet=True)


def _param(n: int):
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_FAILURES[n])] if n in KNOWN_FAILURES else []
    return pytest.param(n, id=f"q{n}", marks=marks)


@pytest.mark.parametrize("n", [_param(n) for n in QUERY_NUMBERS])
def test_pdsh_query_matches_answer(scale1_parquet: Path, n: int) -> None:
    fn = load(n, "frazil")
    lf = fn(**tables.lazy_tables(frazil, tables_of(fn), 1, "parquet"))
    result = lf.collect().to_polars()
    diff = validate.mismatch(result, validate.answer(n))
    assert diff is None, f"q{n}: {diff}"


@pytest.mark.parametrize("n", QUERY_NUMBERS, ids=[f"q{n}" for n in QUERY_NUMBERS])
def test_pdsh_query_text_runs_in_polars_unchanged(scale1_parquet: Path, n: int) -> None:
    # The same module text, with only `import frazil as pl` swapped, builds a Polars query
    # over the same tables whose schema names the answer's columns (nothing is executed).
    import polars

    fn = load(n, "polars")
    lf = fn(**tables.lazy_tables(polars, tables_of(fn), 1, "parquet"))
    assert lf.collect_schema().names() == validate.answer(n).columns


def test_query_modules_read_tables_by_parameter_name() -> None:
    for n in QUERY_NUMBERS:
        names = tables_of(load(n, "frazil"))
        assert names and set(names) <= set(datagen.TABLES), (n, names)


def test_cli_runs_pdsh_queries_in_the_cpp_api(scale1_parquet: Path) -> None:
    # `frazil pdsh` runs the C++ versions of the queries (cli/pdsh_queries.cpp) and checks
    # them against the answers; a few cheap queries cover semi/anti/left/cross joins,
    # when/then, is_in, dt.year, str.contains/slice and n_unique.
    import subprocess

    exe = ROOT / "build" / "frazil"
    if not exe.exists():
        pytest.skip("build/frazil is not built")
    proc = subprocess.run([str(exe), "pdsh", "--data", str(scale1_parquet), "--query", "4,8,12,13,16,22",
                           "--quiet", "--answers", str(validate.answers_dir())],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "6/6 queries matched their answers" in proc.stdout


def test_runner_table_shows_failures_and_averages_common_queries() -> None:
    from bench.pdsh.run import Outcome, build_table, render_text

    outcomes = {
        ("frazil", 1): Outcome("ok", seconds=2.0, rows=4),
        ("duckdb", 1): Outcome("ok", seconds=1.0, rows=4),
        ("frazil", 2): Outcome("WRONG", rows=100, detail="values differ"),
        ("duckdb", 2): Outcome("ok", seconds=0.5, rows=100),
        ("frazil", 3): Outcome("ok", seconds=0.5, rows=10),
        ("duckdb", 3): Outcome("FAILED", detail="boom"),
    }
    header, rows, summary = build_table([1, 2, 3], ["frazil", "duckdb"], outcomes)
    assert header == ["query", "rows", "frazil", "duckdb", "frazil / best peer"]
    assert rows[0] == ["q1", "4", "2.000", "1.000", "2.00x"]
    assert rows[1] == ["q2", "100", "WRONG", "0.500", "WRONG"]
    assert rows[2] == ["q3", "10", "0.500", "FAILED", "-"]
    assert rows[3][0] == "geomean (1 q)" and summary["common"] == [1]
    assert "WRONG" in render_text(header, rows)


def test_runner_reports_a_failing_worker(tmp_path: Path) -> None:
    import argparse

    from bench.pdsh.run import run_one

    args = argparse.Namespace(scale=1, format="parquet", reps=1, threads=1, timeout=60)
    out = run_one("no-such-engine", 1, args, tmp_path / "q1.parquet")
    assert out.status == "FAILED" and "unknown engine" in out.detail


def test_runner_knows_every_engine() -> None:
    # `make run`'s default engine list includes frazil-sql, which the runner's module table
    # lacked: the main job died with KeyError before running a query.
    from bench.pdsh.engines import ENGINES
    from bench.pdsh.run import LABEL, MODULE_OF

    assert set(MODULE_OF) == set(ENGINES) and set(LABEL) == set(ENGINES)
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    default = next(line.split("?=", 1)[1].strip() for line in makefile.splitlines() if line.startswith("ENGINES"))
    assert set(default.split(",")) <= set(ENGINES), default
