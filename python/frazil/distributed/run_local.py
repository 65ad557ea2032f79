"""The in-process runner of a stage graph (no Ray): every stage's tasks run one after
another through ``_frazil.execute_fragment``; what moves between stages (and the in-memory
frames the tasks read) is Arrow IPC bytes, as on a cluster."""

from __future__ import annotations

from typing import Any

from frazil import _frazil
from frazil.distributed.stage_graph import plan_stages
from frazil.distributed.stage_loop import TaskInputs, concat_natives, frame_slice, run_stages, run_task


def run_local(lf: Any, partitions: int = 2, *, broadcast: bool = True, graph: dict | None = None) -> Any:
    """Runs ``lf`` as its stages with ``partitions`` partitions in this process; returns the
    DataFrame (rows in order when ``graph["ordered"]``, else in some order)."""
    from frazil.dataframe import DataFrame

    g = graph if graph is not None else plan_stages(lf, partitions, broadcast=broadcast)
    frames = g["frames"]

    def frame_input(frame: int, mode: str, task: int, tasks: int) -> bytes:
        native = frame_slice(frames[frame], task, tasks) if mode == "slice" else frames[frame]
        return _frazil.encode_partition(native)

    def submit(stage: dict, task: int, fragment: bytes, inputs: TaskInputs) -> list[bytes]:
        return run_task(fragment, inputs)

    final = run_stages(g, frame_input, submit)
    return DataFrame._from_native(concat_natives([_frazil.decode_partition(b) for b in final]))
