"""Process-wide settings: the memory limit and the thread count.

`Config.set_memory_limit("4G")` (or the environment variable FRAZIL_MEMORY_LIMIT, read at
import) caps the memory frazil's column buffers may take; a query that would need more
raises MemoryError naming the limit instead of growing until the system kills the
process. Spilling to disk is not implemented: a query over the limit fails.
"""
from __future__ import annotations


from frazil import _frazil


def _bytes(limit: int | str | None) -> int:
    if limit is None:
        return 0
    if isinstance(limit, bool) or not isinstance(limit, (int, str)):
        raise TypeError(f"memory limit must be a number of bytes or a text like '512M', not {type(limit).__name__}")
    if isinstance(limit, str):
        return _frazil.parse_memory_size(limit.strip())
    if limit < 0:
        raise ValueError("memory limit must not be negative")
    return limit


class Config:
    """Settings of this process (Polars' `pl.Config` holds display options; frazil's holds
    resource limits)."""

    @staticmethod
    def set_memory_limit(limit: int | str | None) -> None:
        """Bytes (int), or a text like "512M", "8G"; None or 0 removes the limit."""
        _frazil.set_memory_limit(_bytes(limit))

    @staticmethod
    def memory_limit() -> int:
        """The limit in bytes; 0 when there is none."""
        return _frazil.memory_limit()

    @staticmethod
    def memory_in_use() -> int:
        """Bytes of column buffers alive now."""
        return _frazil.memory_in_use()


def thread_pool_size() -> int:
    """Threads frazil computes with (FRAZIL_MAX_THREADS or POLARS_MAX_THREADS, else the cores)."""
    return _frazil.thread_pool_size()


def _apply_environment() -> None:
    # A malformed FRAZIL_* (or POLARS_MAX_THREADS) value is an error at import naming the
    # variable, not a silently ignored setting.
    _frazil.check_environment()
