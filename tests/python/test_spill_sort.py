"""The sort sink is an external merge sort past the memory limit (exec/sinks/sort_sink,
exec/spill/sorted_runs, run_merger): input several times a 16 MiB limit, read from Parquet
in small row groups, is sorted in runs spilled to FRAZIL_TEMP_DIRECTORY and merged as the
output is read, so a consumer that streams (sink_parquet, a group-by) never holds it whole.
The result equals the in-memory run and Polars' (several keys, nulls, NaN, -0.0,
descending, nulls_last, stable, strings, slices), no spill file is left (also after an
error), peak RSS stays near the limit, and a sort that cannot spill raises MemoryError
naming the limit. Each case runs in a child process, so the limit and the temporary
directory never touch other tests."""
import textwrap

from isolated import run_script
from spill_child import CHILD_SETUP, UNSET

PRELUDE = CHILD_SETUP + textwrap.dedent(
    """
    from spill_child import spill_dirs, spill_files, spilled, with_memory_limit
    import os, sys, tempfile
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    tmp = tempfile.mkdtemp(prefix="frazil-spill-sort-test-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp  # read at the first spill
    n = 800_000
    rng = np.random.default_rng(3)
    v = rng.integers(0, 50, n) / 4.0
    v[rng.random(n) < 0.01] = np.nan
    v[rng.random(n) < 0.02] = -0.0
    pdf = polars.DataFrame({
        "k": rng.integers(0, 300, n),
        "s": polars.Series(rng.integers(0, 40, n)).cast(polars.String),
        "v": v,
        "i": rng.integers(-1000, 1000, n),
        "row": np.arange(n),
    }).with_columns(
        polars.when(polars.col("i") % 17 == 0).then(None).otherwise(polars.col("k")).alias("k"),
        polars.when(polars.col("i") % 23 == 0).then(None).otherwise(polars.col("v")).alias("v"),
        polars.when(polars.col("i") % 29 == 0).then(None).otherwise(polars.lit("s-") + polars.col("s")).alias("s"),
    )
    path = os.path.join(tmp, "input.parquet")
    pdf.write_parquet(path, row_group_size=50_000)
    del pdf

    def dir_times():  # a file made or removed in the spill directory moves its mtime
        return [os.stat(d).st_mtime_ns for d in spill_dirs(tmp)]

    def limited(run, limit="16M"):
        return with_memory_limit(limit, run)
    """
)

EQUAL_SCRIPT = PRELUDE + textwrap.dedent(
    """
    out = os.path.join(tmp, "out.parquet")
    sorts = {
        "keys_nulls_descending_stable": lambda m: m.scan_parquet(path).sort(
            "k", "v", "s", descending=[False, True, False], nulls_last=[True, False, True], maintain_order=True),
        "string_key_nulls_first": lambda m: m.scan_parquet(path).sort("s", "i", "row", descending=[True, False, True]),
        "expression_key": lambda m: m.scan_parquet(path).sort(m.col("i") % 7, "row", nulls_last=True),
    }
    fz.Config.set_memory_limit("16M")
    plan = sorts["keys_nulls_descending_stable"](fz).explain(format="physical")
    assert "spills sorted runs to FRAZIL_TEMP_DIRECTORY past the memory limit of 16 MiB" in plan, plan
    fz.Config.set_memory_limit(None)
    assert "spills" not in sorts["keys_nulls_descending_stable"](fz).explain(format="physical")
    for name, q in sorts.items():
        before = dir_times()
        # Streams the merge into the file (in row groups of 50k rows: the writer holds one).
        limited(lambda: q(fz).sink_parquet(out, row_group_size=50_000))
        assert spilled(tmp) and dir_times() != before, name
        assert spill_files(tmp) == [], (name, spill_files(tmp))
        got = polars.read_parquet(out)
        want = q(fz).collect().to_polars()
        assert_frame_equal(got, want)  # exactly the in-memory result, in its order
        assert_frame_equal(got, q(polars).collect())
        print(name, got.shape)
        del got, want
    # Slices of the sorted rows (top-k keeps the first offset + length rows of each run);
    # a group-by reading the merge as it is made.
    small = {
        "head": lambda m: m.scan_parquet(path).sort("v", "row", descending=True).head(1000),
        "slice": lambda m: m.scan_parquet(path).sort("s", "row", nulls_last=True).slice(500_000, 2000),
        "tail": lambda m: m.scan_parquet(path).sort("k", "row", maintain_order=True).tail(1500),
        "group_by_after": lambda m: m.scan_parquet(path).sort("v", "row").group_by("k", maintain_order=True).agg(
            m.col("s").first(), m.col("row").last(), m.len()),
    }
    for name, q in small.items():
        before = dir_times()
        got = limited(lambda: q(fz).collect().to_polars())
        assert spilled(tmp) and dir_times() != before, name
        assert spill_files(tmp) == [], (name, spill_files(tmp))
        assert_frame_equal(got, q(fz).collect().to_polars())
        assert_frame_equal(got, q(polars).collect())
        print(name, got.shape)
        del got
    print("ok")
    """
)


def test_spilled_sort_equals_the_in_memory_run_and_polars():
    out = run_script(EQUAL_SCRIPT, threads=2, unset=UNSET, timeout=900)
    assert out.strip().endswith("ok"), out


ERROR_SCRIPT = PRELUDE + textwrap.dedent(
    """
    # A cast that fails on the last row group only: the key is evaluated when a run is
    # sorted, after earlier runs have been spilled.
    bad = os.path.join(tmp, "bad.parquet")
    polars.read_parquet(path).with_columns(
        polars.when(polars.col("row") == n - 1).then(polars.lit("x")).otherwise(polars.col("i").cast(polars.String)).alias("t")
    ).write_parquet(bad, row_group_size=50_000)
    try:
        limited(lambda: fz.scan_parquet(bad).sort(fz.col("t").cast(fz.Int64)).sink_parquet(os.path.join(tmp, "o.parquet"), row_group_size=50_000))
    except fz.exceptions.InvalidOperationError as exc:
        assert "x" in str(exc), str(exc)
    else:
        raise AssertionError("no cast error")
    assert spilled(tmp) and spill_files(tmp) == [], spill_files(tmp)
    # A key reading across rows cannot be sorted in runs: refused, naming why.
    q = lambda m: m.scan_parquet(path).sort(m.col("i").shift(1), "row")
    fz.Config.set_memory_limit("16M")
    assert "cannot spill (a key reads across rows" in q(fz).explain(format="physical")
    try:
        limited(lambda: q(fz).sink_parquet(os.path.join(tmp, "o.parquet"), row_group_size=50_000))
    except MemoryError as exc:
        assert "limit of 16 MiB" in str(exc) and "cannot spill" in str(exc), str(exc)
    else:
        raise AssertionError("no MemoryError for a key that cannot spill")
    assert spill_files(tmp) == [], spill_files(tmp)
    assert fz.Config.memory_in_use() < 1 << 20, fz.Config.memory_in_use()
    print("ok")
    """
)


def test_sort_spill_files_go_after_an_error_and_what_cannot_spill_raises_memory_error():
    out = run_script(ERROR_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out


RSS_SCRIPT = CHILD_SETUP + textwrap.dedent(
    """
    from spill_child import peak_growth, spilled
    import os, tempfile
    import numpy as np, polars
    import frazil as fz

    tmp = tempfile.mkdtemp(prefix="frazil-spill-sort-rss-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp
    n = 6_000_000
    rng = np.random.default_rng(11)
    path, small = os.path.join(tmp, "input.parquet"), os.path.join(tmp, "small.parquet")
    out = os.path.join(tmp, "out.parquet")
    pdf = polars.DataFrame({"k": rng.integers(0, 20_000, n), "v": rng.random(n), "i": rng.integers(0, 10**9, n),
                            "j": rng.integers(0, 10**9, n)})
    pdf.write_parquet(path, row_group_size=50_000)
    pdf.head(200_000).write_parquet(small, row_group_size=50_000)
    del pdf

    q = lambda p: fz.scan_parquet(p).sort("v", "k").sink_parquet(out)
    limit = 48 << 20
    fz.Config.set_memory_limit(limit)
    q(small)  # the code and the threads' stacks and arenas are in place before measuring
    _, peak = peak_growth(lambda: q(path))
    fz.Config.set_memory_limit(None)
    assert spilled(tmp), "it did not spill"
    got = polars.scan_parquet(out)
    assert got.select(polars.len()).collect().item() == n
    assert got.select(polars.col("v").diff().min()).collect().item() >= 0
    print(f"state {n * 32 >> 20} MiB, limit {limit >> 20} MiB, peak RSS above the start {peak >> 20} MiB")
    assert peak <= 1.5 * limit, peak
    print("ok")
    """
)


def test_peak_rss_of_a_spilling_sort_stays_within_one_and_a_half_times_the_limit():
    out = run_script(RSS_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out
