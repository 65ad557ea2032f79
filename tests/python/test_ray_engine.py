"""engine="ray" on a real local Ray cluster (ray_engine_check.py: the 22 PDS-H queries at
scale 1 against the answers, a killed task retried, a query that fails single-node under a
memory limit done in more tasks, a frazil error surfaced). Ray is in
requirements-dev.txt (and the optional extra frazil[ray]); the test is skipped without it.
The cluster runs in a loopback-only network namespace (`unshare -n`), so nothing listens
beyond this machine; skipped where that is not allowed."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


def test_pdsh_on_local_ray_cluster_equals_collect() -> None:
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (pip install -r requirements-ray.txt)")
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("unshare/ip not available for a loopback-only namespace")
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("cannot create a network namespace here")
    # The Ray workers import frazil (and bench) through the path they inherit.
    root = HERE.parents[1]
    path = os.pathsep.join(p for p in (str(root / "python"), str(root), os.environ.get("PYTHONPATH")) if p)
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE="disabled", PYTHONPATH=path)
    cmd = f"ip link set lo up && exec {sys.executable} {HERE / 'ray_engine_check.py'}"
    proc = subprocess.run(["unshare", "-n", "sh", "-c", cmd], capture_output=True, text=True, timeout=600, env=env)
    out = proc.stdout
    assert proc.returncode == 0, out + proc.stderr[-4000:]
    assert out.count(" ok") == 25, out  # 22 queries, capacity, the retried crash, the surfaced error
