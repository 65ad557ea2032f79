"""CompatLevel: which Arrow layouts frazil's exports use, as Polars has it.

``CompatLevel.oldest()`` gives strings and binary as ``large_string`` / ``large_binary``
(what every Arrow consumer reads, pyarrow's compute functions included); the newest level
gives ``string_view`` / ``binary_view``, which frazil shares without copying.
"""
from __future__ import annotations


class CompatLevel:
    """An Arrow compatibility level for ``to_arrow(compat_level=...)``."""

    _version: int

    def __init__(self) -> None:
        raise TypeError("a CompatLevel is made by CompatLevel.newest() or CompatLevel.oldest()")

    @staticmethod
    def _with_version(version: int) -> CompatLevel:
        level = CompatLevel.__new__(CompatLevel)
        level._version = version
        return level

    @staticmethod
    def newest() -> CompatLevel:
        """The newest level frazil writes: string and binary views (zero-copy)."""
        return _NEWEST

    @staticmethod
    def oldest() -> CompatLevel:
        """The most widely readable level: large_string and large_binary."""
        return _OLDEST

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CompatLevel) and other._version == self._version

    def __hash__(self) -> int:
        return hash(self._version)

    def __repr__(self) -> str:
        return f"<frazil.CompatLevel: {self._version}>"


_OLDEST = CompatLevel._with_version(0)
_NEWEST = CompatLevel._with_version(1)


def string_layout(compat_level: CompatLevel | bool | None) -> str:
    """The native string layout name for a compat level (None: the oldest, as Polars)."""
    if compat_level is None or compat_level is False:
        return "large"
    if compat_level is True:
        return "view"
    if not isinstance(compat_level, CompatLevel):
        raise TypeError(f"compat_level must be a CompatLevel, not {type(compat_level).__name__}")
    return "view" if compat_level._version >= 1 else "large"
