"""Run by test_ray_engine.py in a loopback-only network namespace. A local 2-CPU Ray cluster
runs the 22 PDS-H queries over the scale-1 Parquet files with engine="ray" (2 partitions,
so the big tables' scans are split by row groups): each must equal the PDS-H answer (or,
without the answers, single-node collect()). Meanwhile one task's worker process is killed
on its first attempt and Ray must retry it. Under a memory limit that single-node q18 cannot
meet (MemoryError), 8 tasks complete it. Then a frazil error in a task must surface as
frazil's exception, naming the stage, and not be retried.

Prints one "<what> ok" line per check; the pytest wrapper counts them."""
from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402
from polars.testing import assert_frame_equal  # noqa: E402

import frazil as pl  # noqa: E402
from bench.pdsh import datagen, tables, validate  # noqa: E402
from bench.pdsh.queries import QUERY_NUMBERS, load, tables_of  # noqa: E402
from frazil.ray import RayEngine  # noqa: E402
from frazil.ray.engine import CRASH_ONCE_ENV  # noqa: E402

SCALE = float(os.environ.get("FRAZIL_RAY_CHECK_SCALE", "1"))
CRASH_STAGE, CRASH_TASK = 1, 1  # q1's final stage reads the partial stage: a second task exists
CAPACITY_LIMIT = "64M"  # frazil's memory limit per process in the capacity check
CAPACITY_QUERY = 18  # a PDS-H query that needs more than that in one process


def exchanges(graph: dict) -> int:
    """How many stage inputs read another stage's output (hash, gather or broadcast)."""
    return sum(1 for s in graph["stages"] for i in s["inputs"] if i[1] >= 0)


def main() -> None:
    marker = Path(tempfile.mkdtemp(prefix="frazil-ray-check-")) / "crashed"
    os.environ[CRASH_ONCE_ENV] = f"{CRASH_STAGE}:{CRASH_TASK}:{marker}"  # before ray.init: workers inherit it
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False,
             object_store_memory=1024 * 1024 * 1024)
    try:
        datagen.generate(SCALE, "parquet", quiet=True)
        with_answers = SCALE == 1 and validate.answers_dir() is not None
        engine = RayEngine(partitions=2)
        for n in QUERY_NUMBERS:
            fn = load(n, "frazil")
            lf = fn(**tables.lazy_tables(pl, tables_of(fn), SCALE, "parquet"))
            graph = engine.plan(lf)
            split = sum(s["description"].count("parquet scan split into") for s in graph["stages"])
            assert split > 0 and exchanges(graph) > 0, f"q{n} is not partitioned:\n{lf.explain(engine=engine)}"
            t0 = time.perf_counter()
            got = lf.collect(engine=engine).to_polars()
            secs = time.perf_counter() - t0
            if with_answers:
                diff = validate.mismatch(got, validate.answer(n))
                assert diff is None, f"q{n}: {diff}"
            else:
                assert_frame_equal(got, lf.collect().to_polars(), check_row_order=graph["ordered"], rel_tol=1e-5)
            tasks = sum(s["tasks"] for s in graph["stages"])
            print(f"q{n} ok ({secs:.2f} s, {len(graph['stages'])} stages, {tasks} tasks, {split} split scans)",
                  flush=True)
        # Capacity: under the memory limit q18 raises MemoryError in one process (checked
        # below; q9, used before, now completes there through the grace join), while 8 tasks
        # of 1/8 of the data each complete it.
        fn = load(CAPACITY_QUERY, "frazil")
        lf = fn(**tables.lazy_tables(pl, tables_of(fn), SCALE, "parquet"))
        before = pl.Config.memory_limit()
        pl.Config.set_memory_limit(CAPACITY_LIMIT)
        try:
            lf.collect()
        except MemoryError:
            pass
        else:
            raise AssertionError(
                f"q{CAPACITY_QUERY} ran single-node within {CAPACITY_LIMIT}: the capacity check proves nothing")
        finally:
            pl.Config.set_memory_limit(before)
        got = lf.collect(engine=RayEngine(partitions=8, memory_limit=CAPACITY_LIMIT)).to_polars()
        if with_answers:
            assert validate.mismatch(got, validate.answer(CAPACITY_QUERY)) is None
        else:
            assert_frame_equal(got, lf.collect().to_polars(), check_row_order=False, rel_tol=1e-5)
        print(f"capacity ok (q{CAPACITY_QUERY} under a {CAPACITY_LIMIT} limit: MemoryError single-node, done in 8 tasks)",
              flush=True)
        # The killed worker's task ran again (the marker says it died once) and q1 was right.
        assert marker.exists(), "the crash hook never fired: no task was killed"
        print(f"crashed task retried ok ({marker.read_text().strip()})", flush=True)
        bad = pl.LazyFrame({"s": ["1", "x"] * 10}).select(pl.col("s").cast(pl.Int64).sum())
        try:
            bad.collect(engine=engine)
        except pl.exceptions.InvalidOperationError as e:
            assert "stage 0, task" in str(e), str(e)
            print("error surfaced ok", flush=True)
        else:
            raise AssertionError("the cast error did not surface")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
