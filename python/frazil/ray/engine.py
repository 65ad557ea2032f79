"""RayEngine: where and how the stages of a distributed plan run on Ray."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

_REMOTE = None  # the Ray remote function, made once per process


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise ModuleNotFoundError(
            'engine="ray" needs Ray: pip install "frazil[ray]" (or the ray package pinned in requirements-ray.txt)'
        ) from e
    return ray


def _run_fragment(fragment: bytes, names: list, modes: list, shapes: list, threads: int, task: int, tasks: int,
                  *blobs: Any) -> Any:
    """One task: rebuilds its inputs from the upstream partitions (Arrow IPC bytes) or the
    frame it was given, runs the fragment, returns its partitions as bytes."""
    if threads:
        os.environ.setdefault("FRAZIL_MAX_THREADS", str(threads))
    from frazil import _frazil
    from frazil.distributed.run_local import _concat

    inputs = {}
    at = 0
    for name, mode, count in zip(names, modes, shapes):
        part = blobs[at:at + count]
        at += count
        if mode == "frame":
            inputs[name] = _frazil.decode_partition(part[0])
        else:
            inputs[name] = _concat([_frazil.decode_partition(b) for b in part])
    out = [_frazil.encode_partition(p) for p in _frazil.execute_fragment(fragment, inputs)]
    return out[0] if len(out) == 1 else tuple(out)


@dataclass
class RayEngine:
    """``address``: a Ray cluster (None: RAY_ADDRESS or a local one started with
    ``num_cpus``); ``partitions``: the tasks of each partitioned stage; ``threads_per_task``:
    frazil's threads inside a task; ``broadcast``: allow broadcast joins."""

    address: str | None = None
    partitions: int = 2
    threads_per_task: int = 1
    broadcast: bool = True
    num_cpus: int | None = None
    max_task_retries: int = 3

    def _remote(self) -> Any:
        global _REMOTE
        ray = _import_ray()
        if not ray.is_initialized():
            kwargs: dict = {"include_dashboard": False, "log_to_driver": False}
            if self.address is not None:
                kwargs["address"] = self.address
            elif self.num_cpus is not None:
                kwargs["num_cpus"] = self.num_cpus
            ray.init(**kwargs)
        if _REMOTE is None:
            _REMOTE = ray.remote(_run_fragment)
        return _REMOTE

    def collect(self, lf: Any) -> Any:
        from frazil import _frazil
        from frazil.dataframe import DataFrame
        from frazil.distributed import plan_stages
        from frazil.distributed.run_local import _concat

        ray = _import_ray()
        remote = self._remote()
        graph = plan_stages(lf, self.partitions, broadcast=self.broadcast)
        # The in-memory frames go to the object store as IPC bytes owned by the driver, cut
        # into the slices the tasks read (a task gets only its own rows).
        from frazil.distributed.run_local import _slice

        puts: dict = {}

        def frame_ref(frame: int, mode: str, task: int, tasks: int) -> Any:
            key = (frame, task, tasks) if mode == "slice" else (frame,)
            if key not in puts:
                native = graph["frames"][frame]
                if mode == "slice":
                    native = _slice(native, task, tasks)
                puts[key] = ray.put(_frazil.encode_partition(native))
            return puts[key]
        refs: list[list[list[Any]]] = []  # [stage][task][partition]
        for stage in graph["stages"]:
            tasks = stage["tasks"]
            nparts = stage["partitions"] if stage["hash_keys"] else 1
            names = [i[0] for i in stage["inputs"]]
            per_task = []
            for t in range(tasks):
                modes, shapes, args = [], [], []
                for _name, up, frame, mode in stage["inputs"]:
                    if up < 0:
                        modes.append("frame")
                        shapes.append(1)
                        args.append(frame_ref(frame, mode, t, tasks))
                        continue
                    parts = refs[up]
                    if mode == "hash":
                        chosen = [p[t] for p in parts]
                    elif mode == "same task":
                        chosen = [parts[t][0]]
                    else:
                        chosen = [r for p in parts for r in p]
                    modes.append("concat")
                    shapes.append(len(chosen))
                    args.extend(chosen)
                out = remote.options(num_returns=nparts, num_cpus=self.threads_per_task,
                                     max_retries=self.max_task_retries, retry_exceptions=False).remote(
                    stage["fragment"], names, modes, shapes, self.threads_per_task, t, tasks, *args)
                per_task.append([out] if nparts == 1 else list(out))
            refs.append(per_task)
        blobs = ray.get([r for task_out in refs[-1] for r in task_out])
        return DataFrame._from_native(_concat([_frazil.decode_partition(b) for b in blobs]))


def collect_on_ray(lf: Any, engine: Any) -> Any:
    """LazyFrame.collect(engine="ray" | RayEngine(...))."""
    if isinstance(engine, str):
        engine = RayEngine()
    try:
        return engine.collect(lf)
    except Exception as e:  # a task's frazil error arrives wrapped by Ray: surface the frazil one
        cause = getattr(e, "cause", None)
        if cause is not None and type(cause).__module__.startswith("frazil"):
            raise cause from None
        raise
