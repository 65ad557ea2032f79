"""The group-by sink spills past the memory limit (exec/sinks/group_by_spill): a state
several times a 16 MiB limit, read from Parquet in small row groups, gives exactly the
in-memory result (and Polars'), leaves no spill file behind (also after an error), keeps
peak RSS near the limit, and a query that cannot proceed even when spilling raises
MemoryError naming the limit. Each case runs in a child process, so the limit and the
temporary directory never touch other tests."""
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

    tmp = tempfile.mkdtemp(prefix="frazil-spill-test-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp  # read at the first spill
    n = 2_000_000
    rng = np.random.default_rng(7)
    v = rng.random(n)
    v[rng.random(n) < 0.01] = np.nan
    v[rng.random(n) < 0.01] = -0.0
    pdf = polars.DataFrame({
        "k": rng.integers(0, 5000, n),
        "s": polars.Series(rng.integers(0, 10, n)).cast(polars.String),
        "v": v,
        "i": rng.integers(-1000, 1000, n),
    }).with_columns(
        polars.when(polars.col("i") % 17 == 0).then(None).otherwise(polars.col("k")).alias("k"),
        polars.when(polars.col("i") % 23 == 0).then(None).otherwise(polars.col("v")).alias("v"),
        polars.when(polars.col("i") % 29 == 0).then(None).otherwise(polars.col("s")).alias("s"),
        (polars.lit("name-") + polars.col("i").cast(polars.String)).alias("name"),
    )
    path = os.path.join(tmp, "input.parquet")
    pdf.write_parquet(path, row_group_size=50_000)
    del pdf

    def limited(query, limit="16M"):
        return with_memory_limit(limit, lambda: query(fz).collect().to_polars())
    """
)

EQUAL_SCRIPT = PRELUDE + textwrap.dedent(
    """
    two_phase = lambda m: m.scan_parquet(path).group_by("k", "s", maintain_order=True).agg(
        m.col("v").sum(), m.col("v").mean().alias("mean"), m.col("v").min().alias("min"),
        m.col("v").max().alias("max"), m.col("i").sum().alias("isum"), m.col("name").min().alias("smin"),
        m.col("name").max().alias("smax"), m.len(), m.col("v").count().alias("count"),
        (m.col("i") > 0).sum().alias("pos"))
    whole = lambda m: m.scan_parquet(path).group_by("s", "k").agg(
        m.col("v").median().alias("median"), m.col("i").n_unique().alias("nu"), m.col("name").first().alias("first"),
        m.col("name").last().alias("last"), m.col("v").std().alias("std"), m.col("i").quantile(0.3).alias("q"),
        (m.col("i") - m.col("i").mean()).abs().sum().alias("dev"), m.col("i").sort().head(2).alias("low2"))
    in_order = lambda m: m.scan_parquet(path).group_by(m.col("k") % 1000, "s", maintain_order=True).agg(
        m.col("i").median().alias("median"), m.col("name").last().alias("last"), m.len())
    fz.Config.set_memory_limit("16M")
    plan = two_phase(fz).explain(format="physical")
    assert "spills by key hash to FRAZIL_TEMP_DIRECTORY past the memory limit of 16 MiB" in plan, plan
    fz.Config.set_memory_limit(None)
    assert "spills" not in two_phase(fz).explain(format="physical")
    for name, q, ordered in [("two_phase", two_phase, True), ("whole", whole, False), ("in_order", in_order, True)]:
        got = limited(q)
        assert spilled(tmp), name
        assert spill_files(tmp) == [], (name, spill_files(tmp))
        want = q(fz).collect().to_polars()
        keys = [c for c in ("k", "s") if c in got.columns]
        if not ordered:
            got, want = got.sort(keys), want.sort(keys)
        assert_frame_equal(got, want)  # exactly the in-memory result, in its order
        ref = q(polars).collect()
        if not ordered:
            ref = ref.sort(keys)
        assert_frame_equal(got, ref, check_dtypes=False, check_exact=False, rel_tol=1e-9)
        print(name, got.shape)
        del got, want, ref  # Polars frames made by to_polars share frazil's counted buffers
    print("ok")
    """
)


def test_spilled_group_by_equals_the_in_memory_run_and_polars():
    out = run_script(EQUAL_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out


ERROR_SCRIPT = PRELUDE + textwrap.dedent(
    """
    # A cast that fails on the last row group only: the median (whole input) evaluates it
    # per partition in finalize, after the rows have been spilled.
    bad = os.path.join(tmp, "bad.parquet")
    polars.read_parquet(path).with_columns(
        polars.when(polars.int_range(polars.len()) == n - 1).then(polars.lit("x")).otherwise(polars.col("i").cast(polars.String)).alias("t")
    ).write_parquet(bad, row_group_size=50_000)
    try:
        limited(lambda m: m.scan_parquet(bad).group_by("k").agg(m.col("t").cast(m.Int64).median()))
    except fz.exceptions.InvalidOperationError as exc:
        assert "x" in str(exc), str(exc)
    else:
        raise AssertionError("no cast error")
    assert spilled(tmp) and spill_files(tmp) == [], spill_files(tmp)
    # One group of every row: its median needs all of them at once.
    try:
        limited(lambda m: m.scan_parquet(path).group_by(m.col("k").is_null() & m.col("k").is_not_null()).agg(
            m.col("v").median()))
    except MemoryError as exc:
        assert "limit of 16 MiB" in str(exc), str(exc)
    else:
        raise AssertionError("no MemoryError for one group over the limit")
    assert spill_files(tmp) == [], spill_files(tmp)
    # A key reading across rows cannot be split by partition: refused, naming why.
    q = lambda m: m.scan_parquet(path).group_by(m.col("k").shift(1)).agg(m.col("v").median())
    fz.Config.set_memory_limit("16M")
    assert "cannot spill (a key reads across rows" in q(fz).explain(format="physical")
    try:
        limited(q)
    except MemoryError as exc:
        assert "limit of 16 MiB" in str(exc) and "cannot spill" in str(exc), str(exc)
    else:
        raise AssertionError("no MemoryError for a key that cannot spill")
    assert fz.Config.memory_in_use() < 1 << 20, fz.Config.memory_in_use()
    print("ok")
    """
)


def test_spill_files_go_after_an_error_and_what_cannot_spill_raises_memory_error():
    out = run_script(ERROR_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out


RSS_SCRIPT = CHILD_SETUP + textwrap.dedent(
    """
    from spill_child import peak_growth, spilled
    import os, tempfile
    import numpy as np, polars
    import frazil as fz

    tmp = tempfile.mkdtemp(prefix="frazil-spill-rss-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp
    n = 6_000_000
    rng = np.random.default_rng(11)
    path, small = os.path.join(tmp, "input.parquet"), os.path.join(tmp, "small.parquet")
    pdf = polars.DataFrame({"k": rng.integers(0, 20_000, n), "v": rng.random(n), "i": rng.integers(0, 10**9, n),
                            "j": rng.integers(0, 10**9, n)})
    pdf.write_parquet(path, row_group_size=50_000)
    pdf.head(100_000).write_parquet(small, row_group_size=50_000)
    del pdf

    q = lambda p: fz.scan_parquet(p).group_by("k").agg(fz.col("v").median(), fz.col("i").max(), fz.col("j").min())
    limit = 48 << 20
    fz.Config.set_memory_limit(limit)
    q(small).collect()  # the code and the threads' stacks and arenas are in place before measuring
    out, peak = peak_growth(lambda: q(path).collect())
    assert out.height == 20_000, out.height
    assert spilled(tmp), "it did not spill"
    print(f"state {n * 32 >> 20} MiB, limit {limit >> 20} MiB, peak RSS above the start {peak >> 20} MiB")
    assert peak <= 1.5 * limit, peak
    print("ok")
    """
)


def test_peak_rss_of_a_spilling_group_by_stays_within_one_and_a_half_times_the_limit():
    out = run_script(RSS_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out
