"""The cache sink (common subplan elimination) spills past the memory limit
(exec/sinks/cache_sink): a subplan several times a 16 MiB limit, read by two consumers,
is written once to FRAZIL_TEMP_DIRECTORY and each consumer streams it back; the result
equals the in-memory run and Polars', no spill file is left
(also after an error), and peak RSS stays near the limit. Each case runs in a child
process, so the limit and the temporary directory never touch other tests."""
import textwrap

from isolated import run_script
from spill_child import CHILD_SETUP, UNSET

PRELUDE = CHILD_SETUP + textwrap.dedent(
    """
    from spill_child import spill_files, spilled, with_memory_limit
    import os, sys, tempfile
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    tmp = tempfile.mkdtemp(prefix="frazil-spill-cache-test-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp  # read at the first spill
    n = 2_000_000
    rng = np.random.default_rng(5)
    pdf = polars.DataFrame({
        "k": rng.integers(0, 2000, n),
        "v": rng.random(n),
        "i": rng.integers(-1000, 1000, n),
    }).with_columns(
        polars.when(polars.col("i") % 13 == 0).then(None).otherwise(polars.col("k")).alias("k"),
        polars.when(polars.col("i") % 19 == 0).then(None).otherwise(polars.col("v")).alias("v"),
        (polars.lit("n") + polars.col("i").cast(polars.String)).alias("name"),
    )
    path = os.path.join(tmp, "input.parquet")
    pdf.write_parquet(path, row_group_size=50_000)
    del pdf

    def limited(run, limit="16M"):
        return with_memory_limit(limit, run)

    # One subplan (almost every row, a column made from two) read by two group-bys and joined.
    def shared(m, src=None):
        sub = m.scan_parquet(src or path).filter(m.col("i") > -990).with_columns((m.col("v") * m.col("i")).alias("w"))
        a = sub.group_by("k").agg(m.col("w").sum(), m.col("name").max())
        b = sub.group_by("k").agg(m.col("v").mean().alias("mean"), m.len())
        return a.join(b, on="k").sort("k")
    """
)

EQUAL_SCRIPT = PRELUDE + textwrap.dedent(
    """
    fz.Config.set_memory_limit("16M")
    plan = shared(fz).explain(format="physical")
    assert "read by 2 consumers; spills to FRAZIL_TEMP_DIRECTORY past the memory limit of 16 MiB" in plan, plan
    fz.Config.set_memory_limit(None)
    got = limited(lambda: shared(fz).collect().to_polars())
    assert spilled(tmp)
    assert spill_files(tmp) == [], spill_files(tmp)
    want = shared(fz).collect().to_polars()
    assert_frame_equal(got, want)
    assert_frame_equal(got, shared(polars).collect(), check_exact=False, rel_tol=1e-9)
    # Without common subplan elimination (nothing cached) the result is the same.
    assert_frame_equal(shared(fz).collect(comm_subplan_elim=False).to_polars(), want)
    print(got.shape)
    print("ok")
    """
)


def test_spilled_cache_equals_the_in_memory_run_and_polars():
    out = run_script(EQUAL_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out


ERROR_SCRIPT = PRELUDE + textwrap.dedent(
    """
    # A cast that fails on the last row group only, after the cache has spilled.
    bad = os.path.join(tmp, "bad.parquet")
    polars.read_parquet(path).with_columns(
        polars.when(polars.int_range(polars.len()) == n - 1).then(polars.lit("x")).otherwise(
            polars.col("i").cast(polars.String)).alias("t")
    ).write_parquet(bad, row_group_size=50_000)
    def failing(m):
        sub = m.scan_parquet(bad).filter(m.col("i") > -990).with_columns(m.col("t").cast(m.Int64).alias("ti"))
        return sub.group_by("k").agg(m.col("ti").sum()).join(sub.group_by("k").agg(m.len()), on="k")
    try:
        limited(lambda: failing(fz).collect())
    except fz.exceptions.InvalidOperationError as exc:
        assert "x" in str(exc), str(exc)
    else:
        raise AssertionError("no cast error")
    assert spilled(tmp) and spill_files(tmp) == [], spill_files(tmp)
    assert fz.Config.memory_in_use() < 1 << 20, fz.Config.memory_in_use()
    print("ok")
    """
)


def test_cache_spill_files_go_after_an_error():
    out = run_script(ERROR_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out


RSS_SCRIPT = PRELUDE + textwrap.dedent(
    """
    from spill_child import peak_growth
    small = os.path.join(tmp, "small.parquet")
    polars.read_parquet(path).head(200_000).write_parquet(small, row_group_size=50_000)
    limit = 32 << 20
    fz.Config.set_memory_limit(limit)
    shared(fz, small).collect()  # the code, stacks and arenas in place before measuring
    out, peak = peak_growth(lambda: shared(fz).collect())
    fz.Config.set_memory_limit(None)
    assert spilled(tmp), "it did not spill"
    assert out.height == 2000, out.height
    print(f"limit {limit >> 20} MiB, peak RSS above the start {peak >> 20} MiB")
    assert peak <= 1.5 * limit, peak
    print("ok")
    """
)


def test_peak_rss_of_a_spilling_cache_stays_within_one_and_a_half_times_the_limit():
    out = run_script(RSS_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out
