"""QueryOptFlags as Polars': update(), and fast_projection switching SimpleProjectionAndCollapse."""
import polars as pl
import pytest

import frazil as fz


def test_update_sets_and_returns_the_flags():
    f = fz.QueryOptFlags().update(slice_pushdown=False, predicate_pushdown=None)
    assert f.slice_pushdown is False and f.predicate_pushdown is True
    assert fz.QueryOptFlags.none().update(fast_projection=True).fast_projection is True
    with pytest.raises(TypeError, match="unknown optimization flag"):
        fz.QueryOptFlags().update(nope=True)
    # Polars' flags without a frazil pass are accepted, so Polars code runs.
    assert fz.QueryOptFlags(pre_partition_hive=False).pre_partition_hive is False


def test_fast_projection_switches_the_simple_projection_rule():
    lf = fz.LazyFrame({"x": [1, None], "y": [2.0, float("nan")], "z": ["a", None]}).select("z", "x")
    assert "simple π 2/2 [\"z\", \"x\"]" in lf.explain()
    off = lf.explain(optimizations=fz.QueryOptFlags(fast_projection=False))
    assert "SELECT [col(\"z\"), col(\"x\")]" in off and "π" not in off
    want = pl.LazyFrame({"x": [1, None], "y": [2.0, float("nan")], "z": ["a", None]}).select("z", "x").collect()
    for flags in (fz.QueryOptFlags(), fz.QueryOptFlags(fast_projection=False), fz.QueryOptFlags.none()):
        assert lf.collect(optimizations=flags).rows() == want.rows()
