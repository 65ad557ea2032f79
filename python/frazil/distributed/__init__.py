"""Partitioned execution of a LazyFrame (issue #24, phase 1).

The C++ stage planner (src/frazil/distributed/) cuts the optimized plan at its exchanges
(hash by keys, broadcast, gather to one task) into stages of plan fragments. ``run_local``
runs those stages in this process with N partitions, passing every partition between
stages as Arrow IPC bytes, exactly as a cluster runner would: it is the test oracle for
the distributed plans. ``explain_stages`` prints the stage graph
(``LazyFrame.explain(engine="distributed" | "ray")``, also as ``format="json"``).
"""

from frazil.distributed.run_local import run_local
from frazil.distributed.stage_graph import explain_stages, plan_stages

__all__ = ["explain_stages", "plan_stages", "run_local"]
