"""The in-process runner of a stage graph (no Ray): every stage's tasks run one after
another through ``_frazil.execute_fragment``; what moves between stages is Arrow IPC bytes."""

from __future__ import annotations

from typing import Any

from frazil import _frazil


def _lazy_native(lf: Any) -> Any:
    from frazil.lazyframe import LazyFrame

    if not isinstance(lf, LazyFrame):
        raise TypeError(f"expected a LazyFrame, got {type(lf).__name__}")
    return lf._ldf


def _check_partitions(partitions: int) -> int:
    if not isinstance(partitions, int) or isinstance(partitions, bool) or partitions < 1:
        raise ValueError(f"partitions must be a positive int, got {partitions!r}")
    return partitions


def plan_stages(lf: Any, partitions: int = 2, *, broadcast: bool = True) -> dict:
    """The stage graph: {"stages": [...], "frames": [...], "ordered": bool} (see the C++
    stage_planner.hpp for the meaning of the input modes)."""
    return _frazil.plan_stages(_lazy_native(lf), _check_partitions(partitions), broadcast)


def explain_stages(lf: Any, partitions: int = 2, *, broadcast: bool = True) -> str:
    """The stage graph as text: one "=== Stage k (n tasks) -> output ===" block per stage."""
    return _frazil.explain_stages(_lazy_native(lf), _check_partitions(partitions), broadcast)


def _concat(natives: list) -> Any:
    if len(natives) == 1:
        return natives[0]
    from frazil.dataframe import DataFrame
    from frazil.functions import concat

    return concat([DataFrame._from_native(n) for n in natives], how="vertical", rechunk=False)._df


def _slice(native: Any, task: int, tasks: int) -> Any:
    from frazil.dataframe import DataFrame

    df = DataFrame._from_native(native)
    h = df.height
    lo, hi = h * task // tasks, h * (task + 1) // tasks
    return df.slice(lo, hi - lo)._df


def run_local(lf: Any, partitions: int = 2, *, broadcast: bool = True, graph: dict | None = None) -> Any:
    """Runs ``lf`` as its stages with ``partitions`` partitions in this process; returns the
    DataFrame (rows in order when ``graph["ordered"]``, else in some order)."""
    from frazil.dataframe import DataFrame

    g = graph if graph is not None else plan_stages(lf, partitions, broadcast=broadcast)
    frames = g["frames"]
    outputs: list[list[list[bytes]]] = []  # [stage][task][partition]
    for stage in g["stages"]:
        tasks = stage["tasks"]
        per_task = []
        for t in range(tasks):
            inputs = {}
            for name, up, frame, mode in stage["inputs"]:
                if up < 0:
                    inputs[name] = _slice(frames[frame], t, tasks) if mode == "slice" else frames[frame]
                    continue
                parts = outputs[up]
                if mode == "hash":
                    blobs = [task_out[t] for task_out in parts]
                elif mode == "same task":
                    blobs = [parts[t][0]]
                else:
                    blobs = [b for task_out in parts for b in task_out]
                inputs[name] = _concat([_frazil.decode_partition(b) for b in blobs])
            result = _frazil.execute_fragment(stage["fragment"], inputs)
            per_task.append([_frazil.encode_partition(p) for p in result])
        outputs.append(per_task)
    final = [_frazil.decode_partition(b) for task_out in outputs[-1] for b in task_out]
    return DataFrame._from_native(_concat(final))
