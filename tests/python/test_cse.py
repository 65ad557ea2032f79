"""Common subexpression and common subplan elimination: every query runs with both
eliminations on (the default), with both off, and in Polars; the results must agree, and
the optimized plan's shape is asserted on explain() and on the optimizer's trace."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz
from frazil import _frazil

BOTH_OFF = fz.QueryOptFlags(comm_subplan_elim=False, comm_subexpr_elim=False)

DATA = {
    "k": [1, 2, 3, 1, 2, 3, 1, 2, None, 3, 1, 2],
    "a": [5, -3, None, 8, 2, 2, 9, -1, 4, 0, 7, 3],
    "b": [1.5, 2.0, -0.5, None, 3.25, 0.0, 1.0, 8.0, -2.0, 4.5, 6.0, None],
}


def check(query, *datas, plan=(), absent=(), ordered=True):
    """Runs `query(pl, *lazy_frames)` in frazil (default, both eliminations off) and in
    Polars; returns frazil's optimized plan text."""
    pframes = [pl.DataFrame(d, strict=False) if isinstance(d, dict) else d for d in datas]
    fframes = [fz.DataFrame(p) for p in pframes]
    q = query(fz, *[f.lazy() for f in fframes])
    got = q.collect().to_polars()
    assert_frame_equal(got, query(pl, *[p.lazy() for p in pframes]).collect(), check_row_order=ordered)
    assert_frame_equal(q.collect(optimizations=BOTH_OFF).to_polars(), got, check_row_order=ordered)
    assert_frame_equal(q.collect(optimizations=fz.QueryOptFlags.none()).to_polars(), got, check_row_order=ordered)
    text = q.explain()
    for fragment in plan:
        assert fragment in text, f"{fragment!r} not in\n{text}"
    for fragment in absent:
        assert fragment not in text, f"{fragment!r} in\n{text}"
    assert "__FRAZIL_CSER" not in q.explain(optimizations=BOTH_OFF)
    assert "CACHE" not in q.explain(optimizations=BOTH_OFF)
    return text


def traced(query, *datas):
    """The CSE events (rule, before, after) of the optimizer's trace for one optimization of
    frazil's query."""
    q = query(fz, *[fz.DataFrame(pl.DataFrame(d, strict=False)).lazy() for d in datas])
    _frazil.set_trace(True)
    _frazil.take_trace()
    try:
        q.explain()
    finally:
        events = [e for e in _frazil.take_trace() if e[0] in ("comm_subplan_elim", "cache_states", "comm_subexpr_elim")]
        _frazil.set_trace(False)
    return events


def temporaries(text):
    """The CSE temporaries a plan defines (`.alias("__FRAZIL_CSER_0x..")`)."""
    out = []
    for part in text.split('.alias("__FRAZIL_CSER_0x')[1:]:
        out.append("__FRAZIL_CSER_0x" + part.split('"')[0])
    return out


# ---- expression CSE ----

def test_quantiles_with_different_probabilities_are_not_merged():
    def q(pl, lf):
        return lf.select(
            pl.col("a"),
            pl.col("a").quantile(0.25).alias("q1"),
            pl.col("a").quantile(0.75).alias("q3"),
            (pl.col("a").quantile(0.75) - pl.col("a").quantile(0.25)).alias("iqr"),
        )
    text = check(q, DATA)
    temps = temporaries(text)
    assert len(temps) == 2, text  # one per quantile
    assert 'col("a").quantile(0.25' in text and 'col("a").quantile(0.75' in text

    def scalars(pl, lf):
        return lf.select(pl.col("a").quantile(0.25).alias("q1"), pl.col("a").quantile(0.75).alias("q3"),
                         (pl.col("a").quantile(0.75) - pl.col("a").quantile(0.25)).alias("iqr"))
    check(scalars, DATA)


def test_shift_inside_when_then_stays_correct():
    def q(pl, lf):
        shifted = pl.col("a").shift(1)
        return lf.with_columns(
            pl.when(shifted > 2).then(shifted).otherwise(pl.col("k")).alias("x"),
            (shifted * 2).alias("y"),
            pl.when(shifted.is_null()).then(pl.col("b")).otherwise(shifted.cast(pl.Float64)).alias("z"),
        )
    text = check(q, DATA)
    assert any('col("a").shift(1).alias("__FRAZIL_CSER' in line for line in text.splitlines()), text

    def grouped(pl, lf):
        shifted = pl.col("a").shift(1)
        return lf.group_by("k", maintain_order=True).agg(
            pl.when(shifted > 2).then(shifted).otherwise(0).sum().alias("x"), shifted.max().alias("m"))
    # shift() runs per group there: nothing is hoisted. (Plan only: frazil's group_by does
    # not shift per group yet, with or without CSE.)
    assert "__FRAZIL_CSER" not in grouped(fz, fz.LazyFrame(DATA)).explain()


def test_no_aggregation_is_hoisted_out_of_group_by():
    def q(pl, lf):
        prod = pl.col("a") * pl.col("b")
        return lf.group_by("k", maintain_order=True).agg(
            prod.sum().alias("s"),
            prod.max().alias("m"),
            (pl.col("a").sum() * 2).alias("t"),
            (pl.col("a").sum() + pl.col("a").sum().abs()).alias("u"),
            pl.len(),
        )
    text = check(q, DATA)
    lines = text.splitlines()
    hoisted = [lines[i + 1] for i, line in enumerate(lines) if line.strip() == "WITH_COLUMNS:"]
    assert len(hoisted) == 1, text
    assert "__FRAZIL_CSER" in hoisted[0]
    for agg in (".sum()", ".max()", ".mean()", "len()"):
        assert agg not in hoisted[0], text
    assert 'col("a").sum()' in text  # still inside the aggregation


def test_windows_are_shared_whole():
    def q(pl, lf):
        w = pl.col("b").sum().over("k")
        return lf.select(pl.col("a"), (w + 1).alias("x"), (w * pl.col("a")).alias("y"))
    text = check(q, DATA)
    assert len(temporaries(text)) == 1 and ".over(" in text


def test_nested_repeats_become_a_chain():
    def q(pl, lf):
        c = pl.col("b")
        for _ in range(8):
            c = (c + c) / 2
        return lf.select(c.alias("c"), pl.col("k"))
    text = check(q, DATA)
    # One with_columns per level but the first, each computing its level from the one below.
    assert text.count("WITH_COLUMNS") == 7, text


# ---- common subplan elimination ----

def test_union_arms_with_different_filters_get_their_own_rows():
    def q(pl, lf):
        g = lf.group_by("k", maintain_order=True).agg(pl.col("a").sum().alias("s"), pl.col("b").max().alias("m"))
        return pl.concat([g.filter(pl.col("s") > 5), g.filter(pl.col("m") < 3.0), g.filter(pl.col("k").is_null())])
    text = check(q, DATA)
    events = traced(q, DATA)
    assert text.count("CACHE[id: 0]") == 3, text
    decisions = [e for e in events if e[0] == "cache_states"]
    assert decisions and all(e[2] == "kept" for e in decisions), decisions
    assert "OR of the consumers' filters below" in decisions[0][1]


def test_shared_conjuncts_go_below_the_cache():
    def q(pl, lf):
        g = lf.group_by("k", maintain_order=True).agg(pl.col("a").sum().alias("s"), pl.col("b").max().alias("m"))
        return pl.concat([g.filter((pl.col("m") > 1.0) & (pl.col("s") > 5)),
                          g.filter((pl.col("s") < 20) & (pl.col("m") > 1.0))])
    text = check(q, DATA)
    events = traced(q, DATA)
    assert text.count("CACHE") == 2, text
    assert any("1 shared conjunct(s) below" in e[1] for e in events), events


def test_self_join_after_group_by():
    def q(pl, lf):
        g = lf.group_by("k", maintain_order=True).agg(pl.col("a").sum().alias("s"), pl.col("b").mean().alias("m"))
        return g.join(g.select("k", pl.col("s").alias("s2")), on="k").sort("k")
    check(q, DATA, plan=["CACHE[id: 0]", "AGGREGATE"])


def test_subplan_read_with_different_projections_by_both_sides_of_a_join():
    def q(pl, lf):
        sub = (lf.filter(pl.col("a") > -2)
               .with_columns((pl.col("a") * 3).alias("c"), (pl.col("b") + 1).alias("d"))
               .group_by("k", maintain_order=True)
               .agg(pl.col("a").sum(), pl.col("b").sum(), pl.col("c").max(), pl.col("d").min()))
        return sub.select("k", "a").join(sub.select("k", "c"), on="k").sort("k")
    text = check(q, DATA)
    assert text.count("CACHE[id: 0]") == 2, text
    # Only what either side reads is computed under the cache: d is gone.
    assert '"d"' not in text and "(col(\"b\") + 1)" not in text, text


# ---- a PDS-H q7-like union of two join chains over the same scans ----

def _q7_tables():
    nations = ["FRANCE", "GERMANY", "PERU", "CHINA", "KENYA"]
    nation = {"n_nationkey": list(range(5)), "n_name": nations}
    customer = {"c_custkey": list(range(60)), "c_nationkey": [i % 5 for i in range(60)],
                "c_acctbal": [float(i * 7 % 23) for i in range(60)]}
    orders = {"o_orderkey": list(range(200)), "o_custkey": [(i * 13) % 60 for i in range(200)]}
    lineitem = {"l_orderkey": [i % 200 for i in range(600)], "l_suppkey": [(i * 7) % 20 for i in range(600)],
                "l_extendedprice": [float(100 + i % 37) for i in range(600)],
                "l_discount": [(i % 10) / 100 for i in range(600)],
                "l_year": [1994 + i % 4 for i in range(600)]}
    supplier = {"s_suppkey": list(range(20)), "s_nationkey": [(i * 3) % 5 for i in range(20)]}
    return supplier, lineitem, orders, customer, nation


def _q7_like(pl, supplier, lineitem, orders, customer, nation):
    n1 = nation.filter(pl.col("n_name") == "FRANCE")
    n2 = nation.filter(pl.col("n_name") == "GERMANY")
    # Shared too, but cheap to recompute: the cost model removes its cache.
    cust = customer.with_columns((pl.col("c_acctbal") * 2).alias("c_bal2"))

    def chain(cust_nation, supp_nation):
        return (cust.join(cust_nation, left_on="c_nationkey", right_on="n_nationkey")
                .rename({"n_name": "cust_nation"})
                .join(orders, left_on="c_custkey", right_on="o_custkey")
                .join(lineitem, left_on="o_orderkey", right_on="l_orderkey")
                .join(supplier, left_on="l_suppkey", right_on="s_suppkey")
                .join(supp_nation, left_on="s_nationkey", right_on="n_nationkey")
                .rename({"n_name": "supp_nation"}))

    return (pl.concat([chain(n1, n2), chain(n2, n1)])
            .filter(pl.col("l_year").is_between(1995, 1996))
            .with_columns((pl.col("l_extendedprice") * (1 - pl.col("l_discount"))).alias("volume"))
            .group_by("supp_nation", "cust_nation", "l_year")
            .agg(pl.col("volume").sum().alias("revenue"), pl.col("c_bal2").max().alias("bal"))
            .sort("supp_nation", "cust_nation", "l_year"))


def test_q7_like_union_of_join_chains_caches_what_the_cost_model_keeps():
    text = check(_q7_like, *_q7_tables())
    events = traced(_q7_like, *_q7_tables())
    cached = [e for e in events if e[0] == "comm_subplan_elim"]
    decisions = [e for e in events if e[0] == "cache_states"]
    # Three shared subplans: the two nation filters and the customer with_columns.
    assert len(cached) == 3, cached
    kept = [e for e in decisions if e[2] == "kept"]
    removed = [e for e in decisions if e[2].startswith("removed")]
    assert len(kept) == 2 and len(removed) == 1, decisions
    for e in decisions:
        assert "removal" in e[1] and "keep" in e[1], e
    # The nation filters are shared (each read by both chains); the customer scan is not.
    assert text.count("CACHE[id: ") == 4, text
    for block in text.split("CACHE[id: ")[1:]:
        following = block.splitlines()[1]
        assert "nation" in following or "n_name" in following, text
    assert text.count("c_bal2") >= 2  # the with_columns is computed in each chain again


def test_q7_like_without_the_cost_model_decision_to_remove():
    # The same shape with an expensive shared subplan: an aggregation. Both are kept.
    def q(pl, supplier, lineitem, orders, customer, nation):
        per_customer = orders.group_by("o_custkey").agg(pl.len().alias("n_orders"))
        left = customer.join(per_customer, left_on="c_custkey", right_on="o_custkey")
        right = per_customer.join(customer, left_on="o_custkey", right_on="c_custkey").select(
            pl.col("o_custkey").alias("c_custkey"), "c_nationkey", "c_acctbal", "n_orders")
        return pl.concat([left, right]).sort("c_custkey", "n_orders")
    text = check(q, *_q7_tables())
    events = traced(q, *_q7_tables())
    assert text.count("CACHE[id: 0]") == 2, text
    assert [e[2] for e in events if e[0] == "cache_states"] == ["kept"]


def test_explain_shows_caches_and_temporaries():
    def q(pl, lf):
        g = lf.group_by("k", maintain_order=True).agg(pl.col("a").sum().alias("s"))
        both = pl.concat([g.filter(pl.col("s") > 3), g.filter(pl.col("s") < 10)])
        return both.select((pl.col("s") * 2 + 1).alias("x"), ((pl.col("s") * 2) ** 2).alias("y"))
    text = check(q, DATA, plan=["CACHE[id: 0]", "WITH_COLUMNS:", '(col("s") * 2).alias("__FRAZIL_CSER_0x'])
    assert text.count("CACHE[id: 0]") == 2
    assert len(temporaries(text)) == 1


# ---- randomized: shared subplans and repeated expressions, both engines ----

def _random_query(seed):
    """A query (as a function of the engine module) that reuses one LazyFrame several
    times and repeats subexpressions, built from `seed`."""
    import random

    rng = random.Random(seed)

    def pred(pl, cols):
        c = rng.choice(cols)
        kind = rng.randrange(4)
        if kind == 0:
            return pl.col(c) > rng.randint(-2, 6)
        if kind == 1:
            return pl.col(c).is_not_null()
        if kind == 2:
            return (pl.col(c) < rng.randint(0, 8)) | (pl.col(c) == rng.randint(0, 3))
        return (pl.col(c) > rng.randint(-3, 3)) & pl.col(c).is_not_null()

    def expr(pl, depth=0):
        if depth > 2 or rng.random() < 0.3:
            return pl.col(rng.choice(["a", "b"])) if rng.random() < 0.8 else pl.lit(rng.randint(1, 3))
        op = rng.randrange(4)
        left, right = expr(pl, depth + 1), expr(pl, depth + 1)
        return [left + right, left * right, left - right, pl.when(left > 1).then(left).otherwise(right)][op]

    choices = [rng.random() for _ in range(8)]
    seeds = [rng.randrange(1 << 30) for _ in range(8)]

    def query(pl, lf):
        local = random.Random(seeds[0])
        rng.seed(seeds[1])
        shared_expr = expr(pl)
        shared = lf.with_columns(shared_expr.alias("c"), (shared_expr * 2).alias("d"))
        if choices[0] < 0.5:
            shared = shared.filter(pred(pl, ["a", "b", "c"]))
        if choices[1] < 0.4:
            shared = (shared.group_by("k", maintain_order=True)
                      .agg(pl.col("a").sum(), pl.col("b").max(), pl.col("c").min(), pl.col("d").sum()))
        cols = ["k", "a", "b", "c", "d"]
        shape = local.randrange(3)
        if shape == 0:  # a union of differently filtered arms
            arms = []
            for _ in range(local.randint(2, 3)):
                arm = shared
                if local.random() < 0.8:
                    arm = arm.filter(pred(pl, cols[1:]))
                arms.append(arm.select(cols))
            q = pl.concat(arms)
        elif shape == 1:  # a self-join reading different columns
            left = shared.select("k", "a", "b", "c").filter(pl.col("k").is_not_null())
            right = shared.select("k", pl.col("d").alias("d2"))
            if local.random() < 0.5:
                right = right.filter(pred(pl, ["d2"]))
            q = left.join(right, on="k")
        else:  # the shared part joined and unioned
            q = pl.concat([shared.select(cols), shared.filter(pl.col("a") > 0).select(cols)])
            q = q.join(shared.select("k", pl.col("b").alias("b2")).unique(maintain_order=True), on="k", how="left")
        e = expr(pl)
        q = q.with_columns((e + 1).alias("e1"), (e * e).alias("e2"))
        return q.sort(pl.all(), nulls_last=True)
    return query


@pytest.mark.parametrize("seed", range(40))
def test_random_shared_subplans_and_subexpressions(seed):
    data = {"k": [1, 2, None, 1, 3, 2, 1, 4, 3, None, 2, 1],
            "a": [3, -1, 4, 1, 5, None, 2, 6, 5, 3, 5, 8],
            "b": [2, 7, None, 1, 8, 2, 8, 1, 8, 2, 8, 4]}
    check(_random_query(seed), data)
