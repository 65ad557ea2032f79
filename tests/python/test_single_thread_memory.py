"""With one thread (FRAZIL_MAX_THREADS=1, as every distributed worker runs) a group-by over a
Parquet scan streams its row groups into partial states, as it does on more threads: it
used to gather the whole input first (PDS-H q1 at scale 10: 9.4 GB peak RSS on one thread
against 75 MB on two). The query runs in a child process so that its peak RSS is its own."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import frazil as pl

ROOT = Path(__file__).resolve().parents[2]
ROWS = 4_000_000  # three 8-byte columns: 96 MB of input

CHILD = r"""
import json, resource, sys
import frazil as pl
lf = pl.scan_parquet(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = lf.group_by("k").agg(pl.col("v").sum(), pl.col("w").mean(), pl.len()).sort("k").collect()
grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"grown_kib": grown, "rows": out.rows()}))
"""


@pytest.fixture(scope="module")
def many_row_groups(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("single_thread") / "input.parquet")
    df = pl.select(k=pl.int_range(ROWS) % 4, v=pl.int_range(ROWS).cast(pl.Float64), w=pl.int_range(ROWS) * 3)
    df.write_parquet(path, row_group_size=65_536)
    return path


def run_child(path: str, threads: int) -> dict:
    env = dict(os.environ, FRAZIL_MAX_THREADS=str(threads), PYTHONPATH=os.environ.get("PYTHONPATH", str(ROOT / "python")))
    env.pop("FRAZIL_VERIFY", None)  # the unoptimized verify run is another query
    proc = subprocess.run([sys.executable, "-c", CHILD, path], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("threads", [1, 2])
def test_group_by_over_a_scan_streams_on_any_thread_count(many_row_groups: str, threads: int) -> None:
    got = run_child(many_row_groups, threads)
    n = ROWS // 4
    expected = [[k, float(sum(range(k, ROWS, 4))), 3 * (k + (n - 1) * 2.0), n] for k in range(4)]
    assert got["rows"] == expected
    # Gathering the input first grows the peak by by about its 96 MB; streaming, by a few
    # row groups (1.5 MB each) and the reader's buffers.
    assert got["grown_kib"] < 24 * 1024, f"peak RSS grew by {got['grown_kib'] // 1024} MiB on {threads} thread(s)"
