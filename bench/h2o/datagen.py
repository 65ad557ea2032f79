"""The H2O db-benchmark data (h2oai/db-benchmark `_data/groupby-datagen.R` and
`_data/join-datagen.R`), generated in-process with numpy: the same columns, value ranges
and sampling scheme, but numpy's random stream, not R's (the values differ, the shape and
the cardinalities do not). No NAs, random order (the `_0_0` variants).

Tables are cached as Parquet under data/h2o/ (git-ignored), named as the db-benchmark
names its CSV files: G1_1e7_1e2_0_0, J1_1e7_NA_0_0 with its right tables J1_1e7_1e1_0_0
(small), J1_1e7_1e4_0_0 (medium), J1_1e7_1e7_0_0 (big).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

DATA_DIR = Path(__file__).resolve().parents[2] / "data" / "h2o"
SEED = 108  # the generators' set.seed(108); numpy's stream differs from R's anyway


def pretty_sci(x: float) -> str:
    """1e7 -> '1e7', 100 -> '1e2' (leading digit and exponent, as the R scripts name files)."""
    x = int(x)
    digits = str(x)
    return f"{digits[0]}e{len(digits) - 1}"


def id_strings(values: np.ndarray, width: int) -> pa.Array:
    """sprintf("id%0<width>d", values) for positive ints, built as Arrow buffers without a
    Python string per row: a digit matrix, of which each row keeps its last ndigits bytes."""
    v = np.asarray(values, dtype=np.int64)
    n = len(v)
    powers = 10 ** np.arange(1, 19, dtype=np.int64)
    ndig = np.maximum(width, np.searchsorted(powers, v, side="right") + 1)
    maxd = int(ndig.max()) if n else width
    mat = np.empty((n, maxd + 2), dtype=np.uint8)
    rest = v.copy()
    for j in range(maxd + 1, 1, -1):
        mat[:, j] = rest % 10 + ord("0")
        rest //= 10
    # Shift the "id" prefix right to sit just before each row's first kept digit.
    keep = np.arange(maxd + 2)[None, :] >= (maxd - ndig)[:, None]
    rows = np.arange(n)
    mat[rows, maxd - ndig] = ord("i")
    mat[rows, maxd - ndig + 1] = ord("d")
    data = mat[keep]
    offsets = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(ndig + 2, out=offsets[1:])
    return pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))


def groupby_table(n: int, k: int, seed: int = SEED) -> pa.Table:
    """G1_<n>_<k>_0_0: id1, id2 'id%03d' of 1..K; id3 'id%010d' of 1..N/K; id4, id5 ints
    1..K; id6 ints 1..N/K; v1 ints 1..5; v2 ints 1..15; v3 uniform [0, 100) rounded to 6."""
    rng = np.random.default_rng(seed)
    nk = max(n // k, 1)

    def ints(hi: int) -> np.ndarray:
        return rng.integers(1, hi + 1, n, dtype=np.int32)

    cols = {
        "id1": id_strings(ints(k), 3),
        "id2": id_strings(ints(k), 3),
        "id3": id_strings(ints(nk), 10),
        "id4": pa.array(ints(k)),
        "id5": pa.array(ints(k)),
        "id6": pa.array(ints(nk)),
        "v1": pa.array(ints(5)),
        "v2": pa.array(ints(15)),
        "v3": pa.array(np.round(rng.uniform(0, 100, n), 6)),
    }
    return pa.table(cols)


def _split_xlr(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A permutation of 1..1.1n split into keys in both sides (0.9n), left only (0.1n) and
    right only (0.1n)."""
    key = rng.permutation(np.arange(1, int(n * 1.1) + 1, dtype=np.int64))
    a, b = int(n * 0.9), n
    return key[:a], key[a:b], key[b:]


def _sample_all(rng: np.random.Generator, x: np.ndarray, size: int) -> np.ndarray:
    """`size` values drawn from x in random order, every value of x present at least once."""
    assert len(x) <= size
    y = np.concatenate([x, rng.choice(x, size - len(x), replace=True)])
    return rng.permutation(y)


def _join_frame(rng: np.random.Generator, ids: dict[str, np.ndarray], value: str) -> pa.Table:
    # The R script adds id4/id5/id6 = sprintf("id%.0f", id1/id2/id3) and moves v1/v2 last.
    n = len(next(iter(ids.values())))
    cols = {name: pa.array(v.astype(np.int32)) for name, v in ids.items()}
    for src, dst in (("id1", "id4"), ("id2", "id5"), ("id3", "id6")):
        if src in ids:
            cols[dst] = id_strings(ids[src], 0)
    cols[value] = pa.array(np.round(rng.uniform(0, 100, n), 6))
    return pa.table(cols)


def join_tables(n: int, seed: int = SEED) -> dict[str, pa.Table]:
    """J1_<n>_NA_0_0 (x) and its right tables small (n/1e6 rows), medium (n/1e3), big (n)."""
    rng = np.random.default_rng(seed)
    k1 = _split_xlr(rng, n // 1_000_000)
    k2 = _split_xlr(rng, n // 1_000)
    k3 = _split_xlr(rng, n)

    def lhs(k):
        return np.concatenate([k[0], k[1]])

    def rhs(k):
        return np.concatenate([k[0], k[2]])

    x = _join_frame(rng, {"id1": _sample_all(rng, lhs(k1), n), "id2": _sample_all(rng, lhs(k2), n),
                          "id3": _sample_all(rng, lhs(k3), n)}, "v1")
    n1, n2 = n // 1_000_000, n // 1_000
    small = _join_frame(rng, {"id1": _sample_all(rng, rhs(k1), n1)}, "v2")
    medium = _join_frame(rng, {"id1": _sample_all(rng, rhs(k1), n2), "id2": _sample_all(rng, rhs(k2), n2)}, "v2")
    big = _join_frame(rng, {"id1": _sample_all(rng, rhs(k1), n), "id2": _sample_all(rng, rhs(k2), n),
                            "id3": _sample_all(rng, rhs(k3), n)}, "v2")
    return {"x": x, "small": small, "medium": medium, "big": big}


def groupby_name(n: int, k: int) -> str:
    return f"G1_{pretty_sci(n)}_{pretty_sci(k)}_0_0"


def join_names(n: int) -> dict[str, str]:
    return {"x": f"J1_{pretty_sci(n)}_NA_0_0", "small": f"J1_{pretty_sci(n)}_{pretty_sci(n // 1_000_000)}_0_0",
            "medium": f"J1_{pretty_sci(n)}_{pretty_sci(n // 1_000)}_0_0", "big": f"J1_{pretty_sci(n)}_{pretty_sci(n)}_0_0"}


def ensure_groupby(n: int, k: int) -> Path:
    """The Parquet path of G1_<n>_<k>_0_0, generated on first use."""
    path = DATA_DIR / f"{groupby_name(n, k)}.parquet"
    if not path.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        pq.write_table(groupby_table(n, k), tmp)
        tmp.rename(path)
    return path


def ensure_join(n: int) -> dict[str, Path]:
    """The Parquet paths of the join tables x, small, medium, big, generated on first use."""
    paths = {role: DATA_DIR / f"{name}.parquet" for role, name in join_names(n).items()}
    if not all(p.exists() for p in paths.values()):
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        for role, table in join_tables(n).items():
            tmp = paths[role].with_suffix(".tmp")
            pq.write_table(table, tmp)
            tmp.rename(paths[role])
    return paths
