"""Polars 2's `pl.Categories`: the string <-> code mapping behind `pl.Categorical`.

frazil has one mapping, the process-wide global categories (core/categories.hpp), shared by
every Categorical column and append-only, so `pl.Categories()` is that mapping. Named
categories (`pl.Categories("fruit")`, `Categories.random()`) are separate mappings in Polars.
frazil lets code build them (a module's dtype lists often do) and a Categorical over one
stores its strings in the global mapping, so values are the same; what frazil cannot give
is the named mapping itself, so reading it (lookups, iteration) is an InvalidOperationError.
Categories with codes narrower than UInt32 can be built and compared (test modules list
them), but a Categorical over them is an InvalidOperationError: frazil's codes are UInt32.
"""
from __future__ import annotations

from typing import Any, Iterator

from frazil import _frazil
from frazil.exceptions import InvalidOperationError


class Categories:
    """The categories of pl.Categorical: the global ones, or a name for them (see above)."""

    def __init__(self, name: str | None = None, namespace: str = "", physical: Any = None) -> None:
        from frazil.datatypes import UInt8, UInt16, UInt32, parse_into_dtype

        if not name and namespace:
            raise AssertionError("global categories may not specify a namespace")
        physical = UInt32 if physical is None else parse_into_dtype(physical)
        if physical not in (UInt8, UInt16, UInt32):
            raise TypeError("Categorical physical must be one of pl.UInt(8|16|32)")
        self._name = name or ""
        self._namespace = namespace if name else ""
        self._physical = physical

    @staticmethod
    def random(namespace: str = "", physical: Any = None) -> "Categories":
        """New categories under a random name (their strings go to the global mapping)."""
        import uuid

        return Categories(uuid.uuid4().hex, namespace, physical)

    def name(self) -> str:
        return self._name

    def namespace(self) -> str:
        return self._namespace

    def physical(self) -> Any:
        return self._physical

    def _require_uint32_codes(self) -> None:
        """Called by Categorical(categories): frazil's codes are UInt32 only."""
        from frazil.datatypes import UInt32

        if self._physical != UInt32:
            raise InvalidOperationError(f"{self!r}: frazil's categories have UInt32 codes, not {self._physical}")

    def is_global(self) -> bool:
        return not self._name

    def _require_global(self) -> None:
        if self._name:
            raise InvalidOperationError(
                f"{self!r}: frazil has only the global categories (pl.Categories()); a Categorical over named "
                "categories keeps its strings there, and the named mapping itself cannot be read")

    def __getitem__(self, key: str | int) -> str | int:
        self._require_global()
        if isinstance(key, str):
            code = _frazil.global_category_code(key)
            if code is None:
                raise KeyError(key)
            return code
        if isinstance(key, int) and not isinstance(key, bool):
            if not 0 <= key < _frazil.global_categories_size():
                raise IndexError(f"category index out of range: {key}")
            return _frazil.global_category(key)
        raise TypeError(f"invalid key type {type(key)}; expected str or int")

    def __contains__(self, item: Any) -> bool:
        self._require_global()
        if isinstance(item, str):
            return _frazil.global_category_code(item) is not None
        if isinstance(item, int) and not isinstance(item, bool):
            return 0 <= item < _frazil.global_categories_size()
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_series().to_list())

    def to_series(self) -> Any:
        """Every category, in code order, as a String Series."""
        self._require_global()
        from frazil.datatypes import String
        from frazil.series import Series

        n = _frazil.global_categories_size()
        return Series("", [_frazil.global_category(i) for i in range(n)], dtype=String)

    def to_dict(self) -> dict:
        """Each category's code."""
        return {s: i for i, s in enumerate(self.to_series().to_list())}

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Categories) and (self._name, self._namespace, self._physical) == (
            other._name, other._namespace, other._physical)

    def __hash__(self) -> int:
        return hash(("Categories", self._name, self._namespace, repr(self._physical)))

    def __repr__(self) -> str:
        if not self._name:
            return "Categories()"
        return f"Categories(name={self._name!r}, namespace={self._namespace!r}, physical={self._physical!r})"

    def __reduce__(self) -> tuple:
        return (Categories, (self._name or None, self._namespace, self._physical))
