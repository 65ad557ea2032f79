"""join_asof and merge_sorted as plan nodes, against Polars: they stay lazy (nothing runs
before collect()), explain() names them as Polars does, predicates and projections move
through them where that is valid, and results agree with Polars with every optimization
on and off, on random sorted inputs with nulls, duplicates, `by` groups and several chunks."""
import random
import warnings

import polars as pl
import pytest

import frazil as fz


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    assert got.rows() == want.rows()


def test_join_asof_is_lazy_and_explained():
    left = fz.LazyFrame({"t": [3, 1, 2], "x": [1, 2, 3]})  # unsorted: fails only at collect()
    right = fz.LazyFrame({"t": [1, 2], "y": [5, 6]})
    q = left.join_asof(right, on="t")
    plan = q.explain()
    assert plan.startswith("ASOF JOIN:\nLEFT PLAN ON: [col(\"t\")]")
    assert plan.endswith("END ASOF JOIN")
    with pytest.raises(fz.exceptions.InvalidOperationError, match="is not sorted"):
        q.collect()


def test_join_asof_pushdown_as_polars():
    def q(m):
        a = m.LazyFrame({"t": [1, 2, 3], "g": [1, 1, 2], "x": [1.0, 2.0, 3.0]})
        b = m.LazyFrame({"t": [1, 3], "g": [1, 2], "y": [5, 6]})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return a.join_asof(b, on="t", by="g").filter(m.col("x") > 1).filter(m.col("y") > 1).select("x", "y")

    plan = q(fz).explain()
    # The left-only predicate runs on the left input; the right one stays above the join.
    assert plan.index("FILTER col(\"y\") > 1") < plan.index("ASOF JOIN")
    assert "SELECTION: col(\"x\") > 1.0" in plan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        same(q(fz).collect(), q(pl).collect())


def _sorted_with_nulls(rng, n, lo, hi, nulls):
    keys = sorted(rng.randint(lo, hi) for _ in range(n))
    return [None] * nulls + keys


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("strategy", ["backward", "forward", "nearest"])
def test_join_asof_random_against_polars(seed, strategy):
    rng = random.Random(seed)
    nl, nr = rng.randint(0, 40), rng.randint(0, 40)
    left = {"t": _sorted_with_nulls(rng, nl, 0, 30, rng.randint(0, 2)), }
    left["v"] = list(range(len(left["t"])))
    right = {"t": _sorted_with_nulls(rng, nr, 0, 30, 0)}
    right["w"] = [i * 10 for i in range(len(right["t"]))]
    tol = rng.choice([None, 0, 2, 5.5])
    exact = rng.choice([True, False])
    schema_l, schema_r = {"t": pl.Int64, "v": pl.Int64}, {"t": pl.Int64, "w": pl.Int64}

    def run(m, flags=None):
        a = m.DataFrame(left, schema=schema_l)
        b = m.DataFrame(right, schema=schema_r)
        if m is fz and len(right["t"]) > 2:
            # Several chunks on the right.
            b = fz.concat([b.head(2), b.tail(len(right["t"]) - 2)], rechunk=False)
        q = a.lazy().join_asof(b.lazy(), on="t", strategy=strategy, tolerance=tol, allow_exact_matches=exact)
        q = q.filter(m.col("v") % 3 != 1).select("v", "w", "t")
        return q.collect(optimizations=flags) if flags is not None else q.collect()

    want = run(pl)
    same(run(fz), want)
    same(run(fz, fz.QueryOptFlags.none()), want)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("strategy", ["backward", "forward", "nearest"])
def test_join_asof_by_random_against_polars(seed, strategy):
    rng = random.Random(100 + seed)
    def side(n, name):
        rows = sorted(((rng.randint(0, 20), rng.choice([1, 2, 3, None])) for _ in range(n)), key=lambda r: r[0])
        return {"t": [r[0] for r in rows], "g": [r[1] for r in rows], name: list(range(n))}
    left, right = side(rng.randint(0, 30), "v"), side(rng.randint(0, 30), "w")
    schemas = ({"t": pl.Int64, "g": pl.Int64, "v": pl.Int64}, {"t": pl.Int64, "g": pl.Int64, "w": pl.Int64})

    def run(m):
        a = m.DataFrame(left, schema=schemas[0]).lazy()
        b = m.DataFrame(right, schema=schemas[1]).lazy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return a.join_asof(b, on="t", by="g", strategy=strategy).collect()

    same(run(fz), run(pl))


def test_merge_sorted_is_a_node():
    a = fz.LazyFrame({"k": [1, 3, None], "s": ["a1", "a3", "an"]})
    b = fz.LazyFrame({"k": [2, 3, None], "s": ["b2", "b3", "bn"]})
    q = a.merge_sorted(b, "k")
    assert q.explain().startswith("MERGE SORTED[maintain_order: false] ON ['k']:\nLEFT PLAN:")
    assert q.collect()["s"].to_list() == ["a1", "b2", "a3", "b3", "an", "bn"]


@pytest.mark.parametrize("seed", range(6))
def test_merge_sorted_random_against_polars(seed):
    rng = random.Random(200 + seed)
    def side(n):
        keys = sorted(rng.randint(0, 10) for _ in range(n))
        return {"k": keys, "s": [f"{seed}-{i}" for i in range(n)], "f": [rng.random() for _ in range(n)]}
    a, b = side(rng.randint(0, 20)), side(rng.randint(0, 20))
    schema = {"k": pl.Int64, "s": pl.String, "f": pl.Float64}

    def run(m, flags=None):
        q = m.DataFrame(a, schema=schema).lazy().merge_sorted(m.DataFrame(b, schema=schema).lazy(), "k")
        q = q.filter(m.col("f") > 0.3).select("s", "k")
        return q.collect(optimizations=flags) if flags is not None else q.collect()

    want = run(pl)
    same(run(fz), want)
    same(run(fz, fz.QueryOptFlags.none()), want)


def test_merge_sorted_keys_of_other_types():
    for ka, kb in [(["a", "c"], ["b", "c"]), ([1.5, float("nan")], [-0.0, 2.0])]:
        want = pl.DataFrame({"k": ka, "i": [0, 1]}).merge_sorted(pl.DataFrame({"k": kb, "i": [2, 3]}), "k")
        got = fz.DataFrame({"k": ka, "i": [0, 1]}).merge_sorted(fz.DataFrame({"k": kb, "i": [2, 3]}), "k")
        assert got["i"].to_list() == want["i"].to_list()


@pytest.mark.parametrize("n", [3, 4, 5, 7])
def test_merge_sorted_chains_flatten_and_agree(n):
    rng = random.Random(n)
    data = [{"a": sorted(rng.randint(0, 9) for _ in range(rng.randint(0, 6)))} for _ in range(n)]
    for d in data:
        d["i"] = [f"{k}" for k in range(len(d["a"]))]

    def chained(m):
        lfs = [m.DataFrame(d, schema={"a": pl.Int64, "i": pl.String}).lazy() for d in data]
        out = lfs[0]
        for lf in lfs[1:]:
            out = out.merge_sorted(lf, "a")
        return out, lfs

    got, lfs = chained(fz)
    want, _ = chained(pl)
    same(got.collect(), want.collect())
    same(got.collect(optimizations=fz.QueryOptFlags.none()), want.collect())
    # A chain and pl.merge_sorted of the same frames plan alike (FlattenMergeSorted).
    assert got.explain() == fz.merge_sorted(lfs, key="a").explain()
    assert got.explain().count("MERGE SORTED") == n - 1


def test_merge_sorted_unobserved_order_is_a_union():
    a, b = fz.LazyFrame({"a": [1, 2, 3]}), fz.LazyFrame({"a": [2, 3, 4]})
    q = a.merge_sorted(b, "a").unique()
    assert "MERGE_SORTED" in q.explain(optimizations=fz.QueryOptFlags(check_order_observe=False))
    assert "MERGE_SORTED" not in q.explain() and "UNION" in q.explain()
    assert sorted(q.collect()["a"].to_list()) == [1, 2, 3, 4]


def test_join_asof_by_groups_warn_only_when_out_of_order():
    df = {"a": [1, 1, 1, 2, 2, 2], "b": [2, 1, 3, 1, 2, 3]}
    for m in (fz, pl):
        with pytest.warns(UserWarning, match="Sortedness of columns cannot be checked"):
            m.DataFrame(df).join_asof(m.DataFrame(df), on="b", by="a")
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            d = m.DataFrame(df).sort("a", "b")
            d.join_asof(d, on="b", by="a")
            m.DataFrame(df).join_asof(m.DataFrame(df), on="b", by="a", check_sortedness=False)


@pytest.mark.parametrize("strategy", ["backward", "forward"])
def test_join_asof_string_keys(strategy):
    left = {"x": [None, "a", "b", "c", "d"]}
    right = {"x": [None, "apple", "b", "chutney"], "y": [9, 0, 1, 2]}
    same(fz.DataFrame(left).join_asof(fz.DataFrame(right), on="x", strategy=strategy),
         pl.DataFrame(left).join_asof(pl.DataFrame(right), on="x", strategy=strategy))


def test_merge_sorted_chain_under_unique_is_all_unions():
    lfs = [fz.LazyFrame({"a": [i], "b": [i]}) for i in range(5)]
    q = lfs[0]
    for lf in lfs[1:]:
        q = q.merge_sorted(lf, "a")
    plan = q.unique().explain()
    assert "MERGE_SORTED" not in plan and "UNION" in plan
    assert sorted(q.unique().collect()["a"].to_list()) == [0, 1, 2, 3, 4]
