"""Random frames for the fuzzer, as Python source that builds them in either engine.

A frame is a list of typed columns plus the row counts of its chunks. `render` gives the
statements that build it with `pl` bound to polars or frazil (several chunks are built
by `pl.concat` of one-chunk frames), so the reproducer of a failure is exactly the code
that ran.
"""
from __future__ import annotations

import datetime as dt
import os
import decimal
import random
from dataclasses import dataclass, field

# dtype key -> (Python source of the dtype, category used by the expression generator)
DTYPES = {
    "Boolean": ("pl.Boolean", "bool"),
    "Int8": ("pl.Int8", "int"),
    "Int16": ("pl.Int16", "int"),
    "Int32": ("pl.Int32", "int"),
    "Int64": ("pl.Int64", "int"),
    "UInt8": ("pl.UInt8", "int"),
    "UInt16": ("pl.UInt16", "int"),
    "UInt32": ("pl.UInt32", "int"),
    "UInt64": ("pl.UInt64", "int"),
    "Float32": ("pl.Float32", "float"),
    "Float64": ("pl.Float64", "float"),
    "String": ("pl.String", "str"),
    "Binary": ("pl.Binary", "binary"),
    "Date": ("pl.Date", "date"),
    "Datetime_us": ('pl.Datetime("us")', "datetime"),
    "Datetime_ms": ('pl.Datetime("ms")', "datetime"),
    "Datetime_ns": ('pl.Datetime("ns")', "datetime"),
    "Duration_us": ('pl.Duration("us")', "duration"),
    "Time": ("pl.Time", "time"),
    "Decimal": ("pl.Decimal(12, 2)", "decimal"),
    "Null": ("pl.Null", "null"),
    "Int128": ("pl.Int128", "int"),
    "UInt128": ("pl.UInt128", "int"),
    "Float16": ("pl.Float16", "float"),
    "Array_i64_2": ("pl.Array(pl.Int64, 2)", "array"),
}
# How often each dtype is drawn (the common ones more often).
DTYPE_WEIGHTS = {
    "Boolean": 6, "Int8": 3, "Int16": 2, "Int32": 4, "Int64": 10, "UInt8": 2, "UInt16": 1, "UInt32": 3,
    "UInt64": 1, "Float32": 3, "Float64": 9, "String": 9, "Binary": 1, "Date": 3, "Datetime_us": 2,
    "Datetime_ms": 1, "Datetime_ns": 1, "Duration_us": 1, "Time": 1, "Decimal": 1, "Null": 1,
    "Int128": 1, "UInt128": 1, "Float16": 1,
}
# Array columns (and the arr functions over them) only when FUZZ_ARRAYS is set: drawing them
# would change every query of the fixed `make test` budget (tests/python/fuzz/test_fuzz.py).
if os.environ.get("FUZZ_ARRAYS"):
    DTYPE_WEIGHTS["Array_i64_2"] = 2
INT_RANGES = {
    "Int8": (-(2**7), 2**7 - 1), "Int16": (-(2**15), 2**15 - 1), "Int32": (-(2**31), 2**31 - 1),
    "Int64": (-(2**63), 2**63 - 1), "UInt8": (0, 2**8 - 1), "UInt16": (0, 2**16 - 1),
    "UInt32": (0, 2**32 - 1), "UInt64": (0, 2**64 - 1),
    "Int128": (-(2**127), 2**127 - 1), "UInt128": (0, 2**128 - 1),
}
STRINGS = ["", "a", "b", "A", "ab", "ba", "aa", "abc", "x1", "hello world", "a string longer than twelve bytes",
           "üñí", "ß", "  pad  ", "123", "-4", "1.5", "true", "Apple", "apple pie"]
NAN = float("nan")
INF = float("inf")
# Quarters are exact in binary: sums of them do not depend on the order of addition.
SPECIAL_FLOATS = [NAN, -0.0, 0.0, INF, -INF, 1.0, -1.0, 0.5]


@dataclass
class Column:
    name: str
    dtype: str
    values: list

    @property
    def category(self) -> str:
        return DTYPES[self.dtype][1]


@dataclass
class Frame:
    columns: list[Column]
    chunks: list[int] = field(default_factory=list)  # row counts of the chunks (empty: one chunk)

    @property
    def height(self) -> int:
        return len(self.columns[0].values) if self.columns else 0

    def schema_src(self) -> str:
        return "{" + ", ".join(f"{c.name!r}: {DTYPES[c.dtype][0]}" for c in self.columns) + "}"

    def render(self, var: str) -> str:
        """Statements that bind `var` to this frame (and `var_schema` to its schema)."""
        lines = [f"{var}_schema = {self.schema_src()}"]
        bounds = []
        start = 0
        for n in (self.chunks or [self.height]):
            bounds.append((start, start + n))
            start += n
        parts = []
        for lo, hi in bounds:
            data = "{" + ", ".join(f"{c.name!r}: [{', '.join(value_src(v) for v in c.values[lo:hi])}]"
                                   for c in self.columns) + "}"
            parts.append(f"pl.DataFrame({data}, schema={var}_schema)")
        if len(parts) == 1:
            lines.append(f"{var} = {parts[0]}")
        else:
            lines.append(f"{var} = pl.concat([\n    " + ",\n    ".join(parts) + ",\n])")
        return "\n".join(lines)

    def with_rows(self, keep: list[int]) -> "Frame":
        cols = [Column(c.name, c.dtype, [c.values[i] for i in keep]) for c in self.columns]
        return Frame(cols, [])

    def without_column(self, name: str) -> "Frame":
        return Frame([c for c in self.columns if c.name != name], list(self.chunks))


def value_src(v) -> str:
    if isinstance(v, float):
        if v != v:
            return "nan"
        if v in (INF, -INF):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, decimal.Decimal):
        return f"Decimal({str(v)!r})"
    if isinstance(v, (dt.datetime, dt.date, dt.time, dt.timedelta)):
        return repr(v)  # datetime.date(...), datetime.timedelta(...): the env imports datetime
    return repr(v)


PRELUDE = "import datetime\nfrom decimal import Decimal\nfrom math import nan, inf\n"


def env_for(module) -> dict:
    return {"pl": module, "datetime": dt, "Decimal": decimal.Decimal, "nan": NAN, "inf": INF}


class FrameGen:
    """Draws frames: every dtype, nulls, NaN, -0.0, +-inf, extreme ints, 0/1-row frames,
    chunked frames, and small value domains so that group and join keys repeat."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def height(self) -> int:
        r = self.rng.random()
        if r < 0.06:
            return 0
        if r < 0.16:
            return 1
        if r < 0.62:
            return self.rng.randint(2, 10)
        if r < 0.93:
            return self.rng.randint(11, 60)
        return self.rng.randint(200, 1500)

    def dtype(self) -> str:
        keys = list(DTYPE_WEIGHTS)
        return self.rng.choices(keys, weights=[DTYPE_WEIGHTS[k] for k in keys])[0]

    def frame(self, prefix: str = "c", width: int | None = None, height: int | None = None,
              fixed: list[tuple[str, str]] | None = None) -> Frame:
        """`fixed`: (name, dtype) columns that must be present (join keys shared with another frame)."""
        rng = self.rng
        n = self.height() if height is None else height
        width = width if width is not None else rng.randint(1, 6)
        cols = []
        for name, dtype in fixed or []:
            cols.append(Column(name, dtype, self.values(dtype, n, small=True)))
        taken = {c.name for c in cols}
        i = 0
        while len(cols) < width + len(fixed or []):
            name = f"{prefix}{i}"
            i += 1
            if name in taken:
                continue
            dtype = self.dtype()
            cols.append(Column(name, dtype, self.values(dtype, n)))
        rng.shuffle(cols)
        frame = Frame(cols)
        if n >= 2 and rng.random() < 0.35:
            k = rng.randint(2, min(4, n))
            cuts = sorted(rng.sample(range(1, n), k - 1))
            edges = [0, *cuts, n]
            frame.chunks = [b - a for a, b in zip(edges, edges[1:])]
        return frame

    def values(self, dtype: str, n: int, small: bool | None = None) -> list:
        rng = self.rng
        if dtype == "Null":
            return [None] * n
        null_p = rng.choice([0.0, 0.0, 0.1, 0.25, 0.5, 1.0]) if rng.random() < 0.9 else 0.0
        small = rng.random() < 0.6 if small is None else small
        draw = self._drawer(dtype, small)
        return [None if rng.random() < null_p else draw() for _ in range(n)]

    def _drawer(self, dtype: str, small: bool):
        rng = self.rng
        if dtype == "Boolean":
            return lambda: rng.random() < 0.5
        if dtype in INT_RANGES:
            lo, hi = INT_RANGES[dtype]
            if small:
                pool = [v for v in range(-3, 6) if lo <= v <= hi]
                return lambda: rng.choice(pool)
            edges = [lo, hi, lo + 1, hi - 1, 0, 1, -1 if lo < 0 else 2]

            def wide():
                if rng.random() < 0.3:
                    return rng.choice(edges)
                return rng.randint(max(lo, -1000), min(hi, 1000))

            return wide
        if dtype in ("Float16", "Float32", "Float64"):
            def flt():
                r = rng.random()
                if r < 0.25:
                    return rng.choice(SPECIAL_FLOATS)
                if small:
                    return rng.randint(-8, 8) / 4
                return rng.randint(-4000, 4000) / 4

            return flt
        if dtype == "String":
            pool = STRINGS[:6] if small else STRINGS
            return lambda: rng.choice(pool)
        if dtype == "Binary":
            return lambda: rng.choice([b"", b"a", b"\x00", b"ab", b"\xff\xfe", b"a longer binary value!"])
        if dtype == "Date":
            base = dt.date(1970, 1, 1)
            pool = [dt.date(1970, 1, 1), dt.date(1969, 12, 31), dt.date(2000, 2, 29), dt.date(2024, 12, 31)]
            if small:
                return lambda: rng.choice(pool)
            return lambda: base + dt.timedelta(days=rng.randint(-40000, 40000))
        if dtype.startswith("Datetime"):
            base = dt.datetime(1970, 1, 1)
            pool = [base, dt.datetime(1969, 12, 31, 23, 59, 59), dt.datetime(2024, 2, 29, 12, 30)]
            if small:
                return lambda: rng.choice(pool)
            ms = dtype.endswith("ms")
            span = 10**6 * 86400 * 20000

            def stamp():
                v = base + dt.timedelta(microseconds=rng.randint(-span, span))
                return v.replace(microsecond=(v.microsecond // 1000) * 1000) if ms else v

            return stamp
        if dtype == "Duration_us":
            return lambda: dt.timedelta(microseconds=rng.choice([0, 1, -1, 10**6, -(10**9), 86400 * 10**6 + 5]))
        if dtype == "Time":
            return lambda: dt.time(rng.randint(0, 23), rng.choice([0, 30, 59]), rng.choice([0, 59]),
                                   rng.choice([0, 999999]))
        if dtype == "Array_i64_2":
            def pair():
                return [None if rng.random() < 0.2 else rng.randint(-3, 5) for _ in range(2)]

            return pair
        if dtype == "Decimal":
            return lambda: decimal.Decimal(rng.randint(-10**6, 10**6)) / 100 if not small else \
                decimal.Decimal(rng.randint(-3, 3)) / 4
        raise ValueError(dtype)
