"""Cross-checks Parquet files written by frazil against pyarrow and polars.

    FRAZIL_PQ_VERIFY_DIR=/tmp/pqv build-pq/frazil_tests --gtest_filter='*FilesForExternalReaders*'
    .venv/bin/python tests/data/parquet/check_frazil_written.py /tmp/pqv

The frazil test writes the same formulas as make_fixtures.py (plus a few columns the
fixtures lack); every value read by pyarrow and by polars must equal the formula.
"""
import datetime
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_fixtures as mf  # noqa: E402


def norm(v):
    """Comparable plain-python form of a value."""
    if isinstance(v, float) and math.isnan(v):
        return "nan"
    if isinstance(v, datetime.time):
        return (v.hour, v.minute, v.second, v.microsecond)
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, tuple):
        return tuple(norm(x) for x in v)
    return v


def expected_flat(n):
    t = mf.flat_table(n)
    out = {name: t.column(name).to_pylist() for name in t.column_names}
    return out


def check_flat(path, n=200):
    exp = expected_flat(n)
    t = pq.read_table(path)
    fails = 0
    for name, want in exp.items():
        got = t.column(name)
        if name.startswith("time_"):
            # frazil stores Time as TIME(NANOS): compare as nanoseconds since midnight.
            got_ns = got.cast(pa.int64()).to_pylist()
            unit = {"time_ms": 10**6, "time_us": 10**3, "time_ns": 1}[name]
            want_ns = mf.flat_columns(n)[name][1]
            want_ns = [None if v is None else v * unit for v in want_ns]
            ok = got_ns == want_ns
        elif name == "fixed":
            ok = [None if v is None else bytes(v) for v in got.to_pylist()] == want
        elif name in ("ts_ms", "ts_ns", "ts_us"):
            ok = got.cast(pa.int64()).to_pylist() == pa.array(want, type=mf.flat_columns(n)[name][0]
                                                             if name in mf.flat_columns(n) else None).cast(pa.int64()).to_pylist()
        else:
            ok = norm(got.to_pylist()) == norm(want)
        if not ok:
            fails += 1
            print(f"  pyarrow {os.path.basename(path)}: column {name} differs ({got.type})")
    # polars
    import polars as pl
    df = pl.read_parquet(path)
    ref = pl.from_arrow(mf.flat_table(n))
    for name in ref.columns:
        if name.startswith("time_") or name in ("fixed",):
            continue
        a, b = df[name], ref[name]
        if a.dtype != b.dtype:
            b = b.cast(a.dtype)
        if not a.equals(b):
            fails += 1
            print(f"  polars {os.path.basename(path)}: column {name} differs ({a.dtype} vs {ref[name].dtype})")
    return fails


def check_nested(path, n=120):
    ref = mf.nested_table(n)
    t = pq.read_table(path)
    fails = 0
    for name in ref.column_names:
        got, want = t.column(name).to_pylist(), ref.column(name).to_pylist()
        if name == "mp":  # frazil has no map type: a list of {key, value} structs
            want = [None if v is None else [{"key": k, "value": x} for k, x in v] for v in want]
        if norm(got) != norm(want):
            fails += 1
            print(f"  pyarrow {os.path.basename(path)}: column {name} differs")
    import polars as pl
    df = pl.read_parquet(path)
    pref = pl.from_arrow(ref.drop_columns(["mp"]))
    for name in pref.columns:
        if not df[name].equals(pref[name]):
            fails += 1
            print(f"  polars {os.path.basename(path)}: column {name} differs")
    return fails


def main(d):
    fails = 0
    for f in sorted(os.listdir(d)):
        p = os.path.join(d, f)
        if f.startswith("flat_"):
            fails += check_flat(p)
        elif f.startswith("nested_"):
            fails += check_nested(p)
        print(f"checked {f}")
    print("OK" if fails == 0 else f"{fails} FAILURES")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main(sys.argv[1])
