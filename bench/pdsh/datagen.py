"""Generates the PDS-H tables once per scale and format, under data/pdsh/sf<SCALE>/.

tpchgen-cli writes Parquet with Decimal(15,2) money columns and Int32 small integers; the
PDS-H answers (and polars-benchmark, which reads dbgen's text files with type inference)
use Float64 money, Int64 integers and an Int64 l_quantity. The raw files are converted to
those types, so every engine reads the same values and the answers apply unchanged.

Usage: python -m bench.pdsh.datagen [--scale 1] [--format parquet|csv]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# FRAZIL_PDSH_DATA puts the tables elsewhere (a big scale on another disk, a private copy).
DATA_DIR = Path(os.environ["FRAZIL_PDSH_DATA"]) if os.environ.get("FRAZIL_PDSH_DATA") else ROOT / "data" / "pdsh"
TABLES = ("region", "nation", "supplier", "customer", "part", "partsupp", "orders", "lineitem")
FORMATS = ("parquet", "csv")
MARKER = ".complete"


def scale_name(scale: float) -> str:
    """'1' for 1 or 1.0, '0.1' for 0.1: the folder name part of a scale factor."""
    return f"{float(scale):g}"


def data_dir(scale: float, fmt: str = "parquet") -> Path:
    return DATA_DIR / f"sf{scale_name(scale)}" / fmt


def table_path(scale: float, fmt: str, table: str) -> Path:
    return data_dir(scale, fmt) / f"{table}.{fmt}"


def is_ready(scale: float, fmt: str = "parquet") -> bool:
    return (data_dir(scale, fmt) / MARKER).exists()


def _tpchgen() -> str:
    exe = Path(sys.executable).parent / "tpchgen-cli"
    if exe.exists():
        return str(exe)
    found = shutil.which("tpchgen-cli")
    if found is None:
        raise RuntimeError("tpchgen-cli is not installed: run `make setup` (it is in requirements-dev.txt)")
    return found


def _convert(raw: Path, out: Path) -> None:
    """Raw tpchgen Parquet -> Parquet with the PDS-H column types."""
    import polars as pl

    lf = pl.scan_parquet(raw)
    casts = []
    for name, dtype in lf.collect_schema().items():
        if name == "l_quantity":
            casts.append(pl.col(name).cast(pl.Int64))
        elif isinstance(dtype, pl.Decimal):
            casts.append(pl.col(name).cast(pl.Float64))
        elif dtype in (pl.Int32, pl.Int16, pl.Int8):
            casts.append(pl.col(name).cast(pl.Int64))
    tmp = out.with_suffix(".tmp")
    lf.with_columns(casts).sink_parquet(tmp)
    tmp.replace(out)


def _parquet_to_csv(src: Path, out: Path) -> None:
    import polars as pl

    tmp = out.with_suffix(".tmp")
    pl.scan_parquet(src).sink_csv(tmp)
    tmp.replace(out)


def generate(scale: float = 1, fmt: str = "parquet", *, quiet: bool = False) -> Path:
    """Makes sure the tables of one scale and format exist; returns their folder."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}: expected one of {FORMATS}")
    target = data_dir(scale, fmt)
    if is_ready(scale, fmt):
        return target
    say = (lambda *a: None) if quiet else (lambda *a: print(*a, flush=True))
    if fmt == "csv":
        # CSV is written from the typed Parquet tables, so both formats hold the same values.
        src = generate(scale, "parquet", quiet=quiet)
        target.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        for table in TABLES:
            say(f"pdsh: writing {table}.csv (scale {scale_name(scale)})")
            _parquet_to_csv(src / f"{table}.parquet", target / f"{table}.csv")
        (target / MARKER).write_text(f"{time.perf_counter() - t0:.1f}s\n")
        return target

    raw = target.parent / "raw"
    if raw.exists():
        shutil.rmtree(raw)
    raw.mkdir(parents=True)
    target.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    say(f"pdsh: generating TPC-H tables at scale {scale_name(scale)} with tpchgen-cli ...")
    subprocess.run([_tpchgen(), "parquet", "-s", scale_name(scale), "-o", str(raw), "--overwrite"],
                   check=True, stdout=subprocess.DEVNULL)
    for table in TABLES:
        say(f"pdsh: converting {table}.parquet to the PDS-H types")
        _convert(raw / f"{table}.parquet", target / f"{table}.parquet")
    shutil.rmtree(raw)
    secs = time.perf_counter() - t0
    (target / MARKER).write_text(f"{secs:.1f}s\n")
    say(f"pdsh: data ready in {target} ({secs:.1f} s)")
    return target


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--format", choices=FORMATS, default="parquet")
    args = ap.parse_args(argv)
    generate(args.scale, args.format)


if __name__ == "__main__":
    main()
