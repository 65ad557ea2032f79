"""group_by_dynamic and upsample against Polars: every/period/offset, closed, label,
include_boundaries, start_by, group_by, integer and date indexes, iteration, errors."""
import datetime as dt

import polars as pl
import pytest

import frazil as fz

T = [dt.datetime(2021, 12, 16, h, m) for h, m in [(0, 0), (0, 30), (1, 0), (1, 30), (2, 0), (2, 30), (3, 0)]]
DATA = {"time": T, "n": [0, 1, None, 3, 4, 5, 6], "g": ["a", "a", "a", "b", "b", "a", "a"]}


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    assert got.rows() == want.rows()


CASES = [dict(every="1h"), dict(every="1h", closed="right"), dict(every="1h", closed="none"),
         dict(every="1h", include_boundaries=True, closed="both", label="right"), dict(every="1h", period="2h"),
         dict(every="1h", offset="30m"), dict(every="1h", offset="-30m", label="datapoint"),
         dict(every="1h", start_by="datapoint"), dict(every="1h", group_by="g"),
         dict(every="2h", period="3h", group_by="g", include_boundaries=True), dict(every="1d", start_by="monday"),
         dict(every=dt.timedelta(minutes=45), period="90m")]


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("kwargs", CASES, ids=[str(i) for i in range(len(CASES))])
def test_windows_match_polars(kwargs, lazy):
    def run(m):
        f = m.DataFrame(DATA).lazy() if lazy else m.DataFrame(DATA)
        out = f.group_by_dynamic("time", **kwargs).agg(m.col("n"), m.col("n").sum().alias("s"), m.len())
        return out.collect() if lazy else out

    same(run(fz), run(pl))


def test_integer_and_date_indexes():
    ints = {"i": [0, 1, 2, 5, 6, 9], "v": [1, 2, 3, 4, 5, 6]}
    for kw in [dict(every="3i"), dict(every="2i", period="5i", offset="-1i", include_boundaries=True)]:
        same(fz.DataFrame(ints).group_by_dynamic("i", **kw).agg(fz.col("v").sum()),
             pl.DataFrame(ints).group_by_dynamic("i", **kw).agg(pl.col("v").sum()))
    dates = {"d": [dt.date(2024, 1, 1), dt.date(2024, 1, 15), dt.date(2024, 3, 1)], "v": [1, 2, 3]}
    same(fz.DataFrame(dates).group_by_dynamic("d", every="1mo", include_boundaries=True).agg(fz.col("v").sum()),
         pl.DataFrame(dates).group_by_dynamic("d", every="1mo", include_boundaries=True).agg(pl.col("v").sum()))


def test_iteration_and_errors():
    got = [(k, d.shape) for k, d in fz.DataFrame(DATA).group_by_dynamic("time", every="1h", group_by="g")]
    want = [(k, d.shape) for k, d in pl.DataFrame(DATA).group_by_dynamic("time", every="1h", group_by="g")]
    assert got == want
    with pytest.raises(fz.exceptions.InvalidOperationError, match="not sorted"):
        fz.DataFrame({"t": [3, 1, 2]}).group_by_dynamic("t", every="1i").agg(fz.len())
    with pytest.raises(fz.exceptions.InvalidOperationError, match="parsed integer"):
        fz.DataFrame({"t": [1, 2]}).group_by_dynamic("t", every="1h").agg(fz.len())
    with pytest.raises(fz.exceptions.ComputeError, match="positive"):
        fz.DataFrame({"t": [1, 2]}).group_by_dynamic("t", every="-1i").agg(fz.len())


@pytest.mark.parametrize("kwargs", [dict(every="15m"), dict(every="1h", group_by="g", maintain_order=True)])
def test_upsample(kwargs):
    same(fz.DataFrame(DATA).upsample("time", **kwargs), pl.DataFrame(DATA).upsample("time", **kwargs))
    ints = {"i": [1, 4, 5, 9], "g": ["a", "a", "b", "b"]}
    same(fz.DataFrame(ints).upsample("i", every="2i", group_by="g", maintain_order=True),
         pl.DataFrame(ints).upsample("i", every="2i", group_by="g", maintain_order=True))
