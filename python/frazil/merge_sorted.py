"""merge_sorted: two frames sorted by a key column, merged into one sorted frame.

Builds a MergeSorted plan node (`MERGE SORTED` in explain()); the engine merges both
inputs in one pass at collect() (exec/operators/merge_sorted.cpp), equal keys giving the
left rows first.
"""
from __future__ import annotations

from typing import Any, Iterable


def _keys(key: Any) -> list[str]:
    from frazil.exceptions import ComputeError

    keys = [key] if isinstance(key, str) else list(key)
    if not keys:
        raise ComputeError("merge_sorted needs at least one key")
    return keys


def merge_sorted(self: Any, other: Any, key: Any, *, maintain_order: bool = False) -> Any:
    """Merges this frame and `other`, both sorted ascending by `key` (nulls last), keeping
    the result sorted; equal keys give the left rows first. The schemas must be equal."""
    from frazil.exceptions import SchemaError
    from frazil.functions import concat
    from frazil.lazyframe import LazyFrame

    if not isinstance(other, LazyFrame):
        raise TypeError(f"expected `other` merge_sorted table to be a 'LazyFrame', not {type(other).__name__!r}")
    keys = _keys(key)
    if len(keys) == 1:
        return self._wrap(self._ldf.merge_sorted(other._ldf, keys[0], maintain_order))
    left_schema, right_schema = self.collect_schema(), other.collect_schema()
    if left_schema != right_schema:
        raise SchemaError(f"merge_sorted: the schemas of both frames must be equal, got {left_schema} "
                          f"and {right_schema}")
    for k in keys:
        if k not in left_schema:
            from frazil.exceptions import ColumnNotFoundError

            raise ColumnNotFoundError(f'unable to find column "{k}"; valid columns: {left_schema.names()}')
    return concat([self, other]).sort(keys, nulls_last=True, maintain_order=True)


def merge_sorted_frames(items: Iterable[Any], key: Any, *, maintain_order: bool = False) -> Any:
    """pl.merge_sorted: several sorted frames (all DataFrames or all LazyFrames) merged by `key`."""
    from frazil.dataframe import DataFrame
    from frazil.exceptions import ComputeError

    frames = list(items)
    if not frames:
        raise ComputeError("merge_sorted needs at least one frame")
    eager = isinstance(frames[0], DataFrame)
    out = frames[0].lazy() if eager else frames[0]
    for f in frames[1:]:
        out = merge_sorted(out, f.lazy() if eager else f, key, maintain_order=maintain_order)
    return out.collect() if eager else out
