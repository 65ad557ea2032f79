"""pre_partition_hive: group-bys and joins on hive keys become unions of one per partition
(Polars' test_multiscan hive rewrite tests, and results equal Polars' on and off)."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

FLAGS = [fz.QueryOptFlags(), fz.QueryOptFlags(pre_partition_hive=False), fz.QueryOptFlags.none()]


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("pre_partition_hive")
    pl.DataFrame({"foo": [1, 2, 3, 1, 2], "x": [10, None, 30, -1, 7], "f": [0.5, float("nan"), -0.0, None, 1.0]}
                 ).write_parquet(d / "left", partition_by="foo")
    pl.DataFrame({"bar": [1, 2, 4, 2], "y": [100, 200, 400, None]}).write_parquet(d / "right", partition_by="bar")
    return d


def _scans(m, d):
    return (m.scan_parquet(d / "left", hive_partitioning=True), m.scan_parquet(d / "right", hive_partitioning=True))


def _same_as_polars(build, d, sort_by, check_row_order=False):
    q = build(fz, d)
    want = build(pl, d).collect().sort(sort_by, nulls_last=True)
    for flags in FLAGS:
        got = pl.from_arrow(q.collect(optimizations=flags).to_arrow()).sort(sort_by, nulls_last=True)
        assert_frame_equal(got, want, check_row_order=check_row_order)


def test_group_by_on_a_hive_key_is_a_union_per_partition(data):
    def build(m, d):
        return _scans(m, d)[0].group_by("foo").agg(m.col("x").sum().alias("x_sum"), m.col("f").max(), m.len())

    plan = build(fz, data).explain()
    assert plan.startswith("UNION"), plan
    assert plan.count("AGGREGATE") == 3 and plan.count("is_in") == 3, plan
    off = build(fz, data).explain(optimizations=fz.QueryOptFlags(pre_partition_hive=False))
    assert "UNION" not in off and off.count("AGGREGATE") == 1, off
    _same_as_polars(build, data, "foo")


def test_maintain_order_group_by_is_not_split(data):
    q = _scans(fz, data)[0].group_by("foo", maintain_order=True).agg(fz.col("x").sum())
    assert "UNION" not in q.explain()
    want = _scans(pl, data)[0].group_by("foo", maintain_order=True).agg(pl.col("x").sum()).collect()
    assert_frame_equal(pl.from_arrow(q.collect().to_arrow()), want)


@pytest.mark.parametrize(("how", "branches"), [("inner", 2), ("left", 3), ("right", 3), ("semi", 2)])
def test_join_on_hive_keys_is_a_union_per_matching_partition(data, how, branches):
    def build(m, d):
        left, right = _scans(m, d)
        return left.join(right, left_on="foo", right_on="bar", how=how)

    plan = build(fz, data).explain()
    assert plan.startswith("UNION"), plan
    assert f"PLAN {branches - 1}:" in plan and f"PLAN {branches}:" not in plan, plan
    columns = ["foo", "x"] if how == "semi" else (["bar", "x", "y"] if how == "right" else ["foo", "x", "y"])
    _same_as_polars(build, data, columns)
    # frazil's joins keep the left (right join: right) order, split or not.
    q = build(fz, data)
    assert q.collect().equals(q.collect(optimizations=fz.QueryOptFlags(pre_partition_hive=False)))


def test_flag_off_keeps_one_join_reading_the_matching_partitions(data):
    left, right = _scans(fz, data)
    q = left.join(right, left_on="foo", right_on="bar")
    off = q.explain(optimizations=fz.QueryOptFlags(pre_partition_hive=False))
    assert "UNION" not in off and off.count("INNER JOIN:") == 1, off
    assert off.count("is_in") == 2, off  # foo=3 and bar=4 have no match
    none = q.explain(optimizations=fz.QueryOptFlags.none())
    assert "is_in" not in none


def test_full_join_and_non_hive_keys_are_left_alone(data):
    left, right = _scans(fz, data)
    assert "UNION" not in left.join(right, left_on="foo", right_on="bar", how="full").explain()
    assert "UNION" not in left.join(right, left_on="x", right_on="y").explain()
    assert "UNION" not in left.group_by("x").agg(fz.len()).explain()


def test_row_limits_and_row_indices_across_files_are_left_alone(data):
    for m in (fz,):
        limited = m.scan_parquet(data / "left", hive_partitioning=True, n_rows=3)
        indexed = m.scan_parquet(data / "left", hive_partitioning=True, row_index_name="idx")
        assert "UNION" not in limited.group_by("foo").agg(m.len()).explain()
        assert "UNION" not in indexed.group_by("foo").agg(m.col("idx").sum()).explain()
    want = pl.scan_parquet(data / "left", hive_partitioning=True, row_index_name="idx").group_by("foo").agg(
        pl.col("idx").sum()).collect().sort("foo")
    got = fz.scan_parquet(data / "left", hive_partitioning=True, row_index_name="idx").group_by("foo").agg(
        fz.col("idx").sum()).collect()
    assert_frame_equal(pl.from_arrow(got.to_arrow()).sort("foo"), want)
