"""Comma joins in random shapes against DuckDB: the join order (classes of equal keys,
the dynamic-programming tree, the greedy fallback) must never change an answer."""
from __future__ import annotations

import random

import pytest

import frazil as pl

duckdb = pytest.importorskip("duckdb")


def _tables(rng: random.Random, n: int) -> dict[str, pl.DataFrame]:
    out = {}
    for t in range(n):
        rows = rng.choice([0, 1, 3, 8, 20])
        cols = {}
        for c in range(3):
            span = rng.choice([2, 4, 10])
            cols[f"t{t}c{c}"] = [None if rng.random() < 0.1 else rng.randrange(span) for _ in range(rows)]
        out[f"t{t}"] = pl.DataFrame(cols, schema={k: pl.Int64 for k in cols})
    return out


def _query(rng: random.Random, n: int) -> str:
    conds = []
    # A spanning tree of equalities keeps most queries free of cross products; extra edges
    # make cycles and classes holding two columns of one table.
    for t in range(1, n):
        u = rng.randrange(t)
        conds.append(f"t{u}.t{u}c{rng.randrange(3)} = t{t}.t{t}c{rng.randrange(3)}")
    for _ in range(rng.randrange(3)):
        a, b = rng.sample(range(n), 2) if n > 1 else (0, 0)
        lhs = f"t{a}.t{a}c{rng.randrange(3)}"
        rhs = f"t{b}.t{b}c{rng.randrange(3)}"
        conds.append(f"{lhs} + 1 = {rhs}" if rng.random() < 0.2 else f"{lhs} = {rhs}")
    if rng.random() < 0.5:
        t = rng.randrange(n)
        conds.append(f"t{t}.t{t}c{rng.randrange(3)} < {rng.randrange(5)}")
    if rng.random() < 0.2 and n > 2:
        conds.pop(0)  # sometimes a component with no key: a cross product somewhere
    where = " and ".join(conds) if conds else "true"
    cols = ", ".join(f"t{t}.t{t}c{c}" for t in range(n) for c in range(3))
    return f"select {cols} from {', '.join(f't{t}' for t in range(n))} where {where}"


@pytest.mark.parametrize("seed", range(60))
def test_random_comma_join_matches_duckdb(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([2, 3, 4, 5, 6])
    tables = _tables(rng, n)
    query = _query(rng, n)
    con = duckdb.connect()
    for name, df in tables.items():
        con.register(name, df.to_arrow())
    expected = sorted(con.sql(query).fetchall(), key=repr)
    got = pl.SQLContext({k: v.lazy() for k, v in tables.items()}).execute(query).collect().rows()
    assert sorted(got, key=repr) == expected, query
