"""Writes docs/python/api/*.md, the Python API reference, from frazil's own signatures and
docstrings: one page per API area. Run after changing the Python API:

    PYTHONPATH=python .venv/bin/python docs/gen_python_api.py
"""
from __future__ import annotations

import inspect
from pathlib import Path

import frazil
from frazil import (datatypes, exceptions, expr_dt, expr_str, functions, functions_string, functions_temporal, io,
                    lazyframe)

OUT = Path(__file__).resolve().parent / "python" / "api"

# page -> (title, introduction, [(heading, object)])
PAGES = {
    "dataframe": ("DataFrame", "The eager frame: columns of equal length, held natively.",
                  [("DataFrame", frazil.DataFrame), ("GroupBy", frazil.GroupBy)]),
    "lazyframe": ("LazyFrame", "Lazy queries: built step by step, optimized and run by collect().",
                  [("LazyFrame", frazil.LazyFrame), ("LazyGroupBy", lazyframe.LazyGroupBy),
                   ("QueryOptFlags", frazil.QueryOptFlags)]),
    "expressions": ("Expressions", "Column expressions and their string and date/time namespaces.",
                    [("Expr", frazil.Expr), ("Expr.str", expr_str.ExprStringNameSpace),
                     ("Expr.dt", expr_dt.ExprDateTimeNameSpace)]),
    "functions": ("Functions", "Top-level functions that make expressions or combine frames.",
                  [(name, getattr(module, name)) for module in (functions, functions_string, functions_temporal)
                   for name in sorted(dir(module))
                   if not name.startswith("_") and inspect.isfunction(getattr(module, name))
                   and getattr(module, name).__module__ == module.__name__]),
    "series": ("Series", "One named column.", [("Series", frazil.Series)]),
    "io": ("Input and output", "Reading and writing CSV and Parquet.",
           [(name, getattr(io, name)) for name in ("scan_csv", "read_csv", "write_csv", "scan_parquet",
                                                    "read_parquet", "write_parquet")]),
    "datatypes": ("Data types", "The dtypes, as Polars names them, and schemas.",
                  [("DataType", datatypes.DataType), ("Schema", datatypes.Schema),
                   ("CompatLevel", frazil.CompatLevel)]),
    "exceptions": ("Exceptions", "The error kinds frazil raises (Polars' names).",
                   [(name, getattr(exceptions, name)) for name in exceptions.__all__]),
}


def signature(obj) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


def doc(obj) -> str:
    return inspect.getdoc(obj) or "(no description yet)"


def members(cls):
    for name, member in cls.__dict__.items():
        if name.startswith("_") and name not in ("__init__", "__arrow_c_stream__", "__arrow_c_array__"):
            continue
        if isinstance(member, property):
            yield name, member.fget, True
        elif isinstance(member, (staticmethod, classmethod)):
            yield name, member.__func__, False
        elif inspect.isfunction(member):
            if name.startswith("__") and not member.__doc__:
                continue  # an undocumented dunder would only repeat object's text
            yield name, member, False


def page(title: str, intro: str, entries) -> str:
    lines = [f"# {title}", "", intro, "", "Generated from the docstrings by `docs/gen_python_api.py`.", ""]
    for heading, obj in entries:
        if inspect.isclass(obj):
            lines += [f"## {heading}", "", doc(obj), ""]
            for name, fn, is_property in members(obj):
                sig = "" if is_property else signature(fn)
                lines += [f"### `{heading.split('.')[-1] if '.' in heading else heading}.{name}{sig}`", "",
                          doc(fn), ""]
        else:
            lines += [f"## `{heading}{signature(obj)}`", "", doc(obj), ""]
    return "\n".join(lines).rstrip() + "\n"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (title, intro, entries) in PAGES.items():
        (OUT / f"{name}.md").write_text(page(title, intro, entries))
    print(f"wrote {len(PAGES)} pages to {OUT}")


if __name__ == "__main__":
    main()
