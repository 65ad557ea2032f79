"""The walk over a stage graph that every runner shares (run_local in process, the Ray
engine): for each task of each stage, in order, which upstream partitions or which frame
each of its inputs reads, and the body of one task. A runner only says what a partition
handle is (Arrow IPC bytes in process, an ObjectRef of them on Ray) and how a task runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from frazil import _frazil

# (input name, the handles whose partitions, concatenated in order, are that input)
TaskInputs = list[tuple[str, list[Any]]]


def concat_natives(natives: list) -> Any:
    if len(natives) == 1:
        return natives[0]
    from frazil.dataframe import DataFrame
    from frazil.functions import concat

    return concat([DataFrame._from_native(n) for n in natives], how="vertical", rechunk=False)._df


def frame_slice(native: Any, task: int, tasks: int) -> Any:
    """Task ``task``'s share of an in-memory frame read in "slice" mode: the task-th of
    ``tasks`` contiguous slices (as the C++ run_local cuts it)."""
    from frazil.dataframe import DataFrame

    df = DataFrame._from_native(native)
    h = df.height
    lo, hi = h * task // tasks, h * (task + 1) // tasks
    return df.slice(lo, hi - lo)._df


def run_task(fragment: bytes, inputs: Sequence[tuple[str, Sequence[bytes]]]) -> list[bytes]:
    """One task: decodes each input's partitions (concatenated in order), runs the fragment,
    returns its output partitions as Arrow IPC bytes."""
    from frazil.plan_serde import _install_codec

    _install_codec()  # the fragment's Python functions, if any, arrive as pickles
    frames = {name: concat_natives([_frazil.decode_partition(b) for b in blobs]) for name, blobs in inputs}
    return [_frazil.encode_partition(p) for p in _frazil.execute_fragment(fragment, frames)]


def run_stages(graph: dict, frame_input: Callable[[int, str, int, int], Any],
               submit: Callable[[dict, int, bytes, TaskInputs], Sequence[Any]]) -> list[Any]:
    """Walks ``graph`` (plan_stages' dict) stage by stage, upstream first.

    ``frame_input(frame, mode, task, tasks)`` gives the handle of in-memory frame ``frame``
    as task ``task`` of ``tasks`` reads it (mode "slice": its share, else all of it).
    ``submit(stage, task, fragment, inputs)`` runs (or schedules) one task and returns the
    handles of its output partitions. Returns the root stage's output handles, in task then
    partition order.
    """
    outputs: list[list[list[Any]]] = []  # [stage][task][partition]
    for stage in graph["stages"]:
        tasks, fragments = stage["tasks"], stage["fragments"]
        per_task = []
        for t in range(tasks):
            inputs: TaskInputs = []
            for name, up, frame, mode in stage["inputs"]:
                if up < 0:
                    inputs.append((name, [frame_input(frame, mode, t, tasks)]))
                    continue
                parts = outputs[up]
                if mode == "hash":  # partition t of every upstream task
                    chosen = [p[t] for p in parts]
                elif mode == "same task":  # upstream task t's whole output
                    chosen = [parts[t][0]]
                else:  # "all": everything, in task order (a gather or a broadcast)
                    chosen = [h for p in parts for h in p]
                inputs.append((name, chosen))
            fragment = fragments[t] if len(fragments) > 1 else fragments[0]
            per_task.append(list(submit(stage, t, fragment, inputs)))
        outputs.append(per_task)
    return [h for task_out in outputs[-1] for h in task_out]
