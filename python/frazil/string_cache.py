"""Polars' string cache API. In Polars 2 (and frazil) Categorical columns always share one
process-wide mapping of strings to codes, so the cache is always on: StringCache() and
enable/disable_string_cache are accepted for old code and change nothing."""
from __future__ import annotations

import contextlib


class StringCache(contextlib.ContextDecorator):
    """Context manager (and decorator) kept for compatibility: categories are global."""

    def __enter__(self) -> "StringCache":
        return self

    def __exit__(self, *args) -> None:
        return None


def enable_string_cache() -> None:
    """Kept for compatibility: the string cache is always enabled."""


def disable_string_cache() -> None:
    """Kept for compatibility: the string cache cannot be disabled."""


def using_string_cache() -> bool:
    """Whether the string cache is in use: always True."""
    return True
