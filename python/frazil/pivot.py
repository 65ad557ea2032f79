"""DataFrame.pivot, LazyFrame.pivot (lazy: its on_columns are given), DataFrame.unstack.

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
        raise ValueError("use of `aggregate_function='count'` should be replaced with `aggregate_function='len'`.")
    if aggregate_function not in _NAMED:
        raise ValueError(f"invalid input for `aggregate_function` argument: {aggregate_function!r}")
    if aggregate_function == "item":
        return None
    return getattr(element(), aggregate_function)()


def _column_name(values: tuple, dtypes: list) -> str:
    """Polars' name of the column of one `on` combination (the value as the engine casts it
    to a string: floats as 'NaN', '1e-7', '-0.0'; several values as {"a",1})."""
    def one(v: Any, dtype: Any, quoted: bool) -> str:
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return f'"{v}"' if quoted else v
        if isinstance(v, float):
            from frazil.datatypes import String
            from frazil.series import Series

            return Series([v], dtype=dtype).cast(String)[0]
        return str(v)

    if len(values) == 1:
        return one(values[0], dtypes[0], False)
    if any(v is None for v in values):  # Polars names a combination with a null "null"
        return "null"
    return "{" + ",".join(one(v, t, True) for v, t in zip(values, dtypes)) + "}"


def _output_name(value: str, combo: tuple, on_dtypes: list, single_values: bool, separator: str,
                 taken: set) -> str:
    """The output column of one (values column, on combination), added to `taken`; a name
    already taken is Polars' DuplicateError."""
    from frazil.exceptions import DuplicateError

    name = _column_name(combo, on_dtypes)
    if not single_values:
        name = f"{value}{separator}{name}"
    if name in taken:
        raise DuplicateError(f"column with name '{name}' has more than one occurrence")
    taken.add(name)
    return name


def _pivot_columns(frame: Any, columns: list[str], on: Any, index: Any, values: Any,
                   column_naming: str) -> tuple[list[str], list[str], list[str]]:
    """The on, index and values column names (index or values defaults to the others)."""
    from frazil.exceptions import InvalidOperationError

    on_names = _names(frame, on) or []
    index_names = _names(frame, index)
    value_names = _names(frame, values)
    if index_names is None and value_names is None:
        raise InvalidOperationError("`pivot` needs either `index or `values` needs to be specified")
    if index_names is None:
        index_names = [c for c in columns if c not in on_names and c not in value_names]
    if value_names is None:
        value_names = [c for c in columns if c not in on_names and c not in index_names]
    if column_naming not in ("auto", "combine"):
        raise ValueError(f"`column_naming` must be 'auto' or 'combine', got {column_naming!r}")
    return on_names, index_names, value_names


def pivot(self: Any, on: Any, on_columns: Any = None, *, index: Any = None, values: Any = None,
          aggregate_function: Any = None, maintain_order: bool = True, sort_columns: bool = False,
          separator: str = "_", column_naming: str = "auto") -> Any:
    """A spreadsheet-style pivot: one row per `index` value, one column per `on` value (per
    `values` column), each cell the `aggregate_function` of its rows (None: the single value,
    an error when a cell has several)."""
    from frazil.exceptions import ComputeError, InvalidOperationError
    from frazil.functions import col, len as count_rows

    on_names, index_names, value_names = _pivot_columns(self, self.columns, on, index, values, column_naming)
    on_dtypes = [self.schema[n] for n in on_names]
    agg = _aggregation(aggregate_function)

    frame = self.with_row_index(_ROW)
    by_index = col(_ROW).min().over(index_names) if index_names else col(_ROW).min()
    frame = frame.with_columns(by_index.alias(_IID), col(_ROW).min().over(on_names).alias(_OID))
    # The `on` combinations: given, or in order of appearance (sorted by value if asked).
    combos = frame.filter(col(_ROW) == col(_OID)).select(_OID, *on_names)
    if sort_columns:
        combos = combos.sort(on_names, nulls_last=False, maintain_order=True)
    if on_columns is not None:
        found = [tuple(r) for r in combos.select(on_names).rows()]
        ids = dict(zip(found, combos[_OID].to_list()))
        combo_rows = [(ids.get(c, -1), c) for c in _on_combinations(on_columns, on_names, self.schema)]
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
            name = _output_name(v, combo, on_dtypes, single_values, separator, taken)
            part = by_combo.get((oid,))
            if part is None:
                part = cells.head(0).select(_IID, _CELL)
            out = out.join(part.rename({_CELL: name}), on=_IID, how="left")
            if empty is not None:
                filled.append(col(name).fill_null(empty))
        if filled:
            out = out.with_columns(*filled)
    return out.sort(_IID).drop(_IID)


def _on_combinations(on_columns: Any, on_names: list[str], schema: Any) -> list[tuple]:
    """The given `on` combinations as tuples of values, cast to the `on` columns' dtypes."""
    from frazil.dataframe import DataFrame
    from frazil.functions import col
    from frazil.series import Series

    if isinstance(on_columns, str):
        raise TypeError("invalid type for `on_columns` argument: 'str'")
    if isinstance(on_columns, DataFrame):
        wanted = on_columns.rename(dict(zip(on_columns.columns, on_names)))
    elif isinstance(on_columns, Series):
        wanted = DataFrame({on_names[0]: on_columns})
    else:
        wanted = DataFrame({on_names[0]: list(on_columns)})
    wanted = wanted.with_columns(*(col(n).cast(schema[n]) for n in on_names if n in wanted.columns))
    return [tuple(r) for r in wanted.select(on_names).rows()]


def _cell_rows(value: str, on_names: list[str], combo: tuple, schema: Any) -> Any:
    """In agg(): the group's `value` rows whose `on` columns equal `combo` (null equals null)."""
    from frazil.functions import all_horizontal, col, lit

    mask = all_horizontal(*(col(n).eq_missing(lit(v).cast(schema[n])) for n, v in zip(on_names, combo)))
    return col(value).filter(mask)


def _cell(rows: Any, aggregate_function: Any, agg: Any) -> Any:
    """A pivot cell from its rows: a named aggregation as the grouped kernel, 'item' (None)
    as the one value (null for none, an error for several), an expression of pl.element()
    as list.eval over the cell's rows."""
    if agg is None:
        return rows.item(allow_empty=True)
    if isinstance(aggregate_function, str):
        return getattr(rows, aggregate_function)()
    return rows.implode().list.eval(agg).list.first()


def lazy_pivot(self: Any, on: Any, on_columns: Any, *, index: Any = None, values: Any = None,
               aggregate_function: Any = None, maintain_order: bool = False, separator: str = "_",
               column_naming: str = "auto") -> Any:
    """LazyFrame.pivot: with the `on` combinations given, the output columns are known
    without the data, so the pivot is one lazy group-by over the index columns with a cell
    aggregation per (values column, combination); nothing runs until collect."""
    from frazil.exceptions import InvalidOperationError

    schema = self.collect_schema()
    on_names, index_names, value_names = _pivot_columns(self, list(schema), on, index, values, column_naming)
    on_dtypes = [schema[n] for n in on_names]
    agg = _aggregation(aggregate_function)
    if agg is not None and any(r != "" for r in agg.meta.root_names()):
        raise InvalidOperationError("explicit column references are not allowed in the `aggregate_function` of `pivot`")
    combos = _on_combinations(on_columns, on_names, schema)
    single_values = len(value_names) == 1 and column_naming == "auto"
    cells, taken = [], set(index_names)
    for v in value_names:
        for combo in combos:
            name = _output_name(v, combo, on_dtypes, single_values, separator, taken)
            cells.append(_cell(_cell_rows(v, on_names, combo, schema), aggregate_function, agg).alias(name))
    return self.group_by(index_names, maintain_order=maintain_order).agg(cells)


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
