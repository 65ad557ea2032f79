"""SQL over frames: ``frazil.sql``, ``SQLContext``, ``DataFrame.sql`` and ``LazyFrame.sql``.

The SQL is parsed by PostgreSQL's grammar (libpg_query) and translated in C++ into the
same lazy plan the DataFrame API builds, so every optimization applies to it. Names and
behaviour follow Polars' SQL interface.
"""
from __future__ import annotations

import inspect
from typing import Any, Mapping

from frazil import _frazil


def _as_lazy(frame: Any, name: str):
    """A native lazy frame from a frazil, Polars, pandas or pyarrow frame."""
    from frazil.dataframe import DataFrame
    from frazil.lazyframe import LazyFrame
    from frazil.series import Series

    if isinstance(frame, LazyFrame):
        return frame._ldf
    if isinstance(frame, Series):
        return DataFrame([frame]).lazy()._ldf
    if isinstance(frame, DataFrame):
        return frame.lazy()._ldf
    mod = type(frame).__module__ or ""
    if mod.startswith("polars") and type(frame).__name__ == "LazyFrame":
        frame = frame.collect()
    if mod.startswith(("polars", "pandas", "pyarrow")) or hasattr(frame, "__arrow_c_stream__"):
        return DataFrame(frame).lazy()._ldf
    raise TypeError(f"cannot register {type(frame).__name__!r} as SQL table {name!r}: expected a DataFrame or LazyFrame")


def _is_frame(obj: Any) -> bool:
    from frazil.dataframe import DataFrame
    from frazil.lazyframe import LazyFrame
    from frazil.series import Series

    if isinstance(obj, (DataFrame, LazyFrame, Series)):
        return True
    mod = type(obj).__module__ or ""
    name = type(obj).__name__
    return (mod.startswith("polars") and name in ("DataFrame", "LazyFrame", "Series")) or (
        mod.startswith("pandas") and name == "DataFrame"
    ) or (mod.startswith("pyarrow") and name in ("Table", "RecordBatch"))


def _caller_frames(names: set, skip: int) -> dict:
    """Frames named `names` in the calling scopes, innermost first (as Polars resolves them)."""
    found: dict = {}
    stack = inspect.stack()
    try:
        for info in stack[skip:]:
            scopes = (info.frame.f_locals, info.frame.f_globals)
            for scope in scopes:
                for name in names:
                    if name not in found and name in scope and _is_frame(scope[name]):
                        found[name] = scope[name]
            if len(found) == len(names):
                break
    finally:
        del stack
    return found


class SQLContext:
    """Run SQL queries against registered frames.

    >>> ctx = SQLContext(frames={"t": df}, eager=True)
    >>> ctx.execute("SELECT a, SUM(b) FROM t GROUP BY a")
    """

    def __init__(
        self,
        frames: Mapping[str, Any] | None = None,
        *,
        register_globals: bool | int = False,
        eager: bool = False,
        **named_frames: Any,
    ) -> None:
        self._ctx = _frazil.PySQLContext()
        self._eager = eager
        self._stack: list = []
        if register_globals:
            self.register_globals(None if register_globals is True else int(register_globals), _skip=2)
        self.register_many(frames, **named_frames)

    # ---- registration ----
    def register(self, name: str, frame: Any) -> "SQLContext":
        if frame is None:
            from frazil.dataframe import DataFrame

            frame = DataFrame()
        self._ctx.register(name, _as_lazy(frame, name))
        return self

    def register_many(self, frames: Mapping[str, Any] | None = None, **named_frames: Any) -> "SQLContext":
        for name, frame in {**(dict(frames) if frames else {}), **named_frames}.items():
            self.register(name, frame)
        return self

    def register_globals(self, n: int | None = None, *, all_compatible: bool = True, _skip: int = 1) -> "SQLContext":
        """Registers the frames among the caller's variables (the `n` most recent, if given)."""
        stack = inspect.stack()
        try:
            scope = stack[_skip].frame.f_globals
            scope = {**scope, **stack[_skip].frame.f_locals}
        finally:
            del stack
        names = [k for k, v in scope.items() if _is_frame(v)]
        if n is not None:
            names = names[-n:]
        for name in names:
            self.register(name, scope[name])
        return self

    def unregister(self, names: str | list) -> "SQLContext":
        for name in [names] if isinstance(names, str) else names:
            self._ctx.unregister(name)
        return self

    def tables(self) -> list:
        return self._ctx.tables()

    # ---- queries ----
    def execute(self, query: str, *, eager: bool | None = None):
        from frazil.lazyframe import LazyFrame

        lf = LazyFrame._from_native(self._ctx.execute(query))
        return lf.collect() if (self._eager if eager is None else eager) else lf

    def execute_global(self, query: str, *, eager: bool | None = None):
        return sql(query, eager=self._eager if eager is None else eager)

    # ---- context manager: tables registered inside the block are removed on exit ----
    def __enter__(self) -> "SQLContext":
        self._stack.append(set(self.tables()))
        return self

    def __exit__(self, *exc: Any) -> None:
        before = self._stack.pop() if self._stack else set()
        for name in set(self.tables()) - before:
            self._ctx.unregister(name)

    # SQLContext[LazyFrame] / SQLContext[DataFrame] in type annotations, as in Polars.
    def __class_getitem__(cls, item: Any) -> type:
        return cls

    def __repr__(self) -> str:
        return f"<SQLContext [tables:{len(self.tables())}] at 0x{id(self):x}>"


def sql(query: str, *, eager: bool = False):
    """Runs SQL over the frames in the caller's variables (named as the tables are).

    >>> df = pl.DataFrame({"a": [1, 2]})
    >>> pl.sql("SELECT a * 2 AS b FROM df").collect()
    """
    names = set(_frazil.sql_table_names(query))
    ctx = SQLContext(eager=eager)
    for name, frame in _caller_frames(names, 2).items():
        ctx.register(name, frame)
    return ctx.execute(query)


def sql_expr(sql: str | list):
    """A SQL expression as a frazil expression: ``sql_expr("a * 2 AS b")``."""
    from frazil.expr import wrap

    if isinstance(sql, (list, tuple)):
        return [wrap(_frazil.sql_expr(s)) for s in sql]
    return wrap(_frazil.sql_expr(sql))
