"""LazyFrame.map_batches: a Python function from the frame to a new frame, run when the
query is collected. It is one opaque user function in the plan (a map_batches call over
all the columns that gives back a Struct of the output columns, unnested), so nothing is
pushed through it; the output schema is `schema`, or the input's when not given, and is
checked against what the function returns."""
from __future__ import annotations

from typing import Any, Callable

_COLUMN = "__frazil_map_batches"


def map_batches(self: Any, function: Callable[[Any], Any], *, predicate_pushdown: bool = False,
                projection_pushdown: bool = False, slice_pushdown: bool = False, schema: Any = None,
                validate_output_schema: bool = True, streamable: bool = False) -> Any:
    from frazil.dataframe import DataFrame
    from frazil.datatypes import Struct
    from frazil.expr import parse_into_expression, wrap
    from frazil.functions import col
    from frazil.series import Series
    from frazil.udf import _dtype, _register

    in_schema = self.collect_schema()
    names = in_schema.names()
    if not names:
        from frazil.exceptions import InvalidOperationError

        raise InvalidOperationError("LazyFrame.map_batches needs a frame with at least one column")
    out_schema = dict(schema) if schema is not None else dict(in_schema)

    def call(columns: list) -> Any:
        frame = DataFrame([Series._from_native(c).alias(n) for c, n in zip(columns, names)])
        out = function(frame)
        if not isinstance(out, DataFrame):
            raise TypeError(f"the function given to LazyFrame.map_batches returned {type(out).__name__}, not a DataFrame")
        got = dict(out.schema)
        if not validate_output_schema and set(got) >= set(out_schema):
            out = out.select(list(out_schema))  # the declared columns, in the declared order
            got = dict(out.schema)
        if list(got.items()) != list(out_schema.items()):
            from frazil.exceptions import ComputeError

            raise ComputeError(f"The output schema of 'LazyFrame.map' is incorrect. Expected: {out_schema}\nGot: {got}")
        return out.to_struct(_COLUMN).to_frame().to_series()._col

    first, rest = col(names[0]), [col(n) for n in names[1:]]
    expr = wrap(first._pyexpr.function("map_batches", [parse_into_expression(e) for e in rest],
                                       function=_register(call), return_dtype=_dtype(Struct(out_schema))))
    return self.select(expr.alias(_COLUMN)).unnest(_COLUMN)
