"""join_where (inner) as a plan, against Polars: it stays lazy, explain() names the join
Polars plans (INNER JOIN for equalities, IEJOIN JOIN for inequalities, NESTED LOOP JOIN
otherwise), and random inputs with nulls, NaN and duplicates give Polars' pairs with every
optimization on and off (compared sorted: the order is unspecified)."""
import math
import random

import polars as pl
import pytest

import frazil as fz


def rows(df):
    """The columns and the rows sorted, NaN as a marker (NaN != NaN would fail equal rows)."""
    def cell(v):
        return "NaN" if isinstance(v, float) and math.isnan(v) else v
    def key(r):
        return tuple((v is None, v == "NaN", 0 if v is None or v == "NaN" else v) for v in r)
    return df.columns, sorted((tuple(cell(v) for v in r) for r in df.rows()), key=key)


def test_plans_as_polars():
    a = fz.LazyFrame({"t": [3, 1, 2], "x": [1.0, 2.0, 3.0]})
    b = fz.LazyFrame({"t": [1, 2], "y": [5.0, 6.0]})
    assert "IEJOIN JOIN" in a.join_where(b, fz.col("t") < fz.col("t_right")).explain()
    two = a.join_where(b, fz.col("t") < fz.col("t_right"), fz.col("x") > fz.col("y")).explain()
    assert "IEJOIN JOIN:\nLEFT PLAN ON: [col(\"t\"), col(\"x\")]\n" in two
    assert "RIGHT PLAN ON: [col(\"t\"), col(\"y\")]" in two
    assert a.join_where(b, fz.col("t") != fz.col("t_right")).explain().startswith(
        "NESTED LOOP JOIN ON col(\"t\") != col(\"t_right\"):")
    eq = a.join_where(b, fz.col("t") == fz.col("t_right"), fz.col("x") < fz.col("y")).explain()
    assert eq.startswith("FILTER col(\"x\") < col(\"y\")") and "INNER JOIN" in eq


PREDICATES = [
    lambda m: [m.col("a") < m.col("b")],
    lambda m: [m.col("a") >= m.col("b"), m.col("v") < m.col("w")],
    lambda m: [m.col("b") > m.col("a"), m.col("v") <= m.col("w"), m.col("a") + m.col("b") > 3],
    lambda m: [m.col("a") == m.col("b"), m.col("v") != m.col("w")],
    lambda m: [m.col("a") != m.col("b")],
    lambda m: [(m.col("a") > m.col("b")) | (m.col("v") > m.col("w"))],
]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("case", range(len(PREDICATES)))
def test_random_against_polars(seed, case):
    rng = random.Random(seed * 31 + case)
    def ints(n):
        return [rng.choice([None, *range(6)]) for _ in range(n)]
    def floats(n):
        return [rng.choice([None, math.nan, -0.0, 0.0, 1.5, 2.0, 3.0]) for _ in range(n)]
    left = {"a": ints(rng.randint(0, 12)), }
    left["v"] = floats(len(left["a"]))
    right = {"b": ints(rng.randint(0, 12))}
    right["w"] = floats(len(right["b"]))
    sl, sr = {"a": pl.Int64, "v": pl.Float64}, {"b": pl.Int64, "w": pl.Float64}

    def run(m, flags=None):
        q = m.LazyFrame(left, schema=sl).join_where(m.LazyFrame(right, schema=sr), *PREDICATES[case](m))
        return q.collect(optimizations=flags) if flags is not None else q.collect()

    want = rows(run(pl))
    assert rows(run(fz)) == want
    assert rows(run(fz, fz.QueryOptFlags.none())) == want


def test_lazy_until_collect_and_serde_round_trip(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("t\n1\n2\n3\n")
    q = fz.scan_csv(path).join_where(fz.LazyFrame({"u": [2, 3]}), fz.col("t") < fz.col("u"))
    path.write_text("t\n0\n5\n")  # read at collect(), not at join_where()
    assert rows(q.collect()) == (["t", "u"], [(0, 2), (0, 3)])
    for preds in ([fz.col("t") < fz.col("u")], [fz.col("t") != fz.col("u")],
                  [fz.col("t") <= fz.col("u"), fz.col("t") * 2 >= fz.col("u")]):
        q = fz.LazyFrame({"t": [1, 2, 3]}).join_where(fz.LazyFrame({"u": [2, 3]}), *preds)
        back = fz.LazyFrame.deserialize(q.serialize())
        assert back.serialize() == q.serialize()
        assert back.explain() == q.explain()
        assert rows(back.collect()) == rows(q.collect())


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
@pytest.mark.parametrize("dtypes", [("Int32", "Int64"), ("UInt8", "Int16"), ("Float32", "Float64"),
                                    ("Date", "Date"), ("Datetime", "Datetime")])
def test_mixed_dtypes_and_chunks(op, dtypes):
    import datetime as dt

    def values(name, n, seed):
        rng = random.Random(seed)
        xs = [rng.choice([None, 0, 1, 2, 3, 5]) for _ in range(n)]
        if name == "Date":
            return [None if x is None else dt.date(2024, 1, 1 + x) for x in xs]
        if name == "Datetime":
            return [None if x is None else dt.datetime(2024, 1, 1, x) for x in xs]
        return xs

    def run(m):
        left = m.DataFrame({"a": values(dtypes[0], 9, 1)}, schema={"a": getattr(m, dtypes[0])})
        right = m.DataFrame({"b": values(dtypes[1], 7, 2)}, schema={"b": getattr(m, dtypes[1])})
        left = m.concat([left, left.head(3)], rechunk=False)  # several chunks, duplicates
        pred = {"<": m.col("a") < m.col("b"), "<=": m.col("a") <= m.col("b"),
                ">": m.col("a") > m.col("b"), ">=": m.col("a") >= m.col("b")}[op]
        return left.lazy().join_where(right.lazy(), pred).collect()

    got, want = run(fz), run(pl)
    assert rows(got) == rows(want)
    assert [str(d) for d in got.dtypes] == [str(d) for d in want.dtypes]


@pytest.mark.parametrize("lower", [">=", ">"])
@pytest.mark.parametrize("upper", ["<", "<="])
@pytest.mark.parametrize("swap", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_range_joins_against_polars(lower, upper, swap, seed):
    """Point-in-interval joins: bounds on one left expression (point) or, sides swapped, on
    one right expression (both ends of the run found by binary search); the streaming
    engine's explain names them RANGE JOIN as Polars'."""
    rng = random.Random(seed)
    points = {"point": [rng.choice([None, *range(8)]) for _ in range(15)]}
    los = [rng.choice([None, *range(6)]) for _ in range(10)]
    spans = {"lo": los, "hi": [None if x is None else x + rng.randint(0, 3) for x in los]}
    ops = {">=": lambda a, b: a >= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b}

    def query(m):
        p = m.LazyFrame(points, schema={"point": m.Int64}).with_row_index()
        s = m.LazyFrame(spans, schema={"lo": m.Int64, "hi": m.Int64}).with_row_index()
        left, right = (s, p) if swap else (p, s)
        return left.join_where(right, ops[lower](m.col("point"), m.col("lo")), ops[upper](m.col("point"), m.col("hi")))

    assert rows(query(fz).collect()) == rows(query(pl).collect())
    assert "RANGE JOIN" in query(fz).explain(engine="streaming")
    assert "IEJOIN JOIN" in query(fz).explain()
    def join_lines(text):
        return [line for line in text.splitlines() if "JOIN" in line or "PLAN ON" in line]

    assert join_lines(query(fz).explain(engine="streaming")) == join_lines(query(pl).explain(engine="streaming"))


def test_uint64_keys_beyond_int64_compare_exactly() -> None:
    # The sort-based join compares keys as int64 or double; UInt64 above int64's maximum
    # goes through the nested loop instead, which evaluates the predicate itself.
    big = 2**63 + 5
    left = {"a": [big, big + 10, 1, None]}
    right = {"b": [big + 3, 2, big + 20, None]}
    got = (
        fz.DataFrame(left, schema={"a": fz.UInt64}).lazy()
        .join_where(fz.DataFrame(right, schema={"b": fz.UInt64}).lazy(), fz.col("a") < fz.col("b"))
        .collect().sort("a", "b").rows()
    )
    want = (
        pl.DataFrame(left, schema={"a": pl.UInt64}).lazy()
        .join_where(pl.DataFrame(right, schema={"b": pl.UInt64}).lazy(), pl.col("a") < pl.col("b"))
        .collect().sort("a", "b").rows()
    )
    assert got == want
