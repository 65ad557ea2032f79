"""The 22 PDS-H queries in the Polars API, one module each (q1.py ... q22.py).

Each module starts with `import frazil as pl` and defines `q(<table>: pl.LazyFrame, ...)`
whose parameter names are the tables it reads. `load(n, "polars")` compiles the very same
text with that one import line swapped, so frazil and Polars run identical query code.
"""
from __future__ import annotations

import inspect
import types
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
QUERY_NUMBERS = tuple(range(1, 23))
IMPORT_LINE = "import frazil as pl\n"


def source_path(n: int) -> Path:
    return HERE / f"q{n}.py"


def load(n: int, module: str = "frazil") -> Callable:
    """The function `q` of query n, with `pl` bound to `module` ("frazil" or "polars")."""
    path = source_path(n)
    text = path.read_text()
    if text.count(IMPORT_LINE) != 1:
        raise ValueError(f"{path} must contain exactly one line `{IMPORT_LINE.strip()}`")
    text = text.replace(IMPORT_LINE, f"import {module} as pl\n")
    mod = types.ModuleType(f"pdsh_{module}_q{n}")
    mod.__file__ = str(path)
    exec(compile(text, str(path), "exec"), mod.__dict__)
    return mod.q


def tables_of(fn: Callable) -> list[str]:
    """The table names a query function reads (its parameter names)."""
    return list(inspect.signature(fn).parameters)
