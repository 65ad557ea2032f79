"""Top-level repeat/ones/zeros/row_index/union/align_frames/collect_all_async and
GroupBy.map_groups against Polars."""
import asyncio

import polars as pl
import pytest

import frazil as fz


def plain(x):
    if hasattr(x, "rows"):
        return x.columns, [str(t) for t in x.dtypes], x.rows()
    if hasattr(x, "to_list"):
        return x.name, str(x.dtype), x.to_list()
    if isinstance(x, list):
        return [plain(i) for i in x]
    return x


CASES = [
    lambda m: m.repeat("x", 3, eager=True),
    lambda m: m.repeat(1, 2, dtype=m.Int8, eager=True),
    lambda m: m.ones(3, eager=True),
    lambda m: m.zeros(2, dtype=m.Int32, eager=True),
    lambda m: m.DataFrame({"a": [5, 6]}).with_columns(m.row_index()),
    lambda m: m.DataFrame({"a": [5, 6]}).select(m.row_index("i"), m.repeat(7, m.len())),
    lambda m: m.union([m.DataFrame({"a": [1]}), m.DataFrame({"a": [2]})]).sort("a"),
    lambda m: m.align_frames(m.DataFrame({"k": [1, 3], "x": [1, 2]}), m.DataFrame({"k": [2, 3], "y": [5, 6]}), on="k"),
    lambda m: m.DataFrame({"g": [1, 2, 1], "v": [1, 2, 3]}).group_by("g", maintain_order=True).map_groups(
        lambda d: d.tail(1)),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_matches_polars(case):
    assert plain(CASES[case](fz)) == plain(CASES[case](pl))


def test_collect_all_async():
    async def run():
        return await fz.collect_all_async([fz.LazyFrame({"a": [1]}), fz.LazyFrame({"b": [2]})])

    frames = asyncio.run(run())
    assert [f.columns for f in frames] == [["a"], ["b"]]
