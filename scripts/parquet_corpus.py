"""Reads every file of the apache/parquet-testing corpus with frazil and with pyarrow and
prints, per file, whether frazil's values equal pyarrow's, frazil raised a clear error, or
frazil was wrong (different values, or no error on a file of bad_data/) or crashed.

    python scripts/parquet_corpus.py [CORPUS_DIR | --generated]      (make parquet-corpus)

CORPUS_DIR holds data/ and bad_data/; by default $PARQUET_TESTING_DIR, or the files are
taken (git archive) from the mirror that the project's fetch tool made of
github:apache/parquet-testing when it is present. Without any of them (or with
--generated) pyarrow writes equivalents of what the corpus covers (delta, byte-stream-split,
RLE dictionary, nested, INT96, decimals, LZ4_RAW, Brotli, page index, v2 pages) and damaged
copies as bad_data/ (tests/python/test_parquet_corpus.py runs that set in make test).
The files are read in a child process, one after the other; when the child dies, the file
it was reading is counted as a crash and the rest go on in a new child. Exits non-zero when
anything is wrong or crashed.
"""
from __future__ import annotations

import atexit
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile

MIRROR = "/work/.mirror/apache+parquet-testing/repo"

# Read in a child: frazil's table and pyarrow's as comparable Python values.
CHILD = r"""
import datetime, decimal, json, math, sys

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

def read_both(path):
    out = {}
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
    return out

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

for path in sys.argv[1:]:
    print(json.dumps({"path": path}), flush=True)  # where a crash happened
    out = read_both(path)
    for k in ("pyarrow", "frazil"):
        if k in out:
            out[k]["rows"] = norm(out[k]["rows"])
    print(json.dumps(out), flush=True)
"""


def corpus_dir(arg: str | None) -> str | None:
    d = arg or os.environ.get("PARQUET_TESTING_DIR")
    if d:
        return d
    if os.path.isdir(MIRROR):
        tmp = tempfile.mkdtemp(prefix="parquet-testing-")
        atexit.register(shutil.rmtree, tmp, ignore_errors=True)
        subprocess.run(f"git -C {MIRROR} archive HEAD data bad_data | tar x -C {tmp}", shell=True, check=True)
        return tmp
    return None


def judge(r: dict, bad: bool) -> tuple[str, str]:
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


def classify_all(files: list[str], python: str, env: dict, timeout: float = 300):
    """Yields (path, kind, detail) for each file, in order: a child reads them one after the
    other; the file a dead (or hung) child was on is a crash, and a new child goes on after it."""
    rest = list(files)
    while rest:
        proc = subprocess.Popen([python, "-c", CHILD, *rest], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
        try:
            out, err = proc.communicate(timeout=timeout * len(rest))
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            err = "timeout " + err
        current = None
        for line in out.splitlines():
            r = json.loads(line)
            if set(r) == {"path"}:
                current = r["path"]
                continue
            yield (current, *judge(r, is_bad(current)))
            rest.remove(current)
            current = None
        if proc.returncode != 0 or current is not None:
            if current is None:  # died before it began any file
                current = rest[0]
            yield current, "crash", f"exit {proc.returncode}: {err.strip()[-300:]}"
            rest.remove(current)


def is_bad(path: str) -> bool:
    return os.sep + "bad_data" + os.sep in path


def generate_equivalents(d: str) -> None:
    """Files as pyarrow writes them, covering the corpus's encodings, in d/data, and damaged
    copies of some in d/bad_data."""
    import decimal as dec

    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(20)
    n = 3000
    data, bad = os.path.join(d, "data"), os.path.join(d, "bad_data")
    os.makedirs(data, exist_ok=True)
    os.makedirs(bad, exist_ok=True)

    def nulls(a):
        return pa.compute.if_else(pa.array(np.arange(len(a)) % 7 == 3), pa.scalar(None, a.type), a)

    words = ["", "a", "apple", "applesauce", "banana", "x" * 40, "ünïcödé"]
    ints = nulls(pa.array(rng.integers(-(1 << 40), 1 << 40, n)))
    i32 = nulls(pa.array(rng.integers(-(1 << 30), 1 << 30, n).astype(np.int32)))
    f64 = rng.standard_normal(n) * 1e3
    f64[:5] = [np.nan, np.inf, -np.inf, -0.0, 0.0]
    floats = nulls(pa.array(f64))
    strings = nulls(pa.array([words[i % len(words)] + str(i // 3) for i in range(n)]))
    flat = pa.table({"i64": ints, "i32": i32, "f64": floats, "f32": pa.compute.cast(floats, pa.float32()),
                     "s": strings})

    def write(name, table, **kw):
        pq.write_table(table, os.path.join(data, name), **kw)

    for enc, cols in [("DELTA_BINARY_PACKED", ["i64", "i32"]), ("DELTA_LENGTH_BYTE_ARRAY", ["s"]),
                      ("DELTA_BYTE_ARRAY", ["s"]), ("BYTE_STREAM_SPLIT", ["f64", "f32", "i32", "i64"])]:
        for v in ("1.0", "2.0"):
            write(f"{enc.lower()}_v{v[0]}.parquet", flat.select(cols), use_dictionary=False, column_encoding=enc,
                  data_page_version=v, data_page_size=1024)
    write("rle_dictionary.parquet", flat, use_dictionary=True, data_page_size=512, dictionary_pagesize_limit=256)
    for codec in ("lz4", "brotli", "zstd", "gzip", "snappy", "none"):  # pyarrow's lz4 is LZ4_RAW
        write(f"codec_{codec}.parquet", flat, compression=codec, data_page_version="2.0", data_page_size=4096)
    write("page_index.parquet", flat, write_page_index=True, data_page_size=64, row_group_size=700)
    nested = pa.table({
        "l": pa.array([[1, 2], None, [], [None, 4]] * 50, pa.list_(pa.int32())),
        "ll": pa.array([[["a"], [], None], None, [[None, "bc"]], []] * 50, pa.list_(pa.list_(pa.string()))),
        "st": pa.array([{"a": 1, "b": ["x"]}, None, {"a": None, "b": None}, {"a": 3, "b": []}] * 50,
                       pa.struct([("a", pa.int64()), ("b", pa.list_(pa.string()))])),
        "m": pa.array([[("k", 1), ("j", None)], None, [], [("z", 3)]] * 50, pa.map_(pa.string(), pa.int64())),
    })
    for v in ("1.0", "2.0"):
        write(f"nested_v{v[0]}.parquet", nested, data_page_version=v, data_page_size=256, row_group_size=150)
    ts = pa.array([dt.datetime(2020, 1, 2, 3, 4, 5, 678901), None, dt.datetime(1900, 12, 31),
                   dt.datetime(2262, 4, 11)], pa.timestamp("us"))
    write("int96.parquet", pa.table({"ts": ts}), use_deprecated_int96_timestamps=True)
    dec.getcontext().prec = 50
    for p, sc in ((5, 2), (9, 0), (18, 3), (38, 10)):
        q = dec.Decimal(1).scaleb(-sc)
        vals = [dec.Decimal(int(x)).scaleb(-sc).quantize(q) for x in rng.integers(-(10 ** min(p, 17)) + 1,
                                                                                    10 ** min(p, 17), 200)]
        vals[1] = None
        t = pa.table({"d": pa.array(vals, pa.decimal128(p, sc))})
        write(f"decimal_{p}_{sc}_int.parquet", t, store_decimal_as_integer=True)
        write(f"decimal_{p}_{sc}_fixed.parquet", t)
    # Damaged copies: truncated, no magic, a footer length past the start, zeroed page bytes.
    src = open(os.path.join(data, "codec_snappy.parquet"), "rb").read()
    damaged = {
        "truncated_half.parquet": src[: len(src) // 2],
        "truncated_footer.parquet": src[:-5] + b"PAR1",
        "bad_magic.parquet": src[:-4] + b"PAR2",
        "footer_too_long.parquet": src[:-8] + (len(src) * 2).to_bytes(4, "little") + b"PAR1",
        "zeroed_pages.parquet": src[:4] + bytes(len(src) // 3) + src[4 + len(src) // 3:],
        "empty.parquet": b"",
    }
    for name, b in damaged.items():
        with open(os.path.join(bad, name), "wb") as f:
            f.write(b)


def main(argv: list[str]) -> int:
    generated = "--generated" in argv
    args = [a for a in argv if a != "--generated"]
    d = None if generated else corpus_dir(args[0] if args else None)
    if d is None:
        if not generated:
            print("parquet-testing corpus not found (set PARQUET_TESTING_DIR or fetch "
                  "github:apache/parquet-testing): reading pyarrow-written equivalents")
        d = tempfile.mkdtemp(prefix="parquet-equivalents-")
        atexit.register(shutil.rmtree, d, ignore_errors=True)
        generate_equivalents(d)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.path.join(root, "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    counts: dict[str, dict[str, int]] = {}
    for sub in ("data", "bad_data"):
        files = []
        for base, _, names in os.walk(os.path.join(d, sub)):
            files += [os.path.join(base, n) for n in names if n.endswith((".parquet", ".parquet.encrypted"))]
        c = counts.setdefault(sub, {"equal": 0, "error": 0, "wrong": 0, "crash": 0})
        for f, kind, detail in classify_all(sorted(files), sys.executable, env):
            c[kind] += 1
            print(f"{kind:6} {os.path.relpath(f, d)}" + (f"  {detail}" if detail else ""), flush=True)
    for sub, c in counts.items():
        print(f"{sub}: {c['equal']} equal, {c['error']} clear error, {c['wrong']} wrong, {c['crash']} crash")
    return 1 if any(c["wrong"] or c["crash"] for c in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
