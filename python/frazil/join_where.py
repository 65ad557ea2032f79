"""LazyFrame/DataFrame.join_where: a join on (in)equality predicates.

how="inner" builds a plan node (plan/conversion/join_where.cpp): an inner hash join on the
equalities, else an IEJoin on one or two inequalities, else a nested-loop join, with the
other predicates as a filter above it (Polars' plan; explain() shows INNER JOIN, IEJOIN
JOIN or NESTED LOOP JOIN). It stays lazy.

how="left" is still composed here from the engine's operations (below), which runs both
inputs when join_where is called. Predicates name left columns as they are and right
columns as they are, or with the suffix where a name is on both sides (Polars' rule).
The left join is planned from the predicates of the form `col(left) op col(right)`:
- equalities: a hash join on all of them, the other predicates filter its pairs;
- else the first inequality: a sort-based range join (the right side sorted by its key;
  each left row matches one contiguous range of it, found by binary search; the pairs are
  generated from the ranges), the other predicates filter those pairs;
- predicates of no such form only (a comparison of computed values): the pairs of a cross
  join, filtered.
Both inputs are collected when join_where is called; the output row order is unspecified
(as Polars).
"""
from __future__ import annotations

import re
from typing import Any

_LI, _RI, _LO, _HI = "__jw_li", "__jw_ri", "__jw_lo", "__jw_hi"
_SIMPLE = re.compile(r'^\(col\("((?:[^"\\]|\\.)*)"\) (<=|>=|==|!=|<|>) col\("((?:[^"\\]|\\.)*)"\)\)$')
_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def join_where(self: Any, other: Any, *predicates: Any, how: str = "inner", suffix: str = "_right") -> Any:
    """Joins the rows of both frames for which every predicate holds (how: inner or left)."""
    from frazil.expr import Expr
    from frazil.exceptions import InvalidOperationError
    from frazil.lazyframe import LazyFrame

    if not isinstance(other, LazyFrame):
        raise TypeError(f"expected `other` to be a 'LazyFrame', not {type(other).__name__!r}")
    if how not in ("inner", "left"):
        raise ValueError(f"`how` must be 'inner' or 'left' in join_where, got {how!r}")
    preds: list = []
    for p in predicates:
        preds.extend(p if isinstance(p, (list, tuple)) else [p])
    if not preds or not all(isinstance(p, Expr) for p in preds):
        raise InvalidOperationError("expected join keys/predicates")
    if how == "inner":
        return self._wrap(self._ldf.join_where(other._ldf, [p._pyexpr for p in preds], suffix))
    left = self.collect()
    right = other.collect()
    left_names = set(left.columns)
    rename = {c: c + suffix for c in right.columns if c in left_names}
    right = right.rename(rename) if rename else right
    right_names = set(right.columns)

    simple, rest = [], []
    for p in preds:
        m = _SIMPLE.match(repr(p))
        if m:
            a, op, b = m.group(1), m.group(2), m.group(3)
            if a in left_names and b in right_names:
                simple.append((a, op, b, p))
                continue
            if a in right_names and b in left_names:
                simple.append((b, _FLIP[op], a, p))
                continue
        rest.append(p)
    equal = [s for s in simple if s[1] == "=="]
    ranged = [s for s in simple if s[1] in ("<", "<=", ">", ">=")]
    lw = left.with_row_index(_LI)
    if equal:
        pairs = lw.join(right, left_on=[s[0] for s in equal], right_on=[s[2] for s in equal], how="inner",
                        coalesce=False)
        filters = [s[3] for s in simple if s[1] != "=="] + rest
    elif ranged:
        pairs = _range_join(lw, right, *ranged[0][:3])
        filters = [s[3] for s in simple if s is not ranged[0]] + rest
    else:
        pairs = lw.join(right, how="cross")
        filters = [s[3] for s in simple] + rest
    for f in filters:
        pairs = pairs.filter(f)
    out_names = left.columns + right.columns
    if how == "left":
        # Left rows without a match once, with null right columns.
        matched = pairs.select(_LI, *right.columns)
        return lw.join(matched, on=_LI, how="left").select(out_names).lazy()
    return pairs.select(out_names).lazy()


def _supertype(a: Any, b: Any) -> Any:
    from frazil.datatypes import Float64, Int64

    if a == b:
        return None
    if a.is_integer() and b.is_integer():
        return Int64
    if a.is_numeric() and b.is_numeric():
        return Float64
    return None


def _range_join(lw: Any, right: Any, a: str, op: str, b: str) -> Any:
    """The (left, right) row pairs with left[a] op right[b], from the right side sorted by b."""
    from frazil.functions import col, int_ranges, lit

    cast = _supertype(lw.schema[a], right.schema[b])
    rs = right.with_row_index(_RI).filter(col(b).is_not_null())
    if cast is not None:
        rs = rs.with_columns(col(b).cast(cast).alias("__jw_key"))
    else:
        rs = rs.with_columns(col(b).alias("__jw_key"))
    rs = rs.sort("__jw_key", maintain_order=True).drop(_RI).with_row_index(_RI)
    keys = rs["__jw_key"]
    n = len(keys)
    lk = lw.select((col(a).cast(cast) if cast is not None else col(a)).alias("k"))["k"]
    # left op right: the right keys above (< / <=) or below (> / >=) the left key.
    index_type = rs.schema[_RI]
    if op in ("<", "<="):
        found = keys.search_sorted(lk, side="right" if op == "<" else "left").alias(_LO)
        bounds = lw.hstack([found]).with_columns(col(_LO).cast(index_type), lit(n, dtype=index_type).alias(_HI))
    else:
        found = keys.search_sorted(lk, side="left" if op == ">" else "right").alias(_HI)
        bounds = lw.hstack([found]).with_columns(col(_HI).cast(index_type), lit(0, dtype=index_type).alias(_LO))
    bounds = bounds.filter(col(a).is_not_null() & (col(_HI) > col(_LO)))
    pairs = (bounds.select(_LI, int_ranges(col(_LO), col(_HI), dtype=rs.schema[_RI]).alias(_RI)).explode(_RI))
    return (pairs.join(lw, on=_LI, how="left").join(rs.drop("__jw_key"), on=_RI, how="left")
            .drop(_RI))
