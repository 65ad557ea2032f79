"""The join build sink spills past the memory limit (a grace hash join, exec/spill/grace_join):
a build side several times a 32 MiB limit, both sides read from Parquet in small row groups,
gives exactly the in-memory result (and Polars') for inner, left, semi and anti joins, with
null, duplicate, string, float (-0.0, NaN) and multi-column keys and a skewed key whose
partition has to be split again; no spill file is left behind (also after an error); peak
RSS stays near the limit; and a join whose output order is observed, which a spilled join
cannot keep, raises MemoryError naming the limit and why. Each case runs in a child
process, so the limit and the temporary directory never touch other tests."""
import textwrap

from isolated import run_script
from spill_child import CHILD_SETUP, UNSET

# Morsels of 10k rows: a many-to-many join's output per morsel (several times its input, not
# bounded by the limit) and the group-by above it then leave the join room under 32 MiB.
_MORSEL = 10_000

PRELUDE = CHILD_SETUP + textwrap.dedent(
    """
    from spill_child import spill_files, spilled, with_memory_limit
    import os, tempfile
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    tmp = tempfile.mkdtemp(prefix="frazil-spill-join-test-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp  # read at the first spill
    rng = np.random.default_rng(5)
    floats = np.array([0.0, -0.0, np.nan, 1.5, -2.25, 1e300])

    def side(n, keys, id_name, hot=0.0):
        k = rng.integers(0, keys, n)
        k[rng.random(n) < hot] = 7  # the skewed key
        return polars.DataFrame({
            id_name: np.arange(n),
            "k": k,
            "s": polars.Series(rng.integers(0, keys // 2, n)).cast(polars.String),
            "f": floats[rng.integers(0, len(floats), n)],
            "x": rng.integers(-10**6, 10**6, n),
        }).with_columns(
            polars.when(polars.col("x") % 13 == 0).then(None).otherwise(polars.col("k")).alias("k"),
            polars.when(polars.col("x") % 17 == 0).then(None).otherwise(polars.col("s")).alias("s"),
            polars.when(polars.col("x") % 19 == 0).then(None).otherwise(polars.col("f")).alias("f"),
            (polars.lit("payload-") + polars.col(id_name).cast(polars.String)).alias("name_" + id_name),
        )

    left_path, right_path = os.path.join(tmp, "left.parquet"), os.path.join(tmp, "right.parquet")
    side(1_000_000, 300_000, "lid").write_parquet(left_path, row_group_size=40_000)
    side(1_000_000, 300_000, "rid").write_parquet(right_path, row_group_size=40_000)
    skew_path = os.path.join(tmp, "skew.parquet")
    side(1_000_000, 300_000, "rid", hot=0.06).write_parquet(skew_path, row_group_size=40_000)

    def limited(query, limit="32M"):
        return with_memory_limit(limit, lambda: query(fz).collect().to_polars())
    """
)

EQUAL_SCRIPT = PRELUDE + textwrap.dedent(
    """
    # The pairs the join finds, summed up by order-robust aggregations (the join's output
    # order is then not observed, so it may spill): a wrong, missing or extra pair changes a
    # count or a sum (the sum of lid * rid pins the pairs). Both sides have 1M rows: the
    # table is built on the right.
    # (is_null().sum(), not null_count(): null_count's partial state per morsel keeps the
    # morsel's buffers alive, a retention in the aggregate sink that the limit then sees.)
    def pairs(how, on, right=right_path):
        def q(m):
            joined = m.scan_parquet(left_path).join(m.scan_parquet(right), on=on, how=how)
            return joined.select(
                m.len(), m.col("rid").is_null().sum().alias("unmatched"), m.col("rid").sum().alias("rsum"),
                (m.col("lid") * m.col("rid")).sum().alias("pair_sum"), m.col("lid").sum().alias("lsum"),
                m.col("x_right").sum().alias("xsum"), m.col("name_rid").str.len_bytes().sum().alias("nbytes"),
                m.col("f").is_null().sum().alias("fnull"))
        return q

    def left_rows(how, on):
        return lambda m: m.scan_parquet(left_path).join(m.scan_parquet(right_path), on=on, how=how).select(
            m.len(), m.col("lid").sum(), m.col("x").sum(), m.col("name_lid").min().alias("nmin"),
            m.col("name_lid").max().alias("nmax"), m.col("f").is_null().sum())

    cases = [
        ("inner int key", pairs("inner", "k")),
        ("left int key", pairs("left", "k")),
        ("inner string key", pairs("inner", "s")),
        ("left two keys", pairs("left", ["k", "f"])),
        ("inner skewed key", pairs("inner", "k", right=skew_path)),
        ("left skewed key", pairs("left", "k", right=skew_path)),
        ("semi", left_rows("semi", "k")),
        ("anti", left_rows("anti", "k")),
        ("semi two keys", left_rows("semi", ["s", "f"])),
        ("anti string key", left_rows("anti", "s")),
    ]
    fz.Config.set_memory_limit("32M")
    plan = cases[0][1](fz).explain(format="physical")
    assert "a grace hash join past the memory limit of 32 MiB" in plan, plan
    fz.Config.set_memory_limit(None)
    assert "grace" not in cases[0][1](fz).explain(format="physical")
    for name, q in cases:
        # The join's state (1M right rows and their table, about 100 MB) is several times
        # the limit.
        fz.Config.set_memory_limit("32M")
        assert "a grace hash join past the memory limit" in q(fz).explain(format="physical"), name
        got = limited(q)
        assert spilled(tmp), name
        assert spill_files(tmp) == [], (name, spill_files(tmp))
        want = q(fz).collect().to_polars()
        ref = q(polars).collect()
        assert_frame_equal(got, want)  # exactly the in-memory result
        assert_frame_equal(got, ref, check_dtypes=False)
        print(name, got.shape, got.row(0))
        del got, want, ref  # Polars frames made by to_polars share frazil's counted buffers
    print("ok")
    """
)


def test_spilled_joins_equal_the_in_memory_run_and_polars():
    out = run_script(EQUAL_SCRIPT, threads=2, morsel_size=_MORSEL, unset=UNSET, timeout=900)
    assert out.strip().endswith("ok"), out


ERROR_SCRIPT = PRELUDE + textwrap.dedent(
    """
    # A cast that fails on the left side's last row group, after the build side spilled.
    bad = os.path.join(tmp, "bad.parquet")
    polars.read_parquet(left_path).with_columns(
        polars.when(polars.int_range(polars.len()) == polars.len() - 1).then(polars.lit("x"))
        .otherwise(polars.col("x").cast(polars.String)).alias("t")
    ).write_parquet(bad, row_group_size=40_000)
    try:
        limited(lambda m: m.scan_parquet(bad).with_columns(m.col("t").cast(m.Int64))
                .join(m.scan_parquet(right_path), on="k").select(m.col("t").sum()))
    except fz.exceptions.InvalidOperationError as exc:
        assert "x" in str(exc), str(exc)
    else:
        raise AssertionError("no cast error")
    assert spilled(tmp) and spill_files(tmp) == [], spill_files(tmp)
    # The rows of a join, in the left side's order (the order the engine promises): a
    # spilled join would give another, so past the limit it is refused, naming why.
    # (Two sides of 1M rows: the table is built on the right, which streams in no other way.)
    q = lambda m: m.scan_parquet(right_path).join(m.scan_parquet(skew_path), on="k")
    fz.Config.set_memory_limit("32M")
    assert "cannot spill (its output order" in q(fz).explain(format="physical")
    try:
        limited(q)
    except MemoryError as exc:
        assert "limit of 32 MiB" in str(exc) and "cannot spill" in str(exc), str(exc)
    else:
        raise AssertionError("no MemoryError for an ordered join over the limit")
    assert spill_files(tmp) == [], spill_files(tmp)
    assert fz.Config.memory_in_use() < 1 << 20, fz.Config.memory_in_use()
    print("ok")
    """
)


def test_spill_files_go_after_an_error_and_an_ordered_join_raises_memory_error():
    out = run_script(ERROR_SCRIPT, threads=2, morsel_size=_MORSEL, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out


RSS_SCRIPT = CHILD_SETUP + textwrap.dedent(
    """
    from spill_child import peak_growth, spilled
    import os, tempfile
    import numpy as np, polars
    import frazil as fz

    tmp = tempfile.mkdtemp(prefix="frazil-spill-join-rss-")
    os.environ["FRAZIL_TEMP_DIRECTORY"] = tmp
    rng = np.random.default_rng(13)
    n_build, n_probe = 4_000_000, 6_000_000  # the table is built on the smaller side
    build, probe = os.path.join(tmp, "build.parquet"), os.path.join(tmp, "probe.parquet")
    small_b, small_p = os.path.join(tmp, "small_b.parquet"), os.path.join(tmp, "small_p.parquet")
    b = polars.DataFrame({"k": rng.integers(0, 4_000_000, n_build), "v": rng.random(n_build),
                          "i": rng.integers(0, 10**9, n_build), "j": rng.integers(0, 10**9, n_build)})
    p = polars.DataFrame({"k": rng.integers(0, 4_000_000, n_probe), "w": rng.integers(0, 10**9, n_probe)})
    b.write_parquet(build, row_group_size=50_000)
    p.write_parquet(probe, row_group_size=50_000)
    b.head(100_000).write_parquet(small_b, row_group_size=50_000)
    p.head(100_000).write_parquet(small_p, row_group_size=50_000)
    del b, p

    q = lambda pp, bb: fz.scan_parquet(pp).join(fz.scan_parquet(bb), on="k").select(
        fz.len(), fz.col("i").sum(), fz.col("w").max(), fz.col("v").min())
    limit = 48 << 20
    fz.Config.set_memory_limit(limit)
    q(small_p, small_b).collect()  # the code and the threads' stacks and arenas are in place before measuring
    out, peak = peak_growth(lambda: q(probe, build).collect())
    assert spilled(tmp), "it did not spill"
    fz.Config.set_memory_limit(None)
    want = q(probe, build).collect()
    assert out.equals(want), (out, want)
    print(f"build side {n_build * 32 >> 20} MiB, limit {limit >> 20} MiB, peak RSS above the start {peak >> 20} MiB")
    assert peak <= 1.5 * limit, peak
    print("ok")
    """
)


def test_peak_rss_of_a_spilling_join_stays_within_one_and_a_half_times_the_limit():
    out = run_script(RSS_SCRIPT, threads=2, unset=UNSET, timeout=600)
    assert out.strip().endswith("ok"), out
