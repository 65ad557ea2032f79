"""explain(format="physical"): the pipelines the optimized plan is lowered to, with the
strategy each join, group-by and sort chose; deterministic, reads no data, and the query
it describes gives Polars' answer."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz


def frames(n_big=5000, n_small=10):
    big = {"k": [i % 50 for i in range(n_big)], "v": list(range(n_big))}
    small = {"k": list(range(n_small)), "w": [i * 10 for i in range(n_small)]}
    return big, small


def test_physical_explain_lists_pipelines_and_join_strategy(tmp_path):
    big, small = frames()
    path = tmp_path / "big.parquet"
    pl.DataFrame(big).write_parquet(path, row_group_size=1000)
    q = (fz.scan_parquet(path).filter(fz.col("v") > 10)
         .join(fz.DataFrame(small).lazy(), on="k")
         .group_by("k").agg(fz.col("v").sum())
         .sort("k"))
    text = q.explain(format="physical")
    assert text.startswith("PHYSICAL PLAN: ")
    assert "PIPELINE 0" in text
    assert "parquet row groups: 5 of 1 file" in text
    assert "join" in text and "group by [col(\"k\")]" in text
    assert "sink: sort by [col(\"k\")]" in text
    assert q.explain(format="physical") == text  # deterministic
    expected = (pl.scan_parquet(path).filter(pl.col("v") > 10)
                .join(pl.DataFrame(small).lazy(), on="k")
                .group_by("k").agg(pl.col("v").sum()).sort("k").collect())
    assert_frame_equal(q.collect().to_polars(), expected)


def test_physical_explain_top_k_and_key_filter():
    big, small = frames()
    lb, ls = fz.DataFrame(big).lazy(), fz.DataFrame(small).lazy()
    top = lb.sort("v", descending=True).head(3)
    assert "top-k: rows [0, +3)" in top.explain(format="physical")
    grouped = lb.group_by("k").agg(fz.col("v").sum())
    q = ls.join(grouped, on="k")
    text = q.explain(format="physical")
    assert "key filter: keeps the rows whose inner join" in text
    expected = pl.DataFrame(small).lazy().join(
        pl.DataFrame(big).lazy().group_by("k").agg(pl.col("v").sum()), on="k").collect()
    assert_frame_equal(q.collect().to_polars(), expected, check_row_order=False)


def test_physical_explain_needs_the_optimized_plan_and_a_known_format():
    lf = fz.DataFrame({"a": [1, 2]}).lazy()
    with pytest.raises(ValueError, match="optimized=True"):
        lf.explain(format="physical", optimized=False)
    with pytest.raises(ValueError, match="explain format"):
        lf.explain(format="graph")
    assert lf.explain(format="tree")
