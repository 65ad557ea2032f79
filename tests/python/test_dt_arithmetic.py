"""Arithmetic, comparisons and supertypes of temporal dtypes, differential against Polars:
Date/Datetime/Duration/Time of every time unit (the coarser unit wins), Date with Datetime,
zoned values, Duration scaled by integers (floor) and floats (truncated), and the
combinations Polars refuses (temporal with numbers, // on durations, mixed zones)."""
import datetime as dt

import polars as pl
import pytest

from fuzz.harness import assert_same

DATA = pl.DataFrame({
  "d": [dt.date(2024,1,31), None, dt.date(1969,12,31)],
  "t": [dt.datetime(2024,1,31,10), dt.datetime(2000,2,29), None],
  "tn": pl.Series([dt.datetime(2024,1,31,10), dt.datetime(2000,2,29), None], dtype=pl.Datetime("ns")),
  "tz": pl.Series([dt.datetime(2024,1,31,10), dt.datetime(2000,2,29), None]).dt.replace_time_zone("Asia/Kolkata"),
  "du": [dt.timedelta(days=1, hours=2), dt.timedelta(seconds=-30), None],
  "dums": pl.Series([dt.timedelta(days=1), dt.timedelta(milliseconds=5), None], dtype=pl.Duration("ms")),
  "tm": [dt.time(10), dt.time(23, 59), None],
  "i": [2, -3, None],
  "f": [1.5, -0.5, None],
})

CASES = {
 "d-d": lambda pl: pl.col("d") - pl.col("d"),
 "t-t": lambda pl: pl.col("t") - pl.col("t"),
 "t-tn": lambda pl: pl.col("t") - pl.col("tn"),
 "t-d": lambda pl: pl.col("t") - pl.col("d"),
 "d-t": lambda pl: pl.col("d") - pl.col("t"),
 "d+du": lambda pl: pl.col("d") + pl.col("du"),
 "du+d": lambda pl: pl.col("du") + pl.col("d"),
 "d-du": lambda pl: pl.col("d") - pl.col("du"),
 "t+du": lambda pl: pl.col("t") + pl.col("du"),
 "t+dums": lambda pl: pl.col("t") + pl.col("dums"),
 "tn-du": lambda pl: pl.col("tn") - pl.col("du"),
 "tz+du": lambda pl: pl.col("tz") + pl.col("du"),
 "tz-tz": lambda pl: pl.col("tz") - pl.col("tz"),
 "du+du": lambda pl: pl.col("du") + pl.col("dums"),
 "du-du": lambda pl: pl.col("du") - pl.col("dums"),
 "du*i": lambda pl: pl.col("du") * pl.col("i"),
 "i*du": lambda pl: pl.col("i") * pl.col("du"),
 "du*2": lambda pl: pl.col("du") * 2,
 "du*f": lambda pl: pl.col("du") * pl.col("f"),
 "du/i": lambda pl: pl.col("du") / pl.col("i"),
 "du/2": lambda pl: pl.col("du") / 2,
 "du//2": lambda pl: pl.col("du") // 2,
 "du/du": lambda pl: pl.col("du") / pl.col("dums"),
 "-du": lambda pl: -pl.col("du"),
 "du.abs": lambda pl: pl.col("du").abs(),
 "du<dums": lambda pl: pl.col("du") < pl.col("dums"),
 "du==lit": lambda pl: pl.col("du") == dt.timedelta(days=1, hours=2),
 "t>lit_d": lambda pl: pl.col("t") > dt.date(2010,1,1),
 "d<lit_t": lambda pl: pl.col("d") < dt.datetime(2010,1,1, 12),
 "t==tn": lambda pl: pl.col("t") == pl.col("tn"),
 "tz>lit": lambda pl: pl.col("tz") > dt.datetime(2010,1,1),
 "tm-tm": lambda pl: pl.col("tm") - pl.col("tm"),
 "tm<lit": lambda pl: pl.col("tm") < dt.time(12),
 "t+lit_td": lambda pl: pl.col("t") + dt.timedelta(hours=1),
 "d+lit_td": lambda pl: pl.col("d") + dt.timedelta(days=1),
 "lit_d-d": lambda pl: pl.lit(dt.date(2025,1,1)) - pl.col("d"),
 "du.sum": lambda pl: pl.col("du").sum(),
 "du.mean": lambda pl: pl.col("du").mean(),
 "t.mean": lambda pl: pl.col("t").mean(),
 "d.max": lambda pl: pl.col("d").max(),
 "coalesce_d_t": lambda pl: pl.coalesce(pl.col("d"), pl.col("t")),
 "when_d_t": lambda pl: pl.when(pl.col("i") > 0).then(pl.col("d")).otherwise(pl.col("t")),
 "fill_null_du": lambda pl: pl.col("du").fill_null(pl.col("dums")),
 "t_tz_supertype": lambda pl: pl.when(pl.col("i") > 0).then(pl.col("t")).otherwise(pl.col("tn")),
 "d*i": lambda pl: pl.col("d") * pl.col("i"),
 "t+t": lambda pl: pl.col("t") + pl.col("t"),
 "t+i": lambda pl: pl.col("t") + pl.col("i"),
 "du+i": lambda pl: pl.col("du") + pl.col("i"),
 "tz-t": lambda pl: pl.col("tz") - pl.col("t"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_temporal_arithmetic(name):
    assert_same(lambda pl, lf: lf.select(CASES[name](pl).alias("out")), DATA, chunks=2)
