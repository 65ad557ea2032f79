"""Polars 2's `pl.Categories`: the string <-> code mapping behind `pl.Categorical`.

frazil has one mapping, the process-wide global categories (core/categories.hpp), shared by
every Categorical column and append-only, so `pl.Categories()` is that mapping. Named
categories (`pl.Categories("fruit")`, `Categories.random()`) are separate mappings in Polars;
frazil does not have them and says so instead of quietly sharing the global one.
"""
from __future__ import annotations

from typing import Any, Iterator

from frazil import _frazil
from frazil.exceptions import InvalidOperationError


class Categories:
    """The global categories of pl.Categorical (the only ones frazil has)."""

    def __init__(self, name: str | None = None, namespace: str = "", physical: Any = None) -> None:
        from frazil.datatypes import UInt32, parse_into_dtype

        if not name:
            if namespace:
                raise AssertionError("global categories may not specify a namespace")
            if physical is not None and parse_into_dtype(physical) != UInt32:
                raise InvalidOperationError("the global categories have UInt32 codes")
            return
        raise InvalidOperationError(
            f"pl.Categories({name!r}): frazil has only the global categories (pl.Categories()); "
            "named categories are not supported")

    @staticmethod
    def random(namespace: str = "", physical: Any = None) -> "Categories":
        """A new unnamed mapping in Polars; frazil has none (InvalidOperationError)."""
        raise InvalidOperationError("Categories.random(): frazil has only the global categories (pl.Categories())")

    def name(self) -> str:
        return ""

    def namespace(self) -> str:
        return ""

    def physical(self) -> Any:
        from frazil.datatypes import UInt32

        return UInt32

    def is_global(self) -> bool:
        return True

    def __getitem__(self, key: str | int) -> str | int:
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
        if isinstance(item, str):
            return _frazil.global_category_code(item) is not None
        if isinstance(item, int) and not isinstance(item, bool):
            return 0 <= item < _frazil.global_categories_size()
        return False

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_series().to_list())

    def to_series(self) -> Any:
        """Every category, in code order, as a String Series."""
        from frazil.datatypes import String
        from frazil.series import Series

        n = _frazil.global_categories_size()
        return Series("", [_frazil.global_category(i) for i in range(n)], dtype=String)

    def to_dict(self) -> dict:
        """Each category's code."""
        return {s: i for i, s in enumerate(self.to_series().to_list())}

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Categories)

    def __hash__(self) -> int:
        return hash(("Categories", "", ""))

    def __repr__(self) -> str:
        return "Categories()"

    def __reduce__(self) -> tuple:
        return (Categories, ())
