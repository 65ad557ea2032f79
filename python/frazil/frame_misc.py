"""Smaller frame and Series methods of issue #19, each composed from the core operations as
Polars composes them: describe, sample, update, to_dummies, is_duplicated/is_unique, corr,
glimpse, estimated_size, gather, select_seq/with_columns_seq, match_to_schema, rows_by_key,
map_rows, collect_batches/sink_batches/collect_async/pipe_with_schema, and Series
value_counts/describe/to_dummies/scatter/set/shrink_dtype/estimated_size/map_elements.
"""
from __future__ import annotations

from typing import Any, Callable

_UNITS = {"b": 1, "bytes": 1, "kb": 1024, "kilobytes": 1024, "mb": 1024**2, "megabytes": 1024**2,
          "gb": 1024**3, "gigabytes": 1024**3, "tb": 1024**4, "terabytes": 1024**4}


# ---------------------------------------------------------------- describe


def _percentiles(percentiles: Any) -> list[float]:
    if isinstance(percentiles, float):
        percentiles = [percentiles]
    elif percentiles is None:
        percentiles = []
    if not all(0 <= p <= 1 for p in percentiles):
        raise ValueError("`percentiles` must all be in the range [0, 1]")
    return sorted(p for p in percentiles if p < 0.5) + sorted(p for p in percentiles if p >= 0.5)


def describe(self: Any, percentiles: Any = (0.25, 0.50, 0.75), *, interpolation: str = "nearest") -> Any:
    """Summary statistics of every column (count, null_count, mean, std, min, percentiles,
    max): numbers as Float64 for numeric and boolean columns, text for the others."""
    from frazil.dataframe import DataFrame
    from frazil.datatypes import Boolean, Null
    from frazil.functions import col, lit
    from frazil.series import Series

    lf = self.lazy() if isinstance(self, DataFrame) else self
    schema = lf.collect_schema()
    if not schema:
        raise TypeError(f"cannot describe a {type(self).__name__} that has no columns")
    from frazil.config import _direct

    thousands = _direct.get("set_thousands_separator") or ""
    quantiles = _percentiles(percentiles)
    metrics = ["count", "null_count", "mean", "std", "min", *[f"{q * 100:g}%" for q in quantiles], "max"]
    exprs, numeric_result = [], set()
    for c, dtype in schema.items():
        numeric = dtype.is_numeric()
        temporal = not numeric and dtype.is_temporal()
        nested = dtype.is_nested()
        minmax = not (nested or dtype == Null or str(dtype).startswith(("Categorical", "Enum", "Object")))
        null = lit(None)
        row = [col(c).count(), col(c).null_count(),
               col(c).mean() if (numeric or temporal or dtype == Boolean) else null,
               col(c).std() if numeric else null,
               col(c).min() if minmax else null]
        for q in quantiles:
            if temporal:
                row.append(col(c).to_physical().quantile(q, interpolation).cast(dtype))
            elif numeric:
                row.append(col(c).quantile(q, interpolation))
            else:
                row.append(null)
        row.append(col(c).max() if minmax else null)
        exprs += [e.alias(f"{i}:{c}") for i, e in enumerate(row)]
        if numeric or nested or dtype in (Null, Boolean):
            numeric_result.add(c)
    values = lf.select(*exprs).collect().row(0)
    n = len(metrics)
    data: dict = {"statistic": metrics}
    for k, c in enumerate(schema):
        cells = values[k * n:(k + 1) * n]
        if c in numeric_result:
            data[c] = Series(c, [None if v is None or isinstance(v, dict) else float(v) for v in cells],
                             dtype=_float64())
        else:
            text = [None if v is None else (f"{int(v):,}".replace(",", thousands) if thousands and i < 2 else str(v))
                    for i, v in enumerate(cells)]
            data[c] = Series(c, text).cast(_string())
    return DataFrame(data)


def _float64() -> Any:
    from frazil.datatypes import Float64

    return Float64


def _string() -> Any:
    from frazil.datatypes import String

    return String


def series_describe(self: Any, percentiles: Any = (0.25, 0.50, 0.75), interpolation: str = "nearest") -> Any:
    """describe() of the Series: (statistic, value) rows, the statistics that apply."""
    from frazil.functions import col

    stats = describe(self.to_frame(), percentiles, interpolation=interpolation)
    stats.columns = ["statistic", "value"]
    return stats.filter(col("value").is_not_null())


# ---------------------------------------------------------------- rows


def sample(self: Any, n: Any = None, *, fraction: float | None = None, with_replacement: bool = False,
           shuffle: bool | None = None, seed: int | None = None) -> Any:
    """Random rows: `n` of them or a `fraction` of the height (with_replacement: rows may
    repeat; shuffle=False: in frame order, else in drawn order)."""
    import random

    from frazil.exceptions import ShapeError
    from frazil.functions import col

    if n is not None and fraction is not None:
        raise ValueError("cannot specify both `n` and `fraction`")
    height = self.height
    if n is None:
        n = int(height * fraction) if fraction is not None else 1
    if isinstance(n, bool) or not isinstance(n, int):
        from frazil.series import Series

        if isinstance(n, Series):
            n = n.item()
    if n < 0:
        raise ValueError("`n` must not be negative")
    if not with_replacement and n > height:
        raise ShapeError("cannot take a larger sample than the total population when `with_replacement=false`")
    rng = random.Random(seed if seed is not None else _random_seed())
    if with_replacement:
        rows = [rng.randrange(height) for _ in range(n)] if height else []
    else:
        rows = rng.sample(range(height), n)
    # Only shuffle=False asks for frame order; None (the default) leaves the drawn order,
    # as Polars does.
    if shuffle is False:
        rows.sort()
    from frazil.series import Series

    index = Series("", rows, dtype=_uint32())
    return self.select(col("*").gather(index)) if self.width else self.clear()


_SEED: list = [None]


def _random_seed() -> Any:
    return _SEED[0]


def set_random_seed(seed: int) -> None:
    """The seed frazil's sampling uses when no seed is given (Polars' set_random_seed)."""
    import random

    _SEED[0] = seed
    random.seed(seed)


def _uint32() -> Any:
    from frazil.datatypes import UInt32

    return UInt32


def _row_equal_counts(self: Any) -> Any:
    from frazil.functions import col, len as count_rows

    names = self.columns
    return self.select(count_rows().over([col(c) for c in names]).alias("__n"))["__n"]


def is_duplicated(self: Any) -> Any:
    """Whether each row occurs more than once (over all columns)."""
    return (_row_equal_counts(self) > 1).alias("")


def is_unique(self: Any) -> Any:
    """Whether each row occurs exactly once (over all columns)."""
    return (_row_equal_counts(self) == 1).alias("")


def gather(self: Any, indices: Any, *, null_on_oob: bool = False) -> Any:
    """The rows at the given indices (negative: from the end); null_on_oob=True gives a row
    of nulls for an index out of bounds instead of an error. As in Polars, the indices may
    be a one-column LazyFrame (there is no lazy Series): it is collected here, when gather
    is called, and its values are the indices."""
    from frazil.functions import col

    if hasattr(indices, "collect") and hasattr(indices, "collect_schema"):
        names = indices.collect_schema().names()
        if len(names) != 1:
            raise ValueError(f"gather: a LazyFrame of indices must have one column, it has {len(names)}")
        indices = indices.collect().to_series(0)
    return self.select(col("*").gather(indices, null_on_oob=null_on_oob))


def select_seq(self: Any, *exprs: Any, **named_exprs: Any) -> Any:
    """select(), computing the expressions one after another (frazil schedules them itself)."""
    return self.select(*exprs, **named_exprs)


def with_columns_seq(self: Any, *exprs: Any, **named_exprs: Any) -> Any:
    """with_columns(), computing the expressions one after another."""
    return self.with_columns(*exprs, **named_exprs)


def rows_by_key(self: Any, key: Any, *, named: bool = False, include_key: bool = False,
                unique: bool = False) -> dict:
    """The rows as a dict keyed by the `key` column(s) value(s): a list of rows per key (or
    the last row, when unique)."""
    from collections import defaultdict

    keys = [key] if isinstance(key, str) else list(key)
    values = [c for c in self.columns if include_key or c not in keys]
    key_rows = self.select(keys).rows()
    value_rows = self.select(values).rows(named=named)
    out: Any = {} if unique else defaultdict(list)
    for k, v in zip(key_rows, value_rows):
        k = k[0] if len(keys) == 1 else k
        if unique:
            out[k] = v
        else:
            out[k].append(v)
    return out


def glimpse(self: Any, *, max_items_per_column: int = 10, max_colname_length: int = 50,
            return_type: str | None = None, **removed: Any) -> Any:
    """A dense preview: one line per column, its dtype and first values."""
    if "return_as_string" in removed:
        from frazil.exceptions import ArgumentRemovedError

        raise ArgumentRemovedError("the argument 'return_as_string' for 'DataFrame.glimpse' was deprecated in "
                                   "version 1.35.0 and has been removed in version 2.0. It was renamed to "
                                   "'return_type'.")
    if removed:
        raise TypeError(f"glimpse() got an unexpected keyword argument {next(iter(removed))!r}")
    if isinstance(return_type, bool):
        return_type = "string" if return_type else None
    if return_type not in (None, "self", "frame", "string"):
        raise ValueError(f"invalid `return_type`; found {return_type!r}, expected one of 'string', 'frame', "
                         "'self', or None")
    head = self.head(max_items_per_column)

    def fmt(v: Any) -> str:
        if v is None:
            return "null"
        if isinstance(v, str):
            return repr(v) if "'" not in v else '"' + v + '"'
        if isinstance(v, bool):
            return "True" if v else "False"
        return str(v)

    names = [(c if len(c) <= max_colname_length else c[:max_colname_length - 1] + "…") for c in self.columns]
    dtypes = [f"<{self[c]._col.dtype_short_name}>" for c in self.columns]
    wn = max((len(n) for n in names), default=0)
    wt = max((len(t) for t in dtypes), default=0)
    lines = [f"Rows: {self.height}", f"Columns: {self.width}"]
    for n, t, c in zip(names, dtypes, self.columns):
        vals = ", ".join(fmt(v) for v in head[c].to_list())
        lines.append(f"$ {n:<{wn}} {t:>{wt}} {vals}")
    text = "\n".join(lines) + "\n"
    if return_type == "string":
        return text
    if return_type == "frame":
        from frazil.dataframe import DataFrame
        from frazil.datatypes import List, String

        values = [[None if v is None else fmt(v) for v in head[c].to_list()] for c in self.columns]
        return DataFrame({"column": self.columns, "dtype": [self[c]._col.dtype_short_name for c in self.columns],
                          "values": values},
                         schema={"column": String, "dtype": String, "values": List(String)})
    print(text)
    return self if return_type == "self" else None


def estimated_size(self: Any, unit: str = "b") -> int | float:
    """Bytes the frame's (or Series') buffers take, in `unit` (b, kb, mb, gb, tb)."""
    if unit not in _UNITS:
        raise ValueError(f"`unit` must be one of {{'b', 'kb', 'mb', 'gb', 'tb'}}, got {unit!r}")
    size = self.to_arrow().nbytes if self.__class__.__name__ == "DataFrame" or hasattr(self, "_col") else 0
    return size if _UNITS[unit] == 1 else size / _UNITS[unit]


def corr(self: Any, **kwargs: Any) -> Any:
    """The Pearson correlation of every pair of columns (a square frame, columns as named)."""
    import frazil.functions as F
    from frazil.dataframe import DataFrame

    names = self.columns
    if not names:
        return DataFrame()
    values = self.select([F.corr(F.col(a), F.col(b), **kwargs).alias(f"{i}_{j}")
                          for i, a in enumerate(names) for j, b in enumerate(names)]).row(0)
    n = len(names)
    return DataFrame({b: [values[i * n + j] for i in range(n)] for j, b in enumerate(names)})


def to_dummies(self: Any, columns: Any = None, *, separator: str = "_", drop_first: bool = False,
               drop_nulls: bool = False) -> Any:
    """Each chosen column replaced by one UInt8 indicator column per distinct value."""
    from frazil.functions import col

    chosen = self.columns if columns is None else ([columns] if isinstance(columns, str) else list(columns))
    exprs = []
    for c in self.columns:
        if c not in chosen:
            exprs.append(col(c))
            continue
        exprs += _dummy_exprs(self[c], c, separator, drop_first, drop_nulls)
    return self.select(exprs)


def _dummy_exprs(s: Any, name: str, separator: str, drop_first: bool, drop_nulls: bool) -> list:
    from frazil.datatypes import UInt8
    from frazil.functions import col, lit

    values = s.unique(maintain_order=False).sort(nulls_last=True).to_list()
    if drop_nulls:
        values = [v for v in values if v is not None]
    if drop_first:
        values = values[1:]
    out = []
    for v in values:
        label = "null" if v is None else _value_text(v)
        test = col(name).is_null() if v is None else (col(name) == lit(v)).fill_null(False)
        out.append(test.cast(UInt8).alias(f"{name}{separator}{label}"))
    return out


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def series_to_dummies(self: Any, *, separator: str = "_", drop_first: bool = False, drop_nulls: bool = False) -> Any:
    """One UInt8 indicator column per distinct value."""
    name = self.name
    return self.to_frame().select(_dummy_exprs(self, name, separator, drop_first, drop_nulls))


# ---------------------------------------------------------------- update, schema


def update(self: Any, other: Any, on: Any = None, how: str = "left", *, left_on: Any = None, right_on: Any = None,
           include_nulls: bool = False, maintain_order: str | None = "left") -> Any:
    """This frame with values replaced by `other`'s non-null values (all of them with
    include_nulls) where the keys match (row by row when no key is given)."""
    from frazil.dataframe import DataFrame
    from frazil.functions import coalesce, col, lit, when

    lazy = not isinstance(self, DataFrame)
    left = self if lazy else self.lazy()
    right = other if lazy else other.lazy()
    if how not in ("left", "inner", "full"):
        raise ValueError(f"`how` must be one of {{'left', 'inner', 'full'}}; found {how!r}")
    row = "__update_row"
    if on is None and left_on is None and right_on is None:
        left, right = left.with_row_index(row), right.with_row_index(row)
        left_on = right_on = [row]
    elif on is not None:
        left_on = right_on = [on] if isinstance(on, str) else list(on)
    else:
        if left_on is None or right_on is None:
            raise ValueError("missing join columns for left frame" if left_on is None else
                             "missing join columns for right frame")
        left_on = [left_on] if isinstance(left_on, str) else list(left_on)
        right_on = [right_on] if isinstance(right_on, str) else list(right_on)
    left_names = left.collect_schema().names()
    right_schema = right.collect_schema()
    targets = [c for c in right_schema.names() if c in left_names and c not in left_on and c not in right_on]
    if not targets:
        return self
    suffix = "__update_right"
    marker = "__update_present"
    right_sel = right.select(*right_on, *targets).with_columns(lit(True).alias(marker))
    joined = left.join(right_sel, left_on=left_on, right_on=right_on, how=how, suffix=suffix,
                       coalesce=True, maintain_order="left" if how == "left" else None)
    updates = []
    for c in targets:
        r = col(c + suffix) if c + suffix in joined.collect_schema().names() else col(c)
        if include_nulls:
            updates.append(when(col(marker).fill_null(False)).then(r).otherwise(col(c)).alias(c))
        else:
            updates.append(coalesce(r, col(c)).alias(c))
    out = joined.with_columns(*updates).select([c for c in left_names if c != row])
    return out if lazy else out.collect()


def match_to_schema(self: Any, schema: Any, *, missing_columns: Any = "raise", missing_struct_fields: Any = "raise",
                    extra_columns: str = "raise", extra_struct_fields: Any = "raise", integer_cast: Any = "forbid",
                    float_cast: Any = "forbid") -> Any:
    """The frame with its columns in `schema`'s order and dtypes: missing columns inserted as
    nulls or an error, extra columns dropped or an error, integers/floats upcast when allowed."""
    from frazil.dataframe import DataFrame
    from frazil.datatypes import Struct
    from frazil.exceptions import SchemaError
    from frazil.functions import col, lit

    lazy = not isinstance(self, DataFrame)
    lf = self if lazy else self.lazy()
    have = lf.collect_schema()
    want = dict(schema.items()) if hasattr(schema, "items") else dict(schema)

    def policy(value: Any, name: str) -> Any:
        return value.get(name, "raise") if isinstance(value, dict) else value

    extra = [c for c in have if c not in want]
    if extra and extra_columns == "raise":
        raise SchemaError("extra columns in `match_to_schema`: " + ", ".join(f'"{c}"' for c in extra))
    exprs = []
    for name, dtype in want.items():
        if name not in have:
            how = policy(missing_columns, name)
            if how == "raise":
                raise SchemaError(f'column "{name}" is missing in `match_to_schema`')
            exprs.append((lit(None).cast(dtype) if how == "insert" else how.cast(dtype)).alias(name))
            continue
        got = have[name]
        if got == dtype:
            exprs.append(col(name))
            continue
        if isinstance(got, Struct) and isinstance(dtype, Struct):
            exprs.append(_match_struct_fields(name, got, dtype, policy(missing_struct_fields, name),
                                              policy(extra_struct_fields, name)))
        elif got.is_integer() and dtype.is_integer() and policy(integer_cast, name) == "upcast":
            exprs.append(col(name).cast(dtype))
        elif got.is_float() and dtype.is_float() and policy(float_cast, name) == "upcast":
            exprs.append(col(name).cast(dtype))
        else:
            raise SchemaError(f'data type mismatch for column "{name}": expected: {dtype}, found: {got}')
    out = lf.select(exprs)
    return out if lazy else out.collect()


def _match_struct_fields(name: str, got: Any, want: Any, missing: str, extra: str) -> Any:
    """A Struct column rebuilt with `want`'s fields in its order: a missing field inserted as
    nulls (missing="insert") and an extra one dropped (extra="ignore"), else Polars' errors."""
    from frazil.exceptions import SchemaError
    from frazil.expr_struct import struct
    from frazil.functions import col, lit, when

    have = {f.name: f.dtype for f in got.fields}
    wanted = {f.name: f.dtype for f in want.fields}

    def mismatch(what: str, field: str, hint: str) -> SchemaError:
        return SchemaError(f"data type mismatch for column {name}: incoming: {got} != target: {want}, "
                           f"encountered {what} struct field: {field}, hint: {hint}")

    for field in have:
        if field not in wanted and extra != "ignore":
            raise mismatch("extra", field, "specify this field in the schema, or pass "
                                           "cast_options=pl.ScanCastOptions(extra_struct_fields='ignore')")
    fields = []
    for field, dtype in wanted.items():
        if field not in have:
            if missing != "insert":
                raise mismatch("missing", field, "pass cast_options=pl.ScanCastOptions(missing_struct_fields='insert')")
            fields.append(lit(None).cast(dtype).alias(field))
        elif have[field] != dtype:
            raise SchemaError(f'data type mismatch for column "{name}": expected: {want}, found: {got}')
        else:
            fields.append(col(name).struct.field(field))
    # A null struct stays null (its new fields are not a row of nulls).
    return when(col(name).is_not_null()).then(struct(fields)).alias(name)


def map_rows(self: Any, function: Callable[[tuple], Any], return_dtype: Any = None, *,
             inference_size: int = 256) -> Any:
    """A Python function applied to every row (a tuple): a frame of its results (a column
    "map" for scalars). Runs row by row in Python: slow, as in Polars."""
    from frazil.dataframe import DataFrame

    results = [function(r) for r in self.iter_rows()]
    if results and isinstance(results[0], tuple):
        cols = list(zip(*results))
        return DataFrame({f"column_{i}": list(c) for i, c in enumerate(cols)})
    from frazil.series import Series

    return DataFrame([Series("map", results, dtype=return_dtype)])


def is_sorted(self: Any, by: Any, *more_by: str, descending: Any = False, nulls_last: Any = False) -> bool:
    """Whether the rows are sorted by the given columns (lexicographically)."""
    names = ([by] if isinstance(by, str) else list(by)) + list(more_by)
    keys = self.select(names)
    return keys.equals(keys.sort(names, descending=descending, nulls_last=nulls_last, maintain_order=True))


def hash_rows(self: Any, seed: int = 0, seed_1: int | None = None, seed_2: int | None = None,
              seed_3: int | None = None) -> Any:
    """A UInt64 hash of each row (equal rows hash alike; the values are frazil's, not Polars')."""
    from frazil.functions import col, lit

    if not self.width:
        return self.select(lit(0).cast(_uint64()).alias("")).to_series()
    h = None
    for i, c in enumerate(self.columns):
        part = col(c).hash(seed + i)
        h = part if h is None else (h ^ part)
    return self.select(h.alias("")).to_series()


def _uint64() -> Any:
    from frazil.datatypes import UInt64

    return UInt64


def map_columns(self: Any, column_names: Any, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The frame with the named columns replaced by function(Series, *args, **kwargs)."""
    names = [column_names] if isinstance(column_names, str) else _selected(self, column_names)
    out = self
    for n in names:
        s = function(self[n], *args, **kwargs)
        out = out.replace_column(out.columns.index(n), s.alias(n) if s.name != n else s)
    return out


def _selected(frame: Any, spec: Any) -> list[str]:
    from frazil.expr import Expr

    if isinstance(spec, Expr) or hasattr(spec, "_pyexpr"):
        return frame.lazy().select(spec).collect_schema().names()
    return list(spec)


def rolling_map(self: Any, function: Callable[[Any], Any], window_size: int, weights: list | None = None, *,
                min_samples: int | None = None, center: bool = False) -> Any:
    """A Python function over each window of `window_size` values (null when the window has
    fewer than min_samples non-null values; centred if asked). Row by row in Python."""
    from frazil.datatypes import Float64
    from frazil.series import Series

    # Polars' result dtype: the input's, or Float64 when weights meet a non-float input
    # (the input is cast to Float64 to be weighted).
    if weights is not None and not self.dtype.is_float():
        self = self.cast(Float64)
    dtype = self.dtype
    min_samples = window_size if min_samples is None else min_samples
    n = len(self)
    out = []
    for i in range(n):
        start = i - window_size // 2 if center else i - window_size + 1
        lo, hi = max(start, 0), min(start + window_size, n)
        window = self.slice(lo, hi - lo)
        if weights is not None:
            w = weights[lo - start:hi - start]
            window = window * Series(w)
        if len(window) - window.null_count() < min_samples:
            out.append(None)
        else:
            out.append(function(window))
    return Series(self.name, out, dtype=dtype, strict=False)


# ---------------------------------------------------------------- LazyFrame


def collect_batches(self: Any, *, chunk_size: int | None = None, maintain_order: bool = True,
                    lazy: bool = False, engine: str = "auto", optimizations: Any = None) -> Any:
    """The result in frames of at most `chunk_size` rows (the query runs once, when asked)."""
    from frazil.engine import foreign_engine

    if (other := foreign_engine(engine)) is not None:
        return other.collect_batches(self, optimizations=optimizations, maintain_order=maintain_order,
                                     chunk_size=chunk_size, lazy=lazy)
    frame = self._collect_native(optimizations)  # as Polars: no engine's collect override runs
    size = chunk_size or max(frame.height, 1)
    return (frame.slice(i, size) for i in range(0, frame.height, size))


def sink_batches(self: Any, function: Callable[[Any], Any], *, chunk_size: int | None = None,
                 maintain_order: bool = True, lazy: bool = False, engine: str = "auto",
                 optimizations: Any = None) -> Any:
    """Calls `function` on each batch of the result; a True from it stops the sink."""
    from frazil.engine import foreign_engine

    if (other := foreign_engine(engine)) is not None:
        return other.sink_batches(self, function, chunk_size=chunk_size, maintain_order=maintain_order,
                                  lazy=lazy, optimizations=optimizations)
    for batch in collect_batches(self, chunk_size=chunk_size, engine=engine, optimizations=optimizations):
        if function(batch):
            break
    return None


def collect_async(self: Any, *, gevent: bool = False, engine: str = "auto", optimizations: Any = None) -> Any:
    """An awaitable of the collected frame (the query runs on a worker thread)."""
    from frazil.engine import foreign_engine

    if (other := foreign_engine(engine)) is not None:
        return other.collect_async(self, optimizations=optimizations, gevent=gevent)
    import os

    from frazil.engine import is_distributed, select_engine

    if not is_distributed(engine) and select_engine(engine).name == "streaming" and \
            os.environ.get("POLARS_WARN_UNSTABLE") == "1":
        import warnings

        from frazil.exceptions import UnstableWarning

        warnings.warn("streaming mode is considered unstable. It may be changed at any point without it being "
                      "considered a breaking change.", UnstableWarning, stacklevel=2)
    import asyncio
    import concurrent.futures

    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    future = executor.submit(self._collect_native, optimizations)
    executor.shutdown(wait=False)
    if gevent:
        return future
    return _Awaitable(future, asyncio)


class _Awaitable:
    """Awaitable in whichever event loop awaits it (the future is bound to that loop then)."""

    def __init__(self, future: Any, asyncio: Any) -> None:
        self._future, self._asyncio = future, asyncio

    def __await__(self) -> Any:
        return self._asyncio.wrap_future(self._future).__await__()


def pipe_with_schema(self: Any, function: Callable[[Any, Any], Any]) -> Any:
    """function(self, the schema of self)."""
    return function(self, self.collect_schema())


# ---------------------------------------------------------------- Series


def value_counts(self: Any, *, sort: bool = False, parallel: bool = False, name: str | None = None,
                 normalize: bool = False) -> Any:
    """A frame of the distinct values and how often each occurs (or its share, normalize)."""
    from frazil.functions import col, len as count_rows

    name = name or ("proportion" if normalize else "count")
    if self.name == name:
        from frazil.exceptions import DuplicateError

        raise DuplicateError(f"duplicate column names; change `name` to fix ({name!r})")
    frame = self.to_frame()
    counts = frame.group_by(self.name, maintain_order=True).agg(count_rows().alias(name))
    if normalize:
        counts = counts.with_columns((col(name) / len(self)).alias(name))
    if sort:
        counts = counts.sort(name, descending=True, maintain_order=True)
    return counts


def scatter(self: Any, indices: Any, values: Any) -> Any:
    """Sets the values at `indices` in place (and returns the Series)."""
    from collections.abc import Iterable

    from frazil.series import Series

    if not isinstance(indices, Iterable) or isinstance(indices, str):
        indices = [indices]
    raw = indices.to_list() if isinstance(indices, Series) else list(indices)
    if any(i is None for i in raw):
        from frazil.exceptions import ComputeError

        raise ComputeError("index values should not be null")
    idx = [int(i) for i in raw]
    if not idx:
        return self
    if isinstance(values, Series):
        vals = values.to_list()
    elif isinstance(values, Iterable) and not isinstance(values, str):
        vals = list(values)
    else:
        vals = [values]
    if len(vals) == 1:
        vals = vals * len(idx)
    if any(v is not None for v in vals):
        # The values in the Series' dtype (Polars casts them: 0.5 into a String Series is "0.5").
        try:
            vals = Series("", vals).cast(self.dtype).to_list()
        except Exception:  # noqa: BLE001 - values of mixed types: each one converted on its own
            vals = [None if v is None else Series("", [v]).cast(self.dtype).to_list()[0] for v in vals]
    n = len(self)
    data = self.to_list()
    from frazil.exceptions import OutOfBoundsError

    for i, v in zip(idx, vals):
        if not -n <= i < n:
            raise OutOfBoundsError(f"index {i} is out of bounds for a Series of length {n}")
        data[i] = v
    out = Series(self.name, data, dtype=self.dtype)
    self._col = out._col
    return self


def series_set(self: Any, filter: Any, value: Any) -> Any:
    """Sets the values where the boolean `filter` is true in place (and returns the Series)."""
    mask = filter.to_list()
    if len(mask) != len(self):
        from frazil.exceptions import ShapeError

        raise ShapeError("filter and Series must have the same length")
    idx = [i for i, m in enumerate(mask) if m]
    return scatter(self, idx, [value]) if idx else self


def series_setitem(self: Any, key: Any, value: Any) -> None:
    """s[i] = v, s[[i, j]] = [v, w], s[mask] = v: in place, as Polars (scatter / set)."""
    from frazil.series import Series

    if isinstance(key, Series) and str(key.dtype) == "Boolean":
        series_set(self, key, value)
        return
    if isinstance(key, slice):
        key = list(range(len(self)))[key]
    if isinstance(key, bool) or not isinstance(key, (int, list, tuple, range, Series)) and \
            type(key).__module__ != "numpy":
        raise TypeError(f"cannot use {key!r} for Series item assignment")
    scatter(self, key, value)


def shrink_dtype(self: Any) -> Any:
    """The Series in the smallest integer (or float) dtype that holds its values."""
    from frazil import datatypes as dt

    t = self.dtype
    if not t.is_numeric() or len(self) == self.null_count():
        return self
    lo, hi = self.min(), self.max()
    if t.is_integer():
        # Signed stays signed, unsigned stays unsigned (Polars).
        cands = ((dt.UInt8, 2**8), (dt.UInt16, 2**16), (dt.UInt32, 2**32), (dt.UInt64, 2**64)) \
            if t.is_unsigned_integer() else ((dt.Int8, 2**7), (dt.Int16, 2**15), (dt.Int32, 2**31), (dt.Int64, 2**63))
        for cand, bound in cands:
            if (lo >= 0 if t.is_unsigned_integer() else lo >= -bound) and hi < bound:
                return self.cast(cand)
        return self
    if t == dt.Float64:
        import math

        import numpy as np

        vals = [v for v in self.to_list() if v is not None]
        if all(math.isnan(v) or math.isinf(v) or float(np.float32(v)) == v for v in vals):
            return self.cast(dt.Float32)
    return self


def map_elements(self: Any, function: Callable[[Any], Any], return_dtype: Any = None, *,
                 skip_nulls: bool = True) -> Any:
    """A Python function applied to every value (nulls skipped unless skip_nulls=False): slow,
    row by row in Python, as in Polars."""
    from frazil.series import Series

    out = [None if (v is None and skip_nulls) else function(v) for v in self.to_list()]
    return Series(self.name, out, dtype=return_dtype)


# ---------------------------------------------------------------- install


LAZY = {"describe": describe, "gather": gather, "select_seq": select_seq, "with_columns_seq": with_columns_seq,
        "match_to_schema": match_to_schema, "update": update, "collect_batches": collect_batches,
        "sink_batches": sink_batches, "collect_async": collect_async, "pipe_with_schema": pipe_with_schema}
FRAME = {"describe": describe, "sample": sample, "is_duplicated": is_duplicated, "is_unique": is_unique,
         "gather": gather, "select_seq": select_seq, "with_columns_seq": with_columns_seq,
         "rows_by_key": rows_by_key, "glimpse": glimpse, "estimated_size": estimated_size, "corr": corr,
         "to_dummies": to_dummies, "update": update, "match_to_schema": match_to_schema, "map_rows": map_rows,
         "is_sorted": is_sorted, "hash_rows": hash_rows, "map_columns": map_columns}
SERIES = {"value_counts": value_counts, "describe": series_describe, "to_dummies": series_to_dummies,
          "scatter": scatter, "set": series_set, "shrink_dtype": shrink_dtype, "estimated_size": estimated_size,
          "map_elements": map_elements, "rolling_map": rolling_map, "__setitem__": series_setitem}


def install(lazy_cls: type, frame_cls: type, series_cls: type) -> None:
    for table, cls in ((LAZY, lazy_cls), (FRAME, frame_cls), (SERIES, series_cls)):
        for name, fn in table.items():
            if name not in cls.__dict__:
                setattr(cls, name, fn)
