"""DataFrame.pivot (and LazyFrame.pivot with known on_columns), DataFrame.unstack.

Pivot as Polars defines it: every cell (one index value, one combination of `on` values) is
the aggregation of the `values` rows that fall in it; an empty cell is the aggregation of no
rows (0 for "sum" and "len", null for "first"). Built from group-bys: the cells are
aggregated by (index id, on id), then spread into one column per `on` combination by a
second group-by over the index id (`first` of each combination's cell), and joined onto the
index rows. Ids are row numbers of first appearance, so null keys group like any value.
"""
from __future__ import annotations

from typing import Any

_ROW, _IID, _OID, _CELL = "__pivot_row", "__pivot_iid", "__pivot_oid", "__pivot_cell"
_NAMED = ("min", "max", "first", "last", "sum", "mean", "median", "len", "item")


def _names(frame: Any, spec: Any) -> list[str] | None:
    if spec is None:
        return None
    if isinstance(spec, str):
        return [spec]
    from frazil.expr import Expr

    if isinstance(spec, Expr):
        return frame.lazy().select(spec).collect_schema().names()
    out: list[str] = []
    for s in spec:
        out += _names(frame, s) or []
    return out


def _aggregation(aggregate_function: Any) -> Any:
    """The cell's aggregation as an expression of pl.element() (None: Polars' 'item')."""
    from frazil.expr import Expr
    from frazil.functions import element

    if aggregate_function is None:
        return None
    if isinstance(aggregate_function, Expr):
        return aggregate_function
    if aggregate_function == "count":
        aggregate_function = "len"
    if aggregate_function not in _NAMED:
        raise ValueError(f"invalid input for `aggregate_function` argument: {aggregate_function!r}")
    if aggregate_function == "item":
        return None
    return getattr(element(), aggregate_function)()


def _column_name(values: tuple) -> str:
    def one(v: Any, quoted: bool) -> str:
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return f'"{v}"' if quoted else v
        return str(v)

    if len(values) == 1:
        return one(values[0], False)
    if any(v is None for v in values):  # Polars names a combination with a null "null"
        return "null"
    return "{" + ",".join(one(v, True) for v in values) + "}"


def pivot(self: Any, on: Any, on_columns: Any = None, *, index: Any = None, values: Any = None,
          aggregate_function: Any = None, maintain_order: bool = True, sort_columns: bool = False,
          separator: str = "_", column_naming: str = "auto") -> Any:
    """A spreadsheet-style pivot: one row per `index` value, one column per `on` value (per
    `values` column), each cell the `aggregate_function` of its rows (None: the single value,
    an error when a cell has several)."""
    from frazil.dataframe import DataFrame
    from frazil.exceptions import ComputeError, DuplicateError, InvalidOperationError
    from frazil.functions import col, len as count_rows
    from frazil.series import Series

    on_names = _names(self, on) or []
    index_names = _names(self, index)
    value_names = _names(self, values)
    if index_names is None and value_names is None:
        raise InvalidOperationError("`pivot` needs either `index or `values` needs to be specified")
    if index_names is None:
        index_names = [c for c in self.columns if c not in on_names and c not in value_names]
    if value_names is None:
        value_names = [c for c in self.columns if c not in on_names and c not in index_names]
    if column_naming not in ("auto", "combine"):
        raise ValueError(f"`column_naming` must be 'auto' or 'combine', got {column_naming!r}")
    agg = _aggregation(aggregate_function)

    frame = self.with_row_index(_ROW)
    by_index = col(_ROW).min().over(index_names) if index_names else col(_ROW).min()
    frame = frame.with_columns(by_index.alias(_IID), col(_ROW).min().over(on_names).alias(_OID))
    # The `on` combinations: given, or in order of appearance (sorted by value if asked).
    combos = frame.filter(col(_ROW) == col(_OID)).select(_OID, *on_names)
    if sort_columns:
        combos = combos.sort(on_names, nulls_last=False, maintain_order=True)
    if on_columns is not None:
        if isinstance(on_columns, str):
            raise TypeError("`on_columns` must be a sequence of values, a Series or a DataFrame, not a str")
        if isinstance(on_columns, DataFrame):
            wanted = on_columns.rename(dict(zip(on_columns.columns, on_names)))
        elif isinstance(on_columns, Series):
            wanted = DataFrame({on_names[0]: on_columns})
        else:
            wanted = DataFrame({on_names[0]: list(on_columns)})
            wanted = wanted.with_columns(col(on_names[0]).cast(self.schema[on_names[0]]))
        found = [tuple(r) for r in combos.select(on_names).rows()]
        ids = dict(zip(found, combos[_OID].to_list()))
        combo_rows = [(ids.get(tuple(r), -1), tuple(r)) for r in wanted.select(on_names).rows()]
    else:
        combo_rows = [(r[0], tuple(r[1:])) for r in combos.rows()]
    single_values = len(value_names) == 1 and column_naming == "auto"

    index_rows = frame.filter(col(_ROW) == col(_IID)).select(_IID, *index_names)
    out = index_rows
    taken = set(index_names)
    for v in value_names:
        cells_input = frame.select(_IID, _OID, col(v).alias(""))
        grouped = cells_input.group_by([_IID, _OID], maintain_order=True)
        if agg is None:
            counts = grouped.agg(count_rows().alias("__n"))
            if counts.height and counts["__n"].max() > 1:
                raise ComputeError(f"aggregation 'item' expected no or a single value, got "
                                   f"{counts['__n'].max()} values")
            cell_expr, empty = col("").first(), None
        else:
            cell_expr = agg
            try:
                empty = cells_input.head(0).select(agg.alias(_CELL))
            except Exception as e:  # noqa: BLE001 - a reference to another column
                from frazil.exceptions import ColumnNotFoundError

                if isinstance(e, ColumnNotFoundError):
                    raise InvalidOperationError(
                        "explicit column references are not allowed in the `aggregate_function` of `pivot`") from e
                raise
            empty = empty[_CELL][0] if empty.height == 1 else None
        cells = grouped.agg(cell_expr.alias(_CELL))
        # Each combination's cells (one per index id at most) joined onto the index rows.
        by_combo = cells.partition_by(_OID, as_dict=True, include_key=False) if combo_rows else {}
        filled = []
        for oid, combo in combo_rows:
            name = _column_name(combo)
            if not single_values:
                name = f"{v}{separator}{name}"
            if name in taken:
                raise DuplicateError(f"column with name '{name}' has more than one occurrence")
            taken.add(name)
            part = by_combo.get((oid,))
            if part is None:
                part = cells.head(0).select(_IID, _CELL)
            out = out.join(part.rename({_CELL: name}), on=_IID, how="left")
            if empty is not None:
                filled.append(col(name).fill_null(empty))
        if filled:
            out = out.with_columns(*filled)
    return out.sort(_IID).drop(_IID)


def lazy_pivot(self: Any, on: Any, on_columns: Any, *, index: Any = None, values: Any = None,
               aggregate_function: Any = None, maintain_order: bool = False, separator: str = "_",
               column_naming: str = "auto") -> Any:
    """LazyFrame.pivot: the frame is collected when called (its columns depend on the data)."""
    return pivot(self.collect(), on, on_columns, index=index, values=values, aggregate_function=aggregate_function,
                 maintain_order=maintain_order, separator=separator, column_naming=column_naming).lazy()


def unstack(self: Any, *, step: int, how: str = "vertical", columns: Any = None, fill_values: Any = None) -> Any:
    """A long table made wide without aggregation: each column cut into pieces of `step` rows
    (vertical) or dealt out row by row over `step` columns (horizontal)."""
    import math

    from frazil.dataframe import DataFrame
    from frazil.functions import col, lit

    if how not in ("vertical", "horizontal"):
        raise ValueError(f"`how` must be 'vertical' or 'horizontal', got {how!r}")
    names = _names(self, columns) if columns is not None else self.columns
    frame = self.select(names)
    height = frame.height
    # vertical: `step` rows, filled column by column; horizontal: `step` columns, row by row.
    if how == "vertical":
        n_rows, n_cols = step, (math.ceil(height / step) if height else 0)
    else:
        n_rows, n_cols = (math.ceil(height / step) if height else 0), step
    fills = fill_values if isinstance(fill_values, list) else [fill_values] * len(names)
    pad = n_rows * n_cols - height
    pieces = []
    for name, fill in zip(names, fills):
        s = frame[name]
        if pad > 0:
            extra = DataFrame({name: [fill] * pad}).with_columns(col(name).cast(s.dtype)) if fill is not None else \
                DataFrame({name: [None] * pad}).with_columns(lit(None).cast(s.dtype).alias(name))
            s = frame.select(name).vstack(extra)[name]
        for j in range(n_cols):
            if how == "vertical":
                part = s.slice(j * n_rows, n_rows)
            else:
                part = s.gather_every(n_cols, offset=j)
            pieces.append(part.alias(f"{name}_{j}"))
    return DataFrame(pieces) if pieces else DataFrame({})
