"""GroupBy / LazyGroupBy shortcuts (median, quantile, all, head, tail, having) against Polars,
eager and lazy, with a null key and null values."""
import polars as pl
import pytest

import frazil as fz

DATA = {"k": [1, 1, 2, 2, 2, None], "v": [1.0, 2.0, 3.0, None, 5.0, 6.0], "i": [1, 2, 3, 4, 5, 6]}

CASES = {
    "median": lambda g, m: g.median(),
    "quantile": lambda g, m: g.quantile(0.5),
    "quantile_linear": lambda g, m: g.quantile(0.3, "linear"),
    "all": lambda g, m: g.all(),
    "head": lambda g, m: g.head(2),
    "tail": lambda g, m: g.tail(1),
    "having": lambda g, m: g.having(m.col("v").sum() > 3).agg(m.col("i").first()),
    "having_twice": lambda g, m: g.having(m.col("v").sum() > 3).having(m.len() > 2).agg(m.col("i").sum()),
}


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_group_by_method_matches_polars(case, lazy):
    f, p = fz.DataFrame(DATA), pl.DataFrame(DATA)
    if lazy:
        f, p = f.lazy(), p.lazy()
    got = CASES[case](f.group_by("k", maintain_order=True), fz)
    want = CASES[case](p.group_by("k", maintain_order=True), pl)
    if lazy:
        got, want = got.collect(), want.collect()
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    assert got.rows() == want.rows()


def test_median_of_strings_raises_as_polars():
    with pytest.raises(fz.exceptions.InvalidOperationError):
        fz.DataFrame({"k": [1], "s": ["a"]}).group_by("k").median()


@pytest.mark.parametrize("by", [("k",), (["k", "i"],), ("k", "i")])
def test_iterating_groups_matches_polars(by):
    got = [(k, g.rows()) for k, g in fz.DataFrame(DATA).group_by(*by, maintain_order=True)]
    want = [(k, g.rows()) for k, g in pl.DataFrame(DATA).group_by(*by, maintain_order=True)]
    assert got == want


def test_iterating_groups_by_an_expression():
    got = [(k, g.rows()) for k, g in fz.DataFrame(DATA).group_by(fz.col("i") % 2, maintain_order=True)]
    want = [(k, g.rows()) for k, g in pl.DataFrame(DATA).group_by(pl.col("i") % 2, maintain_order=True)]
    assert got == want
