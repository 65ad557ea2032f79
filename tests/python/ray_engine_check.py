"""Run by test_ray_engine.py in a loopback-only network namespace: a local 2-CPU Ray
cluster runs the 22 PDS-H queries (scale 0.01, in memory) with engine="ray" and they must
equal collect(); a frazil error in a task must surface as frazil's exception."""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402
from polars.testing import assert_frame_equal  # noqa: E402

import frazil as pl  # noqa: E402
from bench.pdsh import datagen  # noqa: E402
from bench.pdsh.queries import QUERY_NUMBERS, load, tables_of  # noqa: E402
from frazil.distributed import plan_stages  # noqa: E402
from frazil.ray import RayEngine  # noqa: E402


def main() -> None:
    ray.init(num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False,
             object_store_memory=256 * 1024 * 1024)
    try:
        datagen.generate(0.01, "parquet", quiet=True)
        tables = {t: pl.read_parquet(datagen.table_path(0.01, "parquet", t)) for t in datagen.TABLES}
        engine = RayEngine(partitions=2)
        for n in QUERY_NUMBERS:
            fn = load(n, "frazil")
            lf = fn(**{t: tables[t].lazy() for t in tables_of(fn)})
            got = lf.collect(engine=engine).to_polars()
            ordered = plan_stages(lf, 2)["ordered"]
            assert_frame_equal(got, lf.collect().to_polars(), check_row_order=ordered, rel_tol=1e-5)
            print(f"q{n} ok", flush=True)
        bad = pl.LazyFrame({"s": ["1", "x"] * 10}).select(pl.col("s").cast(pl.Int64).sum())
        try:
            bad.collect(engine="ray")
        except pl.exceptions.InvalidOperationError:
            print("error surfaced ok", flush=True)
        else:
            raise AssertionError("the cast error did not surface")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
