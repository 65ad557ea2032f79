"""Query engines as objects (Polars' `pl.Engine`): `collect(engine=...)` takes a name or one of these.

`Engine` is the contract a backend answers for: `name`, `collect` and `execute`; every other
operation (batches, async, collect_all, the sinks) is a capability a backend may lack, so the
base class raises NotImplementedError naming the operation and the engine. frazil's own
executor is `_LocalEngine`: one executor that streams morsels through pipelines where the plan
allows and materializes where it must, so "in-memory", "streaming" and "auto" all select it
(the name is kept for display). `GPUEngine` exists for Polars programs; frazil has no GPU
backend, so collecting on it raises Polars' ImportError (no cudf_polars) unless Polars would
fall back to the CPU itself (background collection, eager internals).
"""
from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from typing import Any

_SUPPORTED = ("auto", "in-memory", "streaming", "gpu")


def _unsupported(engine: Any, operation: str) -> NotImplementedError:
    return NotImplementedError(f"`{operation}` is not supported by {type(engine).__name__}")


class Engine(ABC):
    """Base class of query execution engines (subclass it to plug in a backend)."""

    @property
    @abstractmethod
    def name(self) -> str:
        """Engine identifier."""

    @property
    def plan_engine(self) -> str:
        """The engine name used to render query plans."""
        return self.name

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    @abstractmethod
    def collect(self, lf: Any, *, optimizations: Any, background: bool = False,
                post_opt_callback: Any = None) -> Any:
        """Runs `lf`: a DataFrame (or an InProcessQuery with background=True)."""

    @abstractmethod
    def execute(self, lf: Any, *, optimizations: Any) -> Any:
        """Runs `lf` into a QueryResult (read it back with `.lazy()`)."""

    def collect_async(self, lf: Any, *, optimizations: Any, gevent: bool = False) -> Any:
        raise _unsupported(self, "collect_async")

    def collect_batches(self, lf: Any, *, optimizations: Any, maintain_order: bool = True,
                        chunk_size: int | None = None, lazy: bool = False) -> Any:
        raise _unsupported(self, "collect_batches")

    def collect_all(self, lfs: Any, *, optimizations: Any) -> list:
        raise _unsupported(self, "collect_all")

    def collect_all_async(self, lfs: Any, *, optimizations: Any, gevent: bool = False) -> Any:
        raise _unsupported(self, "collect_all_async")

    def sink_parquet(self, lf: Any, path: Any, **options: Any) -> Any:
        raise _unsupported(self, "sink_parquet")

    def sink_ipc(self, lf: Any, path: Any, **options: Any) -> Any:
        raise _unsupported(self, "sink_ipc")

    def sink_csv(self, lf: Any, path: Any, **options: Any) -> Any:
        raise _unsupported(self, "sink_csv")

    def sink_ndjson(self, lf: Any, path: Any, **options: Any) -> Any:
        raise _unsupported(self, "sink_ndjson")

    def sink_batches(self, lf: Any, function: Any, **options: Any) -> Any:
        raise _unsupported(self, "sink_batches")


class QueryResult:
    """What Engine.execute gives: the materialized result, read back as a LazyFrame."""

    def __init__(self, df: Any) -> None:
        self._df = df

    def lazy(self) -> Any:
        return self._df.lazy()

    def __repr__(self) -> str:
        return f"QueryResult({self._df.shape[0]} rows)"


class InProcessQuery:
    """A query collecting on a worker thread (collect(background=True))."""

    def __init__(self, run: Any) -> None:
        import concurrent.futures

        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
        self._future = self._executor.submit(run)
        self._executor.shutdown(wait=False)

    def fetch(self) -> Any:
        """The result if it is ready, else None."""
        return self._future.result() if self._future.done() else None

    def fetch_blocking(self) -> Any:
        """Waits for the result."""
        return self._future.result()

    def cancel(self) -> None:
        self._future.cancel()


class _LocalEngine(Engine):
    """frazil's executor, in this process (every local engine name selects it)."""

    _name = "auto"

    def __init__(self, *, monitoring: bool | None = None) -> None:
        self.monitoring = monitoring

    @property
    def name(self) -> str:
        return self._name

    def collect(self, lf: Any, *, optimizations: Any, background: bool = False,
                post_opt_callback: Any = None) -> Any:
        from frazil.io import LazySink

        if post_opt_callback is not None:
            raise NotImplementedError("collect(post_opt_callback=...) needs Polars' IR node visitor, "
                                      "which frazil does not have")
        if isinstance(lf, LazySink):
            return lf.collect()
        if background:
            return InProcessQuery(lambda: lf._collect_native(optimizations))
        return lf._collect_native(optimizations)

    def execute(self, lf: Any, *, optimizations: Any) -> QueryResult:
        return QueryResult(self.collect(lf, optimizations=optimizations))

    def collect_async(self, lf: Any, *, optimizations: Any, gevent: bool = False) -> Any:
        from frazil.frame_misc import collect_async

        return collect_async(lf, gevent=gevent, engine=self, optimizations=optimizations)

    def collect_batches(self, lf: Any, *, optimizations: Any, maintain_order: bool = True,
                        chunk_size: int | None = None, lazy: bool = False) -> Any:
        from frazil.frame_misc import collect_batches

        return collect_batches(lf, chunk_size=chunk_size, maintain_order=maintain_order, lazy=lazy,
                               engine=self, optimizations=optimizations)

    def collect_all(self, lfs: Any, *, optimizations: Any) -> list:
        return [self.collect(lf, optimizations=optimizations) for lf in lfs]

    def collect_all_async(self, lfs: Any, *, optimizations: Any, gevent: bool = False) -> Any:
        import asyncio

        from frazil.frame_misc import _Awaitable

        query = InProcessQuery(lambda: self.collect_all(list(lfs), optimizations=optimizations))
        return query._future if gevent else _Awaitable(query._future, asyncio)

    def _sink(self, lf: Any, fmt: str, target: Any, options: dict) -> None:
        # A sink is the collect of a sink plan, as in Polars: an engine that overrides
        # collect sees it.
        from frazil.io import sink

        optimizations = options.pop("optimizations", None)
        self.collect(sink(lf, fmt, target, dict(options, lazy=True)), optimizations=optimizations)

    def sink_parquet(self, lf: Any, path: Any, **options: Any) -> Any:
        return self._sink(lf, "parquet", path, options)

    def sink_ipc(self, lf: Any, path: Any, **options: Any) -> Any:
        return self._sink(lf, "ipc", path, options)

    def sink_csv(self, lf: Any, path: Any, **options: Any) -> Any:
        return self._sink(lf, "csv", path, options)

    def sink_ndjson(self, lf: Any, path: Any, **options: Any) -> Any:
        return self._sink(lf, "ndjson", path, options)

    def sink_batches(self, lf: Any, function: Any, **options: Any) -> Any:
        from frazil.frame_misc import sink_batches

        return sink_batches(lf, function, **dict(options, engine=self))


class _AutoEngine(_LocalEngine):
    _name = "auto"


class InMemoryEngine(_LocalEngine):
    """Polars' in-memory engine (frazil's one executor)."""

    _name = "in-memory"


class StreamingEngine(_LocalEngine):
    """Polars' streaming engine (frazil's one executor)."""

    _name = "streaming"


class GPUEngine(_LocalEngine):
    """Polars' GPU engine. frazil has no GPU backend: collecting raises Polars' ImportError
    for a missing cudf_polars, except where Polars falls back to the CPU without it."""

    _name = "gpu"

    def __init__(self, *, device: int | None = None, memory_resource: Any = None, raise_on_fail: bool = False,
                 monitoring: bool = False, **kwargs: Any) -> None:
        if monitoring:
            raise NotImplementedError("query monitoring is not supported by the GPU engine")
        super().__init__(monitoring=False)
        self.device = device
        self.memory_resource = memory_resource
        kwargs["raise_on_fail"] = raise_on_fail
        self.config = kwargs

    def collect(self, lf: Any, *, optimizations: Any, background: bool = False,
                post_opt_callback: Any = None) -> Any:
        if background:
            warnings.warn("GPU engine does not support background collection, disabling GPU engine.",
                          UserWarning, stacklevel=3)
        elif not getattr(optimizations, "_eager_mode", False) and post_opt_callback is None:
            raise ImportError("GPU engine requested, but required package 'cudf_polars' could not be imported "
                              "(frazil has no GPU backend)")
        return super().collect(lf, optimizations=optimizations, background=background,
                               post_opt_callback=post_opt_callback)


_BY_NAME = {"auto": _AutoEngine(), "in-memory": InMemoryEngine(), "cpu": None, "streaming": StreamingEngine()}
_BY_NAME["cpu"] = _BY_NAME["in-memory"]  # Polars' legacy alias


def select_engine(engine: Any) -> Engine:
    """An engine argument (a name or an Engine) as an Engine; "auto" follows
    Config.set_engine_affinity (an object, or a name through POLARS_ENGINE_AFFINITY)."""
    import os

    if isinstance(engine, Engine):
        return engine
    if engine is None:
        engine = "auto"
    if engine == "auto":
        from frazil.config import engine_affinity_object

        override = engine_affinity_object()
        if override is not None:
            return override
        engine = os.environ.get("POLARS_ENGINE_AFFINITY") or "auto"
    if engine == "gpu":
        return GPUEngine()
    selected = _BY_NAME.get(engine) if isinstance(engine, str) else None
    if selected is None:
        raise ValueError(f"Invalid engine argument engine={engine!r}")
    return selected


def is_distributed(engine: Any) -> bool:
    """Whether `engine` names frazil's distributed engine (frazil.ray, issue #24), which
    collect and explain handle themselves; other operations run it on the local executor."""
    return (isinstance(engine, str) and engine in ("ray", "distributed")) or type(engine).__name__ == "RayEngine"


def foreign_engine(engine: Any) -> Engine | None:
    """The selected engine when it is not frazil's own executor (the operation is then
    delegated to it), else None."""
    if is_distributed(engine):
        return None
    selected = select_engine(engine)
    return None if isinstance(selected, _LocalEngine) else selected
