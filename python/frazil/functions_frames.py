"""Top-level functions of issue #19 (the `frames` part): repeat/ones/zeros, row_index,
union, align_frames, collect_all_async, explain_all, set_random_seed, show_versions,
build_info, and GroupBy.map_groups."""
from __future__ import annotations

from typing import Any, Callable, Iterable


def repeat(value: Any, n: Any, *, dtype: Any = None, eager: bool = False) -> Any:
    """`value` repeated `n` times (an expression, or a Series when eager)."""
    from frazil.expr import Expr
    from frazil.functions import lit

    base = value if isinstance(value, Expr) else lit(value, dtype=dtype)
    if dtype is not None and isinstance(value, Expr):
        base = base.cast(dtype)
    count = n if isinstance(n, Expr) else lit(n)
    out = base.repeat_by(count).explode()
    if eager:
        from frazil.functions import select

        return select(out).to_series()
    return out


def _filled(value: float, name: str, n: Any, dtype: Any, eager: bool) -> Any:
    from frazil.datatypes import Float64

    dtype = dtype or Float64
    out = repeat(value, n, dtype=dtype)
    out = out.cast(dtype).alias(name)
    if eager:
        from frazil.functions import select

        return select(out).to_series()
    return out


def ones(n: Any, dtype: Any = None, *, eager: bool = False) -> Any:
    """`n` ones (Float64 unless dtype)."""
    return _filled(1, "ones", n, dtype, eager)


def zeros(n: Any, dtype: Any = None, *, eager: bool = False) -> Any:
    """`n` zeros (Float64 unless dtype)."""
    return _filled(0, "zeros", n, dtype, eager)


def row_index(name: str = "index") -> Any:
    """The row number (UInt32 from 0), as an expression."""
    from frazil.datatypes import UInt32
    from frazil.functions import int_range, len as count_rows

    return int_range(0, count_rows(), dtype=UInt32).alias(name)


def union(items: Iterable[Any], *, how: str = "vertical", strict: bool = False) -> Any:
    """The frames concatenated without a promised row order (Polars' union)."""
    from frazil.functions import concat

    return concat(list(items), how=how)


def align_frames(*frames: Any, on: Any, how: str = "full", select: Any = None, descending: Any = False) -> list:
    """The frames joined on the union of their `on` values, each keeping its own columns,
    rows in the same (sorted) key order."""
    from frazil.dataframe import DataFrame
    from frazil.functions import col, concat

    if not frames:
        return []
    if len(frames) == 1 and isinstance(frames[0], (list, tuple)):
        frames = tuple(frames[0])
    keys = [on] if isinstance(on, str) else list(on)
    eager = isinstance(frames[0], DataFrame)
    lazies = [f.lazy() if eager else f for f in frames]
    all_keys = concat([f.select(keys) for f in lazies]).unique(maintain_order=True) if how == "full" else None
    if how != "full":
        all_keys = lazies[0].select(keys)
        for f in lazies[1:]:
            all_keys = all_keys.join(f.select(keys), on=keys, how="inner" if how == "inner" else "left")
        all_keys = all_keys.unique(maintain_order=True)
    all_keys = all_keys.sort(keys, descending=descending)
    out = []
    for f in lazies:
        aligned = all_keys.join(f, on=keys, how="left", coalesce=True)
        if select is not None:
            aligned = aligned.select([col(c) if isinstance(c, str) else c for c in
                                      ([select] if isinstance(select, str) else select)])
        out.append(aligned.collect() if eager else aligned)
    return out


def collect_all_async(lazy_frames: Iterable[Any], *, gevent: bool = False, **kwargs: Any) -> Any:
    """An awaitable of every frame collected (on a worker thread)."""
    import asyncio
    import concurrent.futures

    import frazil
    from frazil.frame_misc import _Awaitable

    frames = list(lazy_frames)
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = executor.submit(frazil.collect_all, frames)
    executor.shutdown(wait=False)
    return future if gevent else _Awaitable(future, asyncio)


def explain_all(lazy_frames: Iterable[Any], **kwargs: Any) -> str:
    """The plans of several queries, one after another."""
    return "\n\n".join(lf.explain(**kwargs) for lf in lazy_frames)


def show_versions() -> None:
    """Prints frazil's version and the Python it runs in."""
    import platform
    import sys

    import frazil

    print("--------Version info---------")
    print(f"frazil:               {frazil.__version__}")
    print(f"Platform:             {platform.platform()}")
    print(f"Python:               {sys.version}")


def build_info() -> dict:
    """What frazil was built as (its version)."""
    import frazil

    return {"version": frazil.__version__}


def map_groups(self: Any, function: Callable[[Any], Any]) -> Any:
    """GroupBy.map_groups: a Python function over each group's frame, the results
    concatenated (groups in order of first appearance). Runs group by group in Python."""
    from frazil.functions import concat

    parts = [function(frame) for _, frame in self]
    if not parts:
        return self._df.clear()
    return concat(parts, how="vertical")
