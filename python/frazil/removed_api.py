"""Names Polars 2.0 removed from its classes. Reaching one raises AttributeRemovedError
with Polars' hint (what to use instead), so code written for Polars 1 gets the same
explanation from frazil; any other missing name is a plain AttributeError."""
from __future__ import annotations

from typing import Any, NoReturn

_ROW_COUNT = ("use `with_row_index` instead. Note that the default column name has changed from 'row_nr' "
              "to 'index'.")
_APPROX_N_UNIQUE = "use `select(pl.all().approx_n_unique())` instead."

# class name -> removed attribute -> Polars' hint (the text after "was removed in version 2.0; ").
# (Polars also removed LazyFrame.profile; frazil keeps its profile(), docs/python/monitoring.md.)
REMOVED = {
    "DataFrame": {
        "__dataframe__": "the dataframe interchange protocol is not supported anymore. Consider using `to_arrow` "
                         "or `to_pandas` instead.",
        "melt": "use `DataFrame.unpivot` instead, with `index` instead of `id_vars` and `on` instead of "
                "`value_vars`",
        "with_row_count": _ROW_COUNT,
        "approx_n_unique": _APPROX_N_UNIQUE,
    },
    "LazyFrame": {
        "approx_n_unique": _APPROX_N_UNIQUE,
        "fetch": "use `collect` instead, in conjunction with a call to `head`.",
        "melt": "use `LazyFrame.unpivot` instead, with `index` instead of `id_vars` and `on` instead of "
                "`value_vars`",
        "with_context": "use `pl.concat(..., how='horizontal')` instead.",
        "with_row_count": _ROW_COUNT,
    },
    "Series": {
        "has_validity": "use `has_nulls` instead to check for the presence of null values.",
    },
    "Expr": {
        "rechunk": "rechunking within a query is not well-defined. Use `df.rechunk()` after collecting the "
                   "results instead.",
        "register_plugin": "use `polars.plugins.register_plugin_function` instead.",
        "shrink_dtype": "use `Series.shrink_dtype` instead.",
        "where": "use `filter` instead.",
        "agg_groups": "use `df.with_row_index().group_by(...).agg(pl.col('index'))` instead.",
        "flatten": "use `Expr.list.explode(keep_nulls=False, empty_as_null=False)` instead.",
    },
}


def missing_attribute(obj: Any, class_name: str, name: str) -> NoReturn:
    """The error for `obj.<name>` that the class does not have: Polars' removal notice for
    a name Polars 2.0 removed, else the usual AttributeError."""
    from frazil.exceptions import AttributeRemovedError

    hint = REMOVED.get(class_name, {}).get(name)
    if hint is not None:
        raise AttributeRemovedError(f"`{name}` was removed in version 2.0; {hint}", name=name, obj=obj)
    raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r}", name=name, obj=obj)
