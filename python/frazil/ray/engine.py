"""RayEngine: where and how the stages of a distributed plan run on Ray."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

# Test hook: "<stage>:<task>:<marker file>" makes that task's worker process die (os._exit)
# on its first attempt, which it records by creating the marker; Ray must retry the task.
CRASH_ONCE_ENV = "FRAZIL_TEST_CRASH_ONCE"

_REMOTE: dict = {}  # the Ray remote functions, made once per process


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as e:
        raise ModuleNotFoundError(
            'engine="ray" needs Ray: pip install "frazil[ray]" (or the ray package pinned in requirements-ray.txt)'
        ) from e
    return ray


def _crash_once(stage: int, task: int) -> None:
    spec = os.environ.get(CRASH_ONCE_ENV)
    if not spec:
        return
    want_stage, want_task, marker = spec.split(":", 2)
    if (want_stage, want_task) == (str(stage), str(task)) and not os.path.exists(marker):
        with open(marker, "w") as f:
            f.write(f"stage {stage} task {task} crashed in pid {os.getpid()}\n")
        os._exit(1)


def _is_frazil_error(e: BaseException) -> bool:
    # frazil's own exception types, and MemoryError (FRAZIL_MEMORY_LIMIT), which it raises too
    return type(e).__module__.startswith("frazil") or type(e) is MemoryError


def _run_fragment(fragment: bytes, stage: int, task: int, tasks: int, threads: int, memory_limit: Any,
                  names: list, counts: list, *blobs: Any) -> Any:
    """One Ray task: input i is ``names[i]``, made of the next ``counts[i]`` blobs (Arrow IPC
    partitions, which Ray resolved from their refs). Returns the output partitions; a frazil
    error comes back as its own type, naming the stage and task."""
    if threads:  # read when frazil's pool starts, i.e. on the worker's first fragment; the
        # engine's setting wins over what the worker inherited
        os.environ["FRAZIL_MAX_THREADS"] = str(threads)
    _crash_once(stage, task)
    from frazil.distributed.stage_loop import run_task

    inputs, at = [], 0
    for name, count in zip(names, counts):
        inputs.append((name, blobs[at:at + count]))
        at += count
    from frazil.config import Config

    before = Config.memory_limit()
    if memory_limit is not None:  # for this task only: the worker process runs others after it
        Config.set_memory_limit(memory_limit)
    try:
        out = run_task(fragment, inputs)
    except Exception as e:
        if _is_frazil_error(e):
            raise type(e)(f"stage {stage}, task {task + 1} of {tasks}: {e}") from None
        raise
    finally:
        Config.set_memory_limit(before)
    return out[0] if len(out) == 1 else tuple(out)


def _warm() -> int:
    import frazil  # noqa: F401 - the import is the point: a worker's first task pays it

    return os.getpid()


@dataclass
class RayEngine:
    """``address``: a Ray cluster (None: RAY_ADDRESS, or a local one started with
    ``num_cpus`` and ``object_store_memory`` bytes); ``partitions``: the tasks of each
    partitioned stage (None: the cluster's CPUs / ``threads_per_task``);
    ``threads_per_task``: frazil's threads inside a task (and the CPUs it reserves);
    ``broadcast``: allow broadcast joins; ``memory_limit``: frazil's memory limit in each
    task (bytes or "512M"; None: the worker's own, FRAZIL_MEMORY_LIMIT), so that a partition
    too big raises MemoryError rather than the worker being killed; ``max_task_retries``:
    retries of a task whose worker died (a frazil error is never retried: it would fail
    again)."""

    address: str | None = None
    partitions: int | None = None
    threads_per_task: int = 1
    broadcast: bool = True
    num_cpus: int | None = None
    object_store_memory: int | None = None
    memory_limit: int | str | None = None
    max_task_retries: int = 3

    def _remote(self) -> Any:
        ray = _import_ray()
        if not ray.is_initialized():
            kwargs: dict = {"include_dashboard": False, "log_to_driver": False}
            if self.address is not None:
                kwargs["address"] = self.address
            else:
                if self.num_cpus is not None:
                    kwargs["num_cpus"] = self.num_cpus
                if self.object_store_memory is not None:
                    kwargs["object_store_memory"] = self.object_store_memory
            ray.init(**kwargs)
        if not _REMOTE:
            _REMOTE["run"] = ray.remote(_run_fragment)
            _REMOTE["warm"] = ray.remote(_warm)
            # One task per CPU imports frazil in the workers before the first query's tasks.
            ray.get([_REMOTE["warm"].options(num_cpus=1).remote() for _ in range(self._cpus(ray))])
        return _REMOTE["run"]

    def _cpus(self, ray: Any) -> int:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))

    def plan(self, lf: Any) -> dict:
        """The stage graph this engine runs for ``lf``."""
        from frazil.distributed import plan_stages

        ray = _import_ray()
        self._remote()
        partitions = self.partitions or max(1, self._cpus(ray) // max(1, self.threads_per_task))
        return plan_stages(lf, partitions, broadcast=self.broadcast)

    def collect(self, lf: Any) -> Any:
        from frazil import _frazil
        from frazil.dataframe import DataFrame
        from frazil.distributed.stage_loop import TaskInputs, concat_natives, frame_slice, run_stages

        ray = _import_ray()
        remote = self._remote()
        graph = self.plan(lf)
        # The in-memory frames go to the object store as IPC bytes owned by the driver, cut
        # into the slices the tasks read (a task gets only its own rows).
        puts: dict = {}

        def frame_input(frame: int, mode: str, task: int, tasks: int) -> Any:
            key = (frame, task, tasks) if mode == "slice" else (frame,)
            if key not in puts:
                native = graph["frames"][frame]
                if mode == "slice":
                    native = frame_slice(native, task, tasks)
                puts[key] = ray.put(_frazil.encode_partition(native))
            return puts[key]

        def submit(stage: dict, task: int, fragment: bytes, inputs: TaskInputs) -> list:
            nparts = stage["partitions"] if stage["hash_keys"] else 1
            names = [name for name, _ in inputs]
            counts = [len(refs) for _, refs in inputs]
            refs = [r for _, rs in inputs for r in rs]
            out = remote.options(num_returns=nparts, num_cpus=self.threads_per_task,
                                 max_retries=self.max_task_retries, retry_exceptions=False).remote(
                fragment, stage["id"], task, stage["tasks"], self.threads_per_task, self.memory_limit, names, counts,
                *refs)
            return [out] if nparts == 1 else list(out)

        blobs = ray.get(run_stages(graph, frame_input, submit))
        return DataFrame._from_native(concat_natives([_frazil.decode_partition(b) for b in blobs]))


def collect_on_ray(lf: Any, engine: Any) -> Any:
    """LazyFrame.collect(engine="ray" | RayEngine(...))."""
    if isinstance(engine, str):
        engine = RayEngine()
    try:
        return engine.collect(lf)
    except Exception as e:  # a task's frazil error arrives wrapped by Ray: surface the frazil one
        cause = getattr(e, "cause", None)
        if cause is not None and _is_frazil_error(cause):
            raise cause from None
        raise
