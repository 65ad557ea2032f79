"""merge_sorted (LazyFrame, DataFrame, pl.merge_sorted) against Polars: ties (left rows
first), several keys, nulls last, empty sides, several frames, and the errors."""
import polars as pl
import pytest

import frazil as fz


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    assert got.rows() == want.rows()


A = {"k": [1, 2, 2, 5, 5], "s": ["a", "b", "c", "d", "e"]}  # nulls last in B only: Polars merges nulls as smallest
B = {"k": [0, 2, 3, 5, 9, None], "s": ["p", "q", "r", "s", "t", "u"]}


@pytest.mark.parametrize("lazy", [False, True])
def test_two_frames(lazy):
    def run(m):
        a, b = m.DataFrame(A), m.DataFrame(B)
        if lazy:
            return a.lazy().merge_sorted(b.lazy(), "k").collect()
        return a.merge_sorted(b, key="k")

    same(run(fz), run(pl))


def test_several_keys_frames_and_empty():
    f = [{"k1": [1, 3], "k2": [1, 2]}, {"k1": [1, 2], "k2": [2, 1]}, {"k1": [2, 3], "k2": [2, 1]}]
    same(fz.merge_sorted([fz.DataFrame(d) for d in f], key=["k1", "k2"]),
         pl.merge_sorted([pl.DataFrame(d) for d in f], key=["k1", "k2"]))
    empty = {"k": [], "s": []}
    schema = {"k": fz.Int64, "s": fz.String}
    same(fz.DataFrame(A).merge_sorted(fz.DataFrame(empty, schema=schema), "k"),
         pl.DataFrame(A).merge_sorted(pl.DataFrame(empty, schema={"k": pl.Int64, "s": pl.String}), "k"))
    chunked = fz.concat([fz.DataFrame(B).head(2), fz.DataFrame(B).tail(4)], rechunk=False)
    same(fz.DataFrame(A).merge_sorted(chunked, "k"), pl.DataFrame(A).merge_sorted(pl.DataFrame(B), "k"))


def test_errors():
    a = fz.LazyFrame({"x": [1, 2, 3]})
    with pytest.raises(TypeError, match="to be a 'LazyFrame'"):
        a.merge_sorted(a.collect(), key="x")
    with pytest.raises(fz.exceptions.ComputeError, match="at least one key"):
        a.merge_sorted(a, key=[])
    # Lazy, as Polars: the schemas are compared when the plan is resolved.
    q = a.merge_sorted(fz.LazyFrame({"x": [1.0]}), key="x")
    with pytest.raises(fz.exceptions.SchemaError, match="mismatching fields"):
        q.collect()
