"""Reads every file of the apache/parquet-testing corpus with frazil and with pyarrow and
prints, per file, whether frazil's values equal pyarrow's, frazil raised a clear error, or
frazil was wrong (different values, or no error on a file of bad_data/) or crashed.

    python scripts/parquet_corpus.py [CORPUS_DIR]      (make parquet-corpus)

CORPUS_DIR holds data/ and bad_data/; by default $PARQUET_TESTING_DIR, or the files are
taken (git archive) from the mirror that the project's fetch tool made of
github:apache/parquet-testing when it is present. Each file is read in its own process, so
that a crash is counted, not fatal. Exits non-zero when anything is wrong or crashed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

MIRROR = "/work/.mirror/apache+parquet-testing/repo"

# Read in a child: frazil's table and pyarrow's as comparable Python values.
CHILD = r"""
import datetime, decimal, json, math, sys
path = sys.argv[1]
out = {}

def rows_of(t):
    # Timestamps as integers: some corpus files hold instants Python's datetime cannot.
    import pyarrow as pa

    def plain(ty):
        if pa.types.is_timestamp(ty):
            return pa.int64()
        if pa.types.is_struct(ty):
            return pa.struct([pa.field(f.name, plain(f.type)) for f in ty])
        if pa.types.is_map(ty):
            return pa.map_(plain(ty.key_type), plain(ty.item_type))
        if pa.types.is_list(ty) or pa.types.is_large_list(ty) or pa.types.is_list_view(ty) or pa.types.is_fixed_size_list(ty):
            return pa.large_list(plain(ty.value_type))
        return ty

    cols = []
    for c in t.columns:
        ty = plain(c.type)
        cols.append(c.cast(ty) if ty != c.type else c)
    return pa.table(cols, names=t.column_names).to_pylist()

try:
    import pyarrow.parquet as pq
    t = pq.read_table(path)
    out["pyarrow"] = {"columns": t.column_names, "rows": rows_of(t)}
except Exception as e:
    out["pyarrow_error"] = f"{type(e).__name__}: {e}"
import frazil as pl
try:
    df = pl.read_parquet(path)
    out["frazil"] = {"columns": df.columns, "rows": rows_of(df.to_arrow())}
except Exception as e:
    out["frazil_error"] = f"{type(e).__module__}.{type(e).__name__}: {e}"

def norm(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, list):
        # Maps come from pyarrow as lists of (key, value) tuples, from frazil as lists of
        # {key, value} structs.
        if v and all(isinstance(x, tuple) and len(x) == 2 for x in v):
            return [{"key": norm(k), "value": norm(x)} for k, x in v]
        return [norm(x) for x in v]
    if isinstance(v, tuple):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    if isinstance(v, (datetime.datetime, datetime.date, datetime.time, datetime.timedelta, decimal.Decimal)):
        return repr(v)
    if isinstance(v, bytes):
        return v.hex()
    return v

for k in ("pyarrow", "frazil"):
    if k in out:
        out[k]["rows"] = norm(out[k]["rows"])
print(json.dumps(out))
"""


def corpus_dir(arg: str | None) -> str | None:
    d = arg or os.environ.get("PARQUET_TESTING_DIR")
    if d:
        return d
    if os.path.isdir(MIRROR):
        tmp = tempfile.mkdtemp(prefix="parquet-testing-")
        subprocess.run(f"git -C {MIRROR} archive HEAD data bad_data | tar x -C {tmp}", shell=True, check=True)
        return tmp
    return None


def classify(path: str, bad: bool, python: str, env: dict) -> tuple[str, str]:
    try:
        p = subprocess.run([python, "-c", CHILD, path], capture_output=True, text=True, timeout=300, env=env)
    except subprocess.TimeoutExpired:
        return "crash", "timeout"
    if p.returncode != 0:
        return "crash", f"exit {p.returncode}: {p.stderr.strip()[-300:]}"
    r = json.loads(p.stdout)
    if "frazil_error" in r:
        e = r["frazil_error"]
        if "PanicException" in e or "InternalError" in e or e.startswith("builtins.") and "OSError" not in e:
            return "wrong", "unclear error " + e
        return "error", e
    if bad and "pyarrow" not in r:
        return "wrong", "bad_data file read without an error"
    if "pyarrow" not in r:
        return "equal", "pyarrow cannot read it (" + r["pyarrow_error"] + "); frazil read it"
    if r["frazil"]["columns"] != r["pyarrow"]["columns"]:
        return "wrong", f"columns {r['frazil']['columns']} vs pyarrow {r['pyarrow']['columns']}"
    if r["frazil"]["rows"] != r["pyarrow"]["rows"]:
        fr, pa = r["frazil"]["rows"], r["pyarrow"]["rows"]
        first = next((i for i, (a, b) in enumerate(zip(fr, pa)) if a != b), min(len(fr), len(pa)))
        return "wrong", f"{len(fr)} vs {len(pa)} rows; first difference at row {first}: " \
                        f"{fr[first] if first < len(fr) else None} vs {pa[first] if first < len(pa) else None}"[:400]
    return "equal", "pyarrow reads it too" if bad else ""


def main() -> int:
    d = corpus_dir(sys.argv[1] if len(sys.argv) > 1 else None)
    if d is None:
        print("parquet-testing corpus not found (set PARQUET_TESTING_DIR or fetch github:apache/parquet-testing)")
        return 0
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    counts: dict[str, dict[str, int]] = {}
    for sub, bad in (("data", False), ("bad_data", True)):
        files = []
        for base, _, names in os.walk(os.path.join(d, sub)):
            files += [os.path.join(base, n) for n in names if n.endswith((".parquet", ".parquet.encrypted"))]
        c = counts.setdefault(sub, {"equal": 0, "error": 0, "wrong": 0, "crash": 0})
        for f in sorted(files):
            kind, detail = classify(f, bad, sys.executable, env)
            c[kind] += 1
            print(f"{kind:6} {os.path.relpath(f, d)}" + (f"  {detail}" if detail else ""), flush=True)
    for sub, c in counts.items():
        print(f"{sub}: {c['equal']} equal, {c['error']} clear error, {c['wrong']} wrong, {c['crash']} crash")
    return 1 if any(c["wrong"] or c["crash"] for c in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
