"""The Ray engine (issue #24, phase 1): ``lf.collect(engine="ray")`` or
``lf.collect(engine=frazil.ray.RayEngine(...))`` runs the stage graph of
``frazil.distributed`` as Ray tasks. Ray is optional (``pip install frazil[ray]``); this
module is the only one that imports it, and only when an engine runs.

Each task runs one plan fragment (``_frazil.execute_fragment``) and returns its output
partitions as Arrow IPC bytes, as task returns (``num_returns`` = partitions), so that Ray's
lineage can rebuild a lost one; a downstream task takes the upstream refs it reads as
arguments. Application errors are not retried (a frazil error is deterministic); a worker
that dies is (``max_retries``).
"""

from __future__ import annotations

from frazil.ray.engine import RayEngine, collect_on_ray

__all__ = ["RayEngine", "collect_on_ray"]
