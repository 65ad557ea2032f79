"""LazyFrame: a lazy query, named and behaving as Polars' LazyFrame."""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from frazil import _args, _frazil
from frazil.expr import Expr, parse_into_expression, parse_many


class QueryOptFlags:
    """Which optimizations run; the names are Polars' (`QueryOptFlags.none()` turns all off).

    `type_coercion` is not an argument (as in Polars) and `none()` leaves it on; set the
    attribute to False to convert the plan without inserting casts: an expression that
    needs one is then an InvalidOperationError naming it.
    """

    _NAMES = (
        "predicate_pushdown",
        "projection_pushdown",
        "simplify_expression",
        "slice_pushdown",
        "comm_subplan_elim",
        "comm_subexpr_elim",
        "cluster_with_columns",
        "check_order_observe",
        "fast_projection",
        "sort_collapse",
        "pre_partition_hive",
        "join_order",
        "row_estimate",
    )
    # Polars removed it in 2.0; predicate_pushdown switches its rewrite.
    _REMOVED = {"collapse_joins": ("1.33.1", "2.0", "Use `predicate_pushdown` instead.")}

    def __init__(self, **flags: bool) -> None:
        self._check_removed("__init__", flags)
        for name in self._NAMES:
            setattr(self, name, True)
        self.type_coercion = True
        self.update(**flags)

    @classmethod
    def _check_removed(cls, method: str, flags: dict) -> None:
        from frazil.exceptions import ArgumentRemovedError

        for name in flags:
            if name in cls._REMOVED:
                deprecated, removed, hint = cls._REMOVED[name]
                raise ArgumentRemovedError(
                    f"the argument {name!r} for 'QueryOptFlags.{method}' was deprecated in version {deprecated} "
                    f"and has been removed in version {removed}. {hint}")

    def update(self, **flags: bool | None) -> "QueryOptFlags":
        """Sets the given flags (None leaves one as it is) and returns these flags (Polars)."""
        self._check_removed("update", flags)
        for name, value in flags.items():
            if name not in self._NAMES:
                raise TypeError(f"unknown optimization flag {name!r}")
            if value is not None:
                setattr(self, name, bool(value))
        return self

    @classmethod
    def none(cls, **enabled: bool) -> "QueryOptFlags":
        """Flags with every optimization switched off (type coercion stays on)."""
        cls._check_removed("none", enabled)
        flags = cls(**{n: False for n in cls._NAMES})
        for name, value in enabled.items():
            setattr(flags, name, bool(value))
        return flags

    @classmethod
    def _eager(cls) -> "QueryOptFlags":
        """The flags of Polars' eager operations (marked, so the GPU engine falls back quietly)."""
        flags = cls()
        flags._eager_mode = True
        return flags

    def __copy__(self) -> "QueryOptFlags":
        out = QueryOptFlags()
        out.__dict__.update(self.__dict__)
        return out

    def to_dict(self) -> dict:
        """The flags as a name -> bool mapping (with type_coercion)."""
        out = {n: getattr(self, n) for n in self._NAMES}
        out["type_coercion"] = bool(getattr(self, "type_coercion", True))
        return out

    def __repr__(self) -> str:
        return "QueryOptFlags(" + ", ".join(f"{n}={getattr(self, n)}" for n in self._NAMES) + ")"


def _flags(optimizations: QueryOptFlags | None, legacy: dict) -> dict:
    flags = (optimizations or QueryOptFlags()).to_dict()
    for name, value in legacy.items():
        if name == "no_optimization":
            if value:
                flags = QueryOptFlags.none().to_dict()
            continue
        if name == "engine":
            # An engine name or object (frazil/engine.py): checked, the flags do not change.
            from frazil.engine import select_engine

            if value not in ("distributed", "ray") and type(value).__name__ != "RayEngine":
                select_engine(value)
            continue
        if name in ("streaming", "background", "new_streaming"):
            continue
        if name not in flags:
            raise TypeError(f"unexpected keyword argument {name!r}")
        flags[name] = bool(value)
    return flags


def _positional_exprs(exprs: tuple) -> tuple:
    """select/with_columns' positional inputs as Polars reads them: one iterator (a generator)
    is its items; one dict is refused (its keys or items must be said explicitly)."""
    import collections.abc

    if len(exprs) == 1 and isinstance(exprs[0], collections.abc.Mapping):
        raise TypeError("Cannot pass a dictionary as a single positional argument.\nIf you merely want the *keys*, "
                        "use:\n  • df.method(*your_dict.keys())\nIf you need the key value pairs, use one of:\n"
                        "  • unpack as keywords:    df.method(**your_dict)\n  • build expressions:     "
                        "df.method(expr.alias(k) for k, expr in your_dict.items())")
    if len(exprs) == 1 and isinstance(exprs[0], collections.abc.Iterator):
        return tuple(exprs[0])
    return exprs


def _schema_warning(message: str) -> None:
    """Polars' PerformanceWarning for a schema property of a LazyFrame, for a user's call
    (frazil's own code reading the property does not warn)."""
    import sys
    import warnings

    caller = sys._getframe(2).f_globals.get("__name__", "")
    if caller == "frazil" or caller.startswith("frazil."):
        return
    from frazil.exceptions import PerformanceWarning

    warnings.warn(message, PerformanceWarning, stacklevel=3)


def _flags_object(optimizations: QueryOptFlags | None, legacy: dict) -> QueryOptFlags:
    """The flags an engine is given: the caller's object itself when no legacy keyword
    (no_optimization=, predicate_pushdown=, ...) changes it."""
    if not legacy:
        return optimizations if optimizations is not None else QueryOptFlags()
    flags = _flags(optimizations, legacy)
    type_coercion = flags.pop("type_coercion", True)  # an attribute, not an argument
    out = QueryOptFlags(**flags)
    out.type_coercion = type_coercion
    if optimizations is not None:
        out.pre_partition_hive, out.join_order = optimizations.pre_partition_hive, optimizations.join_order
    return out


def _sort_flags(value: Any, n: int, what: str) -> list:
    if isinstance(value, bool):
        return [value]
    value = list(value)
    if len(value) != n:
        raise ValueError(f"the length of `{what}` ({len(value)}) does not match the length of `by` ({n})")
    return value


_JOIN_TYPES = ("inner", "left", "right", "full", "outer", "semi", "anti", "cross")


class LazyFrame:
    """A lazy query over frames and files."""

    __slots__ = ("_ldf",)

    # The same signature as DataFrame.__init__ (Polars keeps the two equal).
    def __init__(self, data=None, schema=None, *, schema_overrides=None, strict=True, orient=None,  # noqa: ANN001
                 infer_schema_length=100, nan_to_null=False, height=None):
        from frazil.dataframe import DataFrame

        df = data if isinstance(data, DataFrame) else DataFrame(
            data, schema=schema, schema_overrides=schema_overrides, strict=strict, orient=orient,
            infer_schema_length=infer_schema_length, nan_to_null=nan_to_null, height=height)
        self._ldf = _frazil.PyLazyFrame.from_frame(df._df)

    def __getattr__(self, name: str):
        # Only reached for a name the class lacks: Polars' notice for one it removed.
        from frazil.removed_api import missing_attribute

        missing_attribute(self, "LazyFrame", name)

    @classmethod
    def _from_native(cls, ldf: Any) -> "LazyFrame":
        out = cls.__new__(cls)
        out._ldf = ldf
        return out

    def __contains__(self, key: str) -> bool:
        import warnings

        from frazil.exceptions import PerformanceWarning

        warnings.warn("checking membership of a LazyFrame using `in` requires resolving its schema, which is a "
                      "potentially expensive operation. Use `key in LazyFrame.collect_schema()` to check "
                      "membership without this warning.", PerformanceWarning, stacklevel=2)
        return key in self.collect_schema()

    def _wrap(self, ldf: Any) -> "LazyFrame":
        return LazyFrame._from_native(ldf)

    def sql(self, query: str, *, table_name: str = "self") -> "LazyFrame":
        """Runs SQL over this frame, registered as `table_name` (lazily)."""
        from frazil.sql import SQLContext

        return SQLContext({table_name: self}).execute(query)

    # ---- transformations ----
    def select(self, *exprs: Any, **named_exprs: Any) -> "LazyFrame":
        """A frame of the given expressions only (names come from the expressions or the keywords)."""
        natives = parse_many(_positional_exprs(exprs), str_as_lit=False)
        natives += [parse_into_expression(v, str_as_lit=False).alias(k) for k, v in named_exprs.items()]
        if not natives:  # nothing selected: the empty frame, no rows either (Polars)
            return self._wrap(_frazil.PyLazyFrame.from_frame(_frazil.PyDataFrame([])))
        return self._wrap(self._ldf.select(natives))

    def with_columns(self, *exprs: Any, **named_exprs: Any) -> "LazyFrame":
        """The frame with the given expressions added, or replacing columns of the same name."""
        natives = parse_many(_positional_exprs(exprs), str_as_lit=False)
        natives += [parse_into_expression(v).alias(k) for k, v in named_exprs.items()]
        return self._wrap(self._ldf.with_columns(natives))

    def filter(self, *predicates: Any, **constraints: Any) -> "LazyFrame":
        """The rows for which every predicate is true (null counts as false); predicates are
        read as Polars reads them (frazil.predicates: expressions, names, Boolean masks)."""
        from frazil import predicates as P

        parsed = P.parse(predicates, constraints, lambda: self.collect_schema().names())
        if parsed is P.KEEP_ALL:
            return self
        if parsed is P.DROP_ALL:
            return self.clear()
        return self._wrap(self._ldf.filter_all([e._pyexpr for e in parsed]))  # combined with & in C++

    def drop_nulls(self, subset: Any = None) -> "LazyFrame":
        """Rows without a null in `subset` (a name, names or Exprs; None: every column)."""
        if subset is None:
            cols: list = self.collect_schema().names()
        elif isinstance(subset, (str, Expr)):
            cols = [subset]
        else:
            cols = list(subset)
        if not cols:
            return self
        preds = [(_frazil.col(c) if isinstance(c, str) else parse_into_expression(c, str_as_lit=False)).function(
            "is_not_null", []) for c in cols]
        combined = preds[0]
        for p in preds[1:]:
            combined = combined.binary("&", p)
        return self._wrap(self._ldf.filter(combined))

    def where(self, *predicates: Any, **constraints: Any) -> "LazyFrame":
        """Another name for filter()."""
        return self.filter(*predicates, **constraints)

    def sort(self, by: Any, *more_by: Any, descending: bool | Sequence[bool] = False,
             nulls_last: bool | Sequence[bool] = False, maintain_order: bool = False,
             multithreaded: bool = True) -> "LazyFrame":
        """The rows ordered by the given columns or expressions (stable when maintain_order=True; nulls first unless nulls_last)."""
        keys = parse_many([by, *more_by], str_as_lit=False)
        return self._wrap(self._ldf.sort(keys, _sort_flags(descending, len(keys), "descending"),
                                         _sort_flags(nulls_last, len(keys), "nulls_last"), maintain_order))

    def slice(self, offset: int, length: int | None = None) -> "LazyFrame":
        """length rows starting at offset (negative offsets count from the end)."""
        # Polars' argument types: offset Int64, length UInt32.
        if not _args.INT64[0] <= offset <= _args.INT64[1]:
            raise OverflowError("Python int too large to convert to C long")
        if length is not None:
            if length < 0:
                raise ValueError(f"negative slice lengths ({length}) are invalid for LazyFrame")
            _args.int_in(length, _args.UINT32)
        return self._wrap(self._ldf.slice(offset, length))

    def head(self, n: int = 5) -> "LazyFrame":
        """The first n rows."""
        return self.slice(0, n)

    def limit(self, n: int = 5) -> "LazyFrame":
        """Another name for head()."""
        return self.head(n)

    def tail(self, n: int = 5) -> "LazyFrame":
        """The last n rows."""
        return self.slice(-_args.int_in(n, _args.UINT32), n)

    def first(self) -> "LazyFrame":
        """The first row."""
        return self.head(1)

    def last(self) -> "LazyFrame":
        """The last row."""
        return self.tail(1)

    def group_by(self, *by: Any, maintain_order: bool = False, **named_by: Any) -> "LazyGroupBy":
        """Groups the rows by the given keys; aggregate with .agg(...)."""
        keys = parse_many(by, str_as_lit=False)
        keys += [parse_into_expression(v, str_as_lit=False).alias(k) for k, v in named_by.items()]
        return LazyGroupBy(self._ldf.group_by(keys, maintain_order), source=(self, by, named_by, maintain_order))

    def rolling(self, index_column: Any, *, period: Any, offset: Any = None, closed: str = "right",
                group_by: Any = None) -> "LazyRollingGroupBy":
        """Windows of `period` over a sorted index column (Polars' rolling group_by): one row per
        row of the frame, the aggregations over its window (per group of `group_by`)."""
        return LazyRollingGroupBy(self, index_column, period, offset, closed, group_by)

    def set_sorted(self, column: Any, *more_columns: Any, descending: Any = False, nulls_last: Any = False) -> "LazyFrame":
        """A hint Polars uses for fast paths; frazil does not need it (the frame is unchanged)."""
        return self

    def join(self, other: "LazyFrame", on: Any = None, how: str = "inner", *, left_on: Any = None,
             right_on: Any = None, suffix: str = "_right", validate: str = "m:m", nulls_equal: bool = False,
             coalesce: bool | None = None, maintain_order: str | None = None, allow_parallel: bool = True,
             force_parallel: bool = False) -> "LazyFrame":
        """Joins with another frame on equal keys (how: inner, left, right, full, semi, anti, cross)."""
        if not isinstance(other, LazyFrame):
            raise TypeError(f"expected `other` to be a 'LazyFrame', not {type(other).__name__!r}")
        if nulls_equal:
            raise NotImplementedError("join(nulls_equal=True) is not supported yet")
        if validate != "m:m":
            raise NotImplementedError(f"join(validate={validate!r}) is not supported yet")
        if how not in _JOIN_TYPES:
            raise ValueError(f"`how` must be one of {{'inner', 'left', 'full', 'semi', 'anti', 'cross'}}, got {how}")
        if maintain_order not in (None, "none", "left", "right", "left_right", "right_left"):
            raise ValueError("`maintain_order` must be one of {'none', 'left', 'right', 'left_right', 'right_left'}, "
                             f"got {maintain_order!r}")
        # The engine's joins give rows in left order (each left row's matches in right order;
        # Polars' "left"/"left_right"), right joins in right order ("right"/"right_left").
        # Any other requested order sorts on row indices of both inputs.
        native = ("right", "right_left") if how == "right" else ("left", "left_right")
        if maintain_order not in (None, "none", *native) and how not in ("semi", "anti"):
            li, ri = "__frazil_left_row__", "__frazil_right_row__"
            joined = self.with_row_index(li).join(
                other.with_row_index(ri), on, how, left_on=left_on, right_on=right_on, suffix=suffix,
                coalesce=coalesce)
            order = [li, ri] if maintain_order.startswith("left") else [ri, li]
            return joined.sort(order, nulls_last=True, maintain_order=True).drop(li, ri)
        if how == "cross":
            return self._wrap(self._ldf.join(other._ldf, [], [], "cross", suffix, coalesce))
        if on is not None:
            left_on = right_on = on
        if left_on is None or right_on is None:
            raise ValueError("must specify `on` OR `left_on` and `right_on`")
        lo = parse_many([left_on], str_as_lit=False)
        ro = parse_many([right_on], str_as_lit=False)
        return self._wrap(self._ldf.join(other._ldf, lo, ro, how, suffix, coalesce))

    def unique(self, subset: Any = None, *, keep: str = "any", maintain_order: bool = False) -> "LazyFrame":
        """The rows with distinct values of subset (all columns by default); keep says which duplicate stays."""
        if subset is None:
            names: list = []
        elif isinstance(subset, str):
            names = [subset]
        else:
            names = list(subset)
        if keep not in ("first", "last", "any", "none"):
            raise ValueError(f"`keep` must be one of {{'first', 'last', 'any', 'none'}}, got {keep}")
        return self._wrap(self._ldf.unique(names, keep, maintain_order))

    def rename(self, mapping: dict, *, strict: bool = True) -> "LazyFrame":
        """The frame with columns renamed by a mapping (or a function of the old name)."""
        if callable(mapping):
            names = [n for n, _ in self._ldf.collect_schema()]
            mapping = {n: mapping(n) for n in names}
        elif not strict:
            # strict=False: names the frame does not have are skipped (Polars)
            names = {n for n, _ in self._ldf.collect_schema()}
            mapping = {old: new for old, new in mapping.items() if old in names}
        return self._wrap(self._ldf.rename(list(mapping.items())))

    def drop(self, *columns: Any, strict: bool = True) -> "LazyFrame":
        """The frame without the given columns."""
        from frazil.selectors import expand_selector, is_selector

        names: list = []
        for c in columns:
            names.extend([c] if isinstance(c, str) else expand_selector(self, c) if is_selector(c) else list(c))
        return self._wrap(self._ldf.drop(names))

    def with_row_index(self, name: str = "index", offset: int = 0) -> "LazyFrame":
        """The frame with a first column counting the rows from offset."""
        # Polars' checks: the index is UInt32, so the offset must be one of its values.
        if offset < 0:
            raise ValueError(f"`offset` input for `with_row_index` cannot be negative, got {offset}")
        if offset > 2**32 - 1:
            raise ValueError(
                f"`offset` input for `with_row_index` cannot be greater than the maximum index value, got {offset}")
        return self._wrap(self._ldf.with_row_index(name, offset))

    def explode(self, columns: Any, *more_columns: Any, empty_as_null: bool = False,
                keep_nulls: bool = True) -> "LazyFrame":
        """Every element of the given List columns on a row of its own, the other columns
        repeated (the lists of one row must have equal lengths). An empty list gives no row
        (one null row with `empty_as_null`), a null list one null row (none without
        `keep_nulls`)."""
        return self._wrap(self._ldf.explode(self._column_names([columns, *more_columns]), bool(empty_as_null),
                                            bool(keep_nulls)))

    def _column_names(self, items: Iterable) -> list:
        """Names from column names and column expressions (`pl.col("a", "b")`, `pl.all()`),
        flattening lists and tuples."""
        names: list = []
        for item in items:
            if isinstance(item, str):
                names.append(item)
            elif isinstance(item, Expr):
                names.extend(self.select(item).columns)
            elif isinstance(item, Iterable):
                names.extend(self._column_names(item))
            else:
                raise TypeError(f"expected a column name or expression, got {type(item).__name__!r}")
        return names

    def lazy(self) -> "LazyFrame":
        """The frame itself (already lazy)."""
        return self

    # ---- results ----
    def collect_schema(self) -> Any:
        """The output schema, resolved without running the query."""
        from frazil.datatypes import Schema, from_native

        return Schema([(n, from_native(t)) for n, t in self._ldf.collect_schema()])

    @property
    def schema(self) -> Any:
        """The output schema (see collect_schema)."""
        _schema_warning("Resolving the schema of a LazyFrame is a potentially expensive operation. Use "
                        "`LazyFrame.collect_schema()` to get the schema without this warning.")
        return self.collect_schema()

    @property
    def columns(self) -> list:
        """The output column names."""
        _schema_warning("Determining the column names of a LazyFrame requires resolving its schema, which is a "
                        "potentially expensive operation. Use `LazyFrame.collect_schema().names()` to get the "
                        "column names without this warning.")
        return [n for n, _ in self._ldf.collect_schema()]

    @property
    def dtypes(self) -> list:
        """The output dtypes, in column order."""
        _schema_warning("Determining the data types of a LazyFrame requires resolving its schema, which is a "
                        "potentially expensive operation. Use `LazyFrame.collect_schema().dtypes()` to get the "
                        "data types without this warning.")
        return self.collect_schema().dtypes()

    @property
    def width(self) -> int:
        """The number of output columns."""
        _schema_warning("determining the width of a LazyFrame requires resolving its schema, which is a "
                        "potentially expensive operation. Use `LazyFrame.collect_schema().len()` to get the "
                        "width without this warning.")
        return len(self._ldf.collect_schema())

    def collect(self, *, optimizations: QueryOptFlags | None = None, verify: bool | str | None = None,
                **kwargs: Any) -> Any:
        """Runs the query. Ctrl-C stops it (KeyboardInterrupt). `verify=True` also runs it
        without optimizations and raises ComputeError, with both plans, if the results
        differ; `verify="passes"` also with each optimization off in turn; None follows
        FRAZIL_VERIFY."""

        engine = kwargs.pop("engine", "auto")
        if engine == "ray" or type(engine).__name__ == "RayEngine":  # issue #24: frazil.ray
            from frazil.ray import collect_on_ray

            return collect_on_ray(self, engine)
        from frazil.engine import select_engine

        selected = select_engine(engine)
        background = bool(kwargs.pop("background", False))
        post_opt_callback = kwargs.pop("post_opt_callback", None)
        flags = _flags_object(optimizations, kwargs)
        if verify is not None and not background:
            return self._collect_native(flags, verify)
        return selected.collect(self, optimizations=flags, background=background,
                                post_opt_callback=post_opt_callback)

    def _collect_native(self, optimizations: QueryOptFlags | None, verify: bool | str | None = None) -> Any:
        """Runs the query on frazil's executor (what every local engine does)."""
        from frazil.dataframe import DataFrame

        return DataFrame._from_native(self._ldf.collect(_flags(optimizations, {}), verify))

    def execute(self, *, engine: Any = "auto", optimizations: QueryOptFlags | None = None) -> Any:
        """Runs the query into a QueryResult on the engine (read it back with `.lazy()`)."""
        from frazil.engine import select_engine

        return select_engine(engine).execute(self, optimizations=optimizations or QueryOptFlags())

    def profile(self, *, show_plot: bool = False, truncate_nodes: int = 0, figsize: tuple = (18, 8),
                optimizations: QueryOptFlags | None = None, **kwargs: Any) -> tuple:
        """Runs the query and times it.

        Returns ``(result, timings)``: the collected DataFrame, and a DataFrame with one
        row per plan node that ran (``node``, and ``start``/``end`` in microseconds since
        the query started; a node's span contains its inputs' spans), the first row
        being the optimization. ``show_plot=True`` also draws the spans as a Gantt chart
        (needs matplotlib); ``truncate_nodes`` shortens node names in it.
        """
        from frazil.dataframe import DataFrame

        result, timings = self._ldf.profile(_flags(optimizations, kwargs))
        result, timings = DataFrame._from_native(result), DataFrame._from_native(timings)
        if show_plot:
            _plot_profile(timings, truncate_nodes, figsize)
        return result, timings

    def __arrow_c_stream__(self, requested_schema=None):
        """Collects the query and exports the result as an Arrow PyCapsule stream (as
        Polars does), so DuckDB and pyarrow can read a LazyFrame directly."""
        return self.collect().__arrow_c_stream__(requested_schema)

    def explain(self, *, optimized: bool = True, optimizations: QueryOptFlags | None = None,
                format: str = "plain", **kwargs: Any) -> str:
        """The query plan as text, optimized by default (the same tree Polars prints).

        ``format="physical"`` prints the physical plan instead: the pipelines the optimized
        plan is lowered to (each a source, operators and a sink), the strategy every join,
        group-by and sort chose, and the rules they adapt by at run time.
        """
        if "tree_format" in kwargs:
            from frazil.exceptions import ArgumentRemovedError

            raise ArgumentRemovedError("the argument 'tree_format' for 'LazyFrame.explain' was deprecated in version "
                                       "0.20.30 and has been removed in version 2.0. Use `format=\"tree\"` instead.")
        engine = kwargs.get("engine")
        if engine in ("distributed", "ray") or type(engine).__name__ == "RayEngine":  # issue #24: the stage graph
            from frazil.distributed.stage_graph import explain_for_engine

            return explain_for_engine(self, engine, kwargs.get("partitions"), format)
        if format == "physical":
            if not optimized:
                raise ValueError('explain(format="physical") shows the plan that runs: it needs optimized=True')
            return self._ldf.explain_physical(_flags(optimizations, kwargs))
        if format not in ("plain", "tree"):
            raise ValueError(f"explain format must be 'plain', 'tree' or 'physical', got {format!r}")
        from frazil.engine import select_engine

        streaming = select_engine(kwargs.get("engine", "auto")).plan_engine == "streaming"
        return self._ldf.explain(optimized, _flags(optimizations, kwargs), streaming)

    def show_graph(self, *, optimized: bool = True, show: bool = True, output_path: str | None = None,
                   raw_output: bool = False, optimizations: QueryOptFlags | None = None, plan_stage: str = "ir",
                   **kwargs: Any) -> Any:
        """The query plan as a Graphviz picture (PNG bytes, a file, or the DOT text with raw_output=True).

        ``plan_stage="physical"`` with the streaming engine draws the pipelines the plan is
        lowered to; with another engine, as in Polars, the physical stage is the plan itself.
        """
        from frazil.engine import select_engine

        if plan_stage not in ("ir", "physical"):
            raise TypeError(f"invalid plan stage {plan_stage!r}")
        engine = select_engine(kwargs.get("engine", "auto"))
        if plan_stage == "physical" and engine.plan_engine == "streaming" and optimized:
            from frazil.physical_dot import physical_plan_dot

            dot = physical_plan_dot(self._ldf.explain_physical(_flags(optimizations, kwargs)))
        else:
            dot = self._ldf.to_dot(optimized, _flags(optimizations, kwargs))
        if raw_output:
            return dot
        import shutil
        import subprocess

        if shutil.which("dot") is None:
            raise ImportError("show_graph() needs Graphviz's `dot` to render; pass raw_output=True for the DOT text")
        png = subprocess.run(["dot", "-Tpng"], input=dot.encode(), capture_output=True, check=True).stdout
        if output_path:
            with open(output_path, "wb") as f:
                f.write(png)
        return None if output_path else png

    def map_batches(self, function: Any, **kwargs: Any) -> "LazyFrame":
        """A Python function from the frame to a new frame, at collect (frazil/lazy_map_batches.py)."""
        from frazil.lazy_map_batches import map_batches

        return map_batches(self, function, **kwargs)

    def sink_csv(self, path: Any, **kwargs: Any) -> Any:
        from frazil.io import sink_with_engine

        return sink_with_engine(self, "csv", path, kwargs)

    def sink_parquet(self, path: Any, **kwargs: Any) -> Any:
        from frazil.io import sink_with_engine

        return sink_with_engine(self, "parquet", path, kwargs)

    def sink_ndjson(self, path: Any, **kwargs: Any) -> Any:
        from frazil.io import sink_with_engine

        return sink_with_engine(self, "ndjson", path, kwargs)

    def sink_ipc(self, path: Any, **kwargs: Any) -> Any:
        from frazil.io import sink_with_engine

        return sink_with_engine(self, "ipc", path, kwargs)

    def __repr__(self) -> str:
        return "<LazyFrame>\n" + self._ldf.explain(False, {}, False)


class LazyGroupBy:
    """The result of LazyFrame.group_by: call .agg(...) or .len()."""

    def __init__(self, native: Any, source: tuple) -> None:
        self._gb = native
        self._source = source  # (frame, keys, named keys, maintain_order), for map_groups

    def map_groups(self, function: Any, schema: Any) -> LazyFrame:
        """A Python function from each group's frame to a frame, the results stacked, at
        collect (the whole input is gathered first: the optimizer sees it as opaque)."""
        frame, by, named_by, maintain_order = self._source

        def each_group(df: Any) -> Any:
            if df.height == 0:  # no groups, no rows (Polars)
                from frazil.dataframe import DataFrame

                return df.clear() if schema is None else DataFrame(schema=schema)
            return df.group_by(*by, maintain_order=maintain_order, **named_by).map_groups(function)

        # (Polars does not check the result against `schema`; None means unchanged.)
        return frame.map_batches(each_group, schema=schema, validate_output_schema=False, streamable=False)

    def agg(self, *aggs: Any, **named_aggs: Any) -> LazyFrame:
        """One row per group: the keys and the given aggregations."""
        natives = parse_many(aggs, str_as_lit=False)
        natives += [parse_into_expression(v, str_as_lit=False).alias(k) for k, v in named_aggs.items()]
        return LazyFrame._from_native(self._gb.agg(natives))

    def len(self, name: str | None = None) -> LazyFrame:
        """The number of rows of each group."""
        return LazyFrame._from_native(self._gb.len("len" if name is None else name))

    def count(self) -> LazyFrame:
        """The number of rows of each group (as len())."""
        return self.len("count")

    def _simple(self, method: str, **options: Any) -> LazyFrame:
        from frazil.functions import all as all_

        return self.agg(getattr(all_(), method)(**options))

    def sum(self) -> LazyFrame:
        """The sum of every other column per group."""
        return self._simple("sum")

    def mean(self) -> LazyFrame:
        """The mean of every other column per group."""
        return self._simple("mean")

    def min(self) -> LazyFrame:
        """The smallest value of every other column per group."""
        return self._simple("min")

    def max(self) -> LazyFrame:
        """The largest value of every other column per group."""
        return self._simple("max")

    def first(self, *, ignore_nulls: bool = False) -> LazyFrame:
        """The first value (ignore_nulls: the first non-null one) of every other column per group."""
        return self._simple("first", ignore_nulls=ignore_nulls)

    def last(self, *, ignore_nulls: bool = False) -> LazyFrame:
        """The last value (ignore_nulls: the last non-null one) of every other column per group."""
        return self._simple("last", ignore_nulls=ignore_nulls)

    def n_unique(self) -> LazyFrame:
        """The number of distinct values of every other column per group."""
        return self._simple("n_unique")

    def median(self) -> LazyFrame:
        """The median of every other column per group."""
        return self._simple("median")

    def quantile(self, quantile: float, interpolation: str = "nearest") -> LazyFrame:
        """The given quantile of every other column per group."""
        from frazil.functions import all as all_

        return self.agg(all_().quantile(quantile, interpolation))

    def all(self) -> LazyFrame:
        """Every other column's values of each group, as a list."""
        from frazil.functions import all as all_

        return self.agg(all_())

    def _keys(self) -> list:
        return self.agg().collect_schema().names()

    def head(self, n: int = 5) -> LazyFrame:
        """The first n rows of each group."""
        from frazil.functions import all as all_

        return self._rows(all_().head(n))

    def tail(self, n: int = 5) -> LazyFrame:
        """The last n rows of each group."""
        from frazil.functions import all as all_

        return self._rows(all_().tail(n))

    def _rows(self, per_group: Any) -> LazyFrame:
        keys = self._keys()
        out = self.agg(per_group)
        values = [c for c in out.collect_schema().names() if c not in keys]
        return out.explode(*values) if values else out

    def having(self, *predicates: Any) -> "LazyGroupBy":
        """Only the groups for which every (aggregated) predicate holds, for the agg that follows."""
        return _HavingGroupBy(self, predicates)


class _HavingGroupBy(LazyGroupBy):
    """A group-by whose aggregation keeps the groups where the having predicates hold: the
    predicates are aggregated beside the user's expressions, filtered on, then dropped."""

    def __init__(self, inner: LazyGroupBy, predicates: tuple) -> None:
        super().__init__(inner._gb, inner._source)
        self._predicates = list(getattr(inner, "_predicates", [])) + list(predicates)

    def map_groups(self, function: Any, schema: Any) -> LazyFrame:
        # (The having predicates would have to filter the groups first: not built.)
        raise NotImplementedError("map_groups after having() is not supported yet")

    def agg(self, *aggs: Any, **named_aggs: Any) -> LazyFrame:
        from frazil.expr import wrap
        from frazil.functions import col

        names = [f"__frazil_having_{i}" for i in range(len(self._predicates))]
        hidden = [wrap(parse_into_expression(p, str_as_lit=False)).alias(n) for p, n in zip(self._predicates, names)]
        out = super().agg(*aggs, *hidden, **named_aggs)
        keep = col(names[0])
        for n in names[1:]:
            keep = keep & col(n)
        return out.filter(keep).drop(*names)

    def having(self, *predicates: Any) -> "LazyGroupBy":
        return _HavingGroupBy(self, predicates)


class LazyRollingGroupBy:
    """`LazyFrame.rolling(...)`: `agg` gives one row per input row, the aggregations over the
    row's window (Expr.rolling), grouped by `group_by` first when given."""

    def __init__(self, lf: LazyFrame, index_column: Any, period: Any, offset: Any, closed: str, group_by: Any) -> None:
        self._lf = lf
        self._index = index_column
        self._period = period
        self._offset = offset
        self._closed = closed
        self._group_by = group_by

    def agg(self, *aggs: Any, **named_aggs: Any) -> LazyFrame:
        from frazil.expr import wrap
        from frazil.functions import col

        index = col(self._index) if isinstance(self._index, str) else self._index
        exprs = [wrap(e) for e in parse_many(aggs, str_as_lit=False)]
        exprs += [wrap(parse_into_expression(v, str_as_lit=False)).alias(k) for k, v in named_aggs.items()]
        windows = [e.rolling(index, period=self._period, offset=self._offset, closed=self._closed) for e in exprs]
        if self._group_by is None:
            return self._lf.select(index, *windows)
        keys = [col(k) if isinstance(k, str) else k
                for k in (self._group_by if isinstance(self._group_by, (list, tuple)) else [self._group_by])]
        first = "__frazil_first_row"
        # Rows grouped by key (groups in order of first appearance), each group in row order.
        return (self._lf.with_row_index(first)
                .select(*keys, index, *[w.over(keys) for w in windows], col(first).min().over(keys))
                .sort(first, maintain_order=True).drop(first))


def _plot_profile(timings, truncate_nodes: int, figsize: tuple) -> None:
    """A horizontal bar per plan node from its start to its end (profile(show_plot=True))."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ModuleNotFoundError("profile(show_plot=True) needs matplotlib: pip install matplotlib") from e
    nodes = timings["node"].to_list()
    if truncate_nodes > 0:
        nodes = [n if len(n) <= truncate_nodes else n[:truncate_nodes] + "..." for n in nodes]
    starts, ends = timings["start"].to_list(), timings["end"].to_list()
    fig, ax = plt.subplots(figsize=figsize)
    ax.barh(range(len(nodes)), [e - s for s, e in zip(starts, ends)], left=starts)
    ax.set_yticks(range(len(nodes)), labels=nodes)
    ax.invert_yaxis()
    ax.set_xlabel("time (µs since the query started)")
    ax.set_title("frazil query profile")
    plt.tight_layout()
    plt.show()
