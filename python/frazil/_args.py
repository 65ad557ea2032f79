"""Integer arguments checked as Polars checks them: a number that does not fit the
argument's type raises OverflowError (ValueError for a negative length) before anything
runs, instead of the bindings' TypeError or a silently wrapped value."""
from __future__ import annotations

INT64 = (-(2**63), 2**63 - 1)
UINT32 = (0, 2**32 - 1)
UINT64 = (0, 2**64 - 1)
UINT8 = (0, 2**8 - 1)


def int_in(value, bounds: tuple[int, int]) -> int:
    """`value` as an int inside `bounds`, or OverflowError with Polars' message."""
    lo, hi = bounds
    if value > hi:
        raise OverflowError("number too large to fit in target type")
    if value < lo:
        raise OverflowError("number too small to fit in target type")
    return value


def slice_window(height: int, offset: int, length: int) -> tuple[int, int]:
    """Polars' slice rule: [offset, offset + length) (a negative offset counts from the end)
    clipped to [0, height); clipping the start shortens the window. (start, length)."""
    begin = offset if offset >= 0 else height + offset
    end = begin + length
    start = min(max(begin, 0), height)
    stop = min(max(end, 0), height)
    return start, max(0, stop - start)
