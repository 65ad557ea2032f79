"""Parquet row-group pruning on statistics (is_in, comparisons with literals of another
integer width or time unit, through the cast the comparison puts on the column) and hive
file pruning: results equal Polars 2.1's with pruning on and off, and POLARS_VERBOSE=1 tells
how many row groups / files were read in Polars' words."""
from __future__ import annotations

import datetime as dt

import polars
import pytest

import frazil as pl


def _frame(n: int = 100) -> pl.DataFrame:
    base = dt.datetime(2026, 1, 1)
    return pl.DataFrame({
        "i": list(range(n)),
        "i32": pl.Series(list(range(n)), dtype=pl.Int32),
        "t": pl.Series([base + dt.timedelta(microseconds=i) for i in range(n)]).cast(pl.Datetime("ns")),
        "d": pl.Series([dt.timedelta(milliseconds=i - 50) for i in range(n)]).cast(pl.Duration("ns")),
        "s": [f"k{i:03}" for i in range(n)],
    })


PREDICATES = [
    ("is_in outside", lambda m: m.col("i").is_in([150, 200, 300]), 0),
    ("is_in one group", lambda m: m.col("i").is_in([5, 250, 350]), 1),
    ("is_in two groups", lambda m: m.col("i").is_in([5, 95]), 2),
    ("is_in with a null", lambda m: m.col("i").is_in([None, 500]), 10),
    ("int32 vs int64 literal", lambda m: m.col("i32") > 2**40, 0),
    ("int32 range", lambda m: m.col("i32") >= 85, 2),
    ("datetime ns == us literal", lambda m: m.col("t") == m.lit(dt.datetime(2026, 1, 1, 0, 0, 0, 42)), 1),
    ("datetime ns < us literal", lambda m: m.col("t") < m.lit(dt.datetime(2026, 1, 1, 0, 0, 0, 20)), 2),
    ("duration ns > ms literal", lambda m: m.col("d") > m.lit(dt.timedelta(milliseconds=44)), 1),
    ("string is_in", lambda m: m.col("s").is_in(["k003", "zzz"]), 1),
]


@pytest.mark.parametrize(("name", "pred", "groups"), PREDICATES, ids=[p[0] for p in PREDICATES])
def test_row_group_pruning_matches_polars_and_reports_groups_read(tmp_path, capfd, monkeypatch, name, pred,
                                                                  groups) -> None:
    path = tmp_path / "f.parquet"
    _frame().write_parquet(path, row_group_size=10)
    want = polars.scan_parquet(path).filter(pred(polars)).collect()
    monkeypatch.setenv("POLARS_VERBOSE", "1")
    capfd.readouterr()
    got = pl.scan_parquet(path).filter(pred(pl)).collect()
    err = capfd.readouterr().err
    assert got.to_dict(as_series=False) == want.to_dict(as_series=False)
    assert f"[ParquetFileReader]: Predicate pushdown: reading {groups} / 10 row groups" in err, err
    # Without predicate pushdown nothing is pruned, and the rows are the same.
    off = pl.scan_parquet(path).filter(pred(pl)).collect(optimizations=pl.QueryOptFlags(predicate_pushdown=False))
    assert off.to_dict(as_series=False) == want.to_dict(as_series=False)


def test_no_message_without_verbose(tmp_path, capfd, monkeypatch) -> None:
    path = tmp_path / "f.parquet"
    _frame().write_parquet(path, row_group_size=10)
    monkeypatch.delenv("POLARS_VERBOSE", raising=False)
    capfd.readouterr()
    pl.scan_parquet(path).filter(pl.col("i") < 5).collect()
    assert "row groups" not in capfd.readouterr().err


def test_hive_pruning_reports_files_skipped(tmp_path, capfd, monkeypatch) -> None:
    df = pl.DataFrame({"x": list(range(10)), "a": [i % 5 for i in range(10)]})
    df.write_parquet(tmp_path, partition_by="a")
    monkeypatch.setenv("POLARS_VERBOSE", "1")
    for pred, skipped in ((pl.col("a").is_in([1, 4]), 3), (pl.col("a") > 10, 5), (pl.col("a") >= 0, 0)):
        capfd.readouterr()
        got = pl.scan_parquet(tmp_path).filter(pred).collect().sort("x")
        err = capfd.readouterr().err
        assert err.count(f"initialize_scan_predicate: Predicate pushdown allows skipping {skipped} / 5 files") == 1, err
        p = polars.col("a")
        ppred = {3: p.is_in([1, 4]), 5: p > 10, 0: p >= 0}[skipped]
        want = polars.scan_parquet(tmp_path).filter(ppred).collect().sort("x")
        assert got.to_dict(as_series=False) == want.to_dict(as_series=False)
