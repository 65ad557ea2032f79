"""The frame methods of issue #19 (the `frames` part): as-of joins, reshaping, dynamic
windows, sampling, ... Each LazyFrame method here lives in its own module; the DataFrame
form is the LazyFrame method collected (frame arguments made lazy first), as Polars does.
"""
from __future__ import annotations

from typing import Any, Callable


def _lazy_arg(value: Any) -> Any:
    from frazil.dataframe import DataFrame

    return value.lazy() if isinstance(value, DataFrame) else value


def _collected(name: str, lazy_fn: Callable[..., Any]) -> Callable[..., Any]:
    def method(self: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        from frazil.dataframe import DataFrame

        if not isinstance(other, DataFrame):
            raise TypeError(f"expected `other` {name} table to be a 'DataFrame', not {type(other).__name__!r}")
        return lazy_fn(self.lazy(), other.lazy(), *args, **kwargs).collect()

    method.__name__ = name
    method.__doc__ = lazy_fn.__doc__
    return method


def install(lazy_cls: type, frame_cls: type) -> None:
    """Adds this part's methods to LazyFrame and DataFrame (a method a class defines wins)."""
    from frazil import dynamic, join_asof, merge_sorted, pivot

    from frazil import join_where

    two_frame = {"join_asof": join_asof.join_asof, "merge_sorted": merge_sorted.merge_sorted,
                 "join_where": join_where.join_where}
    for name, fn in two_frame.items():
        if name not in lazy_cls.__dict__:
            setattr(lazy_cls, name, fn)
        if name not in frame_cls.__dict__:
            setattr(frame_cls, name, _collected(name, fn))
    for name, fn in {"group_by_dynamic": dynamic.group_by_dynamic}.items():
        for cls in (lazy_cls, frame_cls):
            if name not in cls.__dict__:
                setattr(cls, name, fn)
    if "upsample" not in frame_cls.__dict__:
        frame_cls.upsample = dynamic.upsample
    for name, fn in {"pivot": pivot.pivot, "unstack": pivot.unstack}.items():
        if name not in frame_cls.__dict__:
            setattr(frame_cls, name, fn)
    if "pivot" not in lazy_cls.__dict__:
        lazy_cls.pivot = pivot.lazy_pivot
    from frazil import frame_misc
    from frazil.series import Series

    frame_misc.install(lazy_cls, frame_cls, Series)
    from frazil.dataframe import GroupBy
    from frazil.functions_frames import map_groups

    if "map_groups" not in GroupBy.__dict__:
        GroupBy.map_groups = map_groups
    from frazil import frame_serde

    for name, fn in {"serialize": frame_serde.serialize, "to_init_repr": frame_serde.to_init_repr}.items():
        if name not in frame_cls.__dict__:
            setattr(frame_cls, name, fn)
    if "deserialize" not in frame_cls.__dict__:
        frame_cls.deserialize = staticmethod(frame_serde.deserialize)
    if "to_init_repr" not in Series.__dict__:
        Series.to_init_repr = frame_serde.series_init_repr
    if "__reduce__" not in frame_cls.__dict__:
        frame_cls.__reduce__ = frame_serde.frame_reduce
    if "__reduce__" not in Series.__dict__:
        Series.__reduce__ = frame_serde.series_reduce
    from frazil import udf
    from frazil.expr import Expr

    udf.install(Expr)
    if "inspect" not in lazy_cls.__dict__:
        lazy_cls.inspect = udf.lazy_inspect
