"""Two scan_csv / scan_parquet calls of one file with equal options are one source: the
options are compared by value, so common subplan elimination caches the shared subplan.
Different options stay different sources."""
import polars as pl
from polars.testing import assert_frame_equal

import frazil as fz


def write(tmp_path):
    df = pl.DataFrame({"k": [1, 2, 3, 1] * 25, "v": list(range(100))})
    csv, pq = tmp_path / "t.csv", tmp_path / "t.parquet"
    df.write_csv(csv)
    df.write_parquet(pq)
    return str(csv), str(pq)


def self_join(m, scan, path, **right_options):
    a = scan(m, path).group_by("k").agg(m.col("v").sum())
    b = scan(m, path, **right_options).group_by("k").agg(m.col("v").sum())
    return a.join(b, on="k").sort("k")


def test_equal_options_are_one_source(tmp_path):
    csv, pq = write(tmp_path)
    for path, scan in ((csv, lambda m, p, **kw: m.scan_csv(p, **kw)), (pq, lambda m, p, **kw: m.scan_parquet(p, **kw))):
        q = self_join(fz, scan, path)
        assert q.explain().count("CACHE[id: 0]") == 2, q.explain()
        assert_frame_equal(q.collect().to_polars(), self_join(pl, scan, path).collect())


def test_different_options_are_different_sources(tmp_path):
    csv, _ = write(tmp_path)
    scan = lambda m, p, **kw: m.scan_csv(p, **kw)  # noqa: E731
    q = self_join(fz, scan, csv, n_rows=50)
    assert "CACHE" not in q.explain(), q.explain()
    assert_frame_equal(q.collect().to_polars(), self_join(pl, scan, csv, n_rows=50).collect())
