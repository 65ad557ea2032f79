"""The memory limit: a group_by and a join whose state is several times the limit raise
MemoryError naming the limit (the process is not killed), the accounting returns to where
it was, and the same queries succeed once the limit is lifted. Runs in a subprocess so the
limit never touches other tests."""
import os
import subprocess
import sys
import textwrap

import pytest

import frazil as fz

from isolated import run_script

SCRIPT = textwrap.dedent(
    """
    import numpy as np, polars
    from polars.testing import assert_frame_equal
    import frazil as fz

    n = 2_000_000
    rng = np.random.default_rng(3)
    pdf = polars.DataFrame({"k": rng.permutation(n), "v": rng.random(n)})
    df = fz.DataFrame(pdf)
    base = fz.Config.memory_in_use()
    queries = {
        "group_by": lambda m, lf: lf.group_by("k").agg(m.col("v").sum(), m.col("v").median().alias("med")),
        "join": lambda m, lf: lf.join(lf.with_columns((m.col("v") * 2).alias("w")), on="k"),
    }
    fz.Config.set_memory_limit("24M")
    assert fz.Config.memory_limit() == 24 << 20
    for name, q in queries.items():
        try:
            q(fz, df.lazy()).collect()
        except MemoryError as exc:
            assert "limit of 24 MiB" in str(exc), str(exc)
        else:
            raise AssertionError(f"{name}: no MemoryError under a 24 MiB limit")
        assert fz.Config.memory_in_use() == base, (name, fz.Config.memory_in_use(), base)
    fz.Config.set_memory_limit(None)
    for name, q in queries.items():
        got = q(fz, df.lazy()).collect().to_polars().sort("k")
        want = q(polars, pdf.lazy()).collect().sort("k")
        assert_frame_equal(got, want)
    print("ok")
    """
)


def test_queries_over_the_limit_raise_memory_error():
    out = run_script(SCRIPT, threads=2, unset=("FRAZIL_MEMORY_LIMIT",))
    assert out.strip().endswith("ok")


def test_limit_from_the_environment_and_bad_values():
    code = "import frazil as fz; print(fz.Config.memory_limit())"
    env = dict(os.environ, FRAZIL_MEMORY_LIMIT="3G")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == str(3 << 30), out.stderr
    env["FRAZIL_MEMORY_LIMIT"] = "lots"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "not a number of bytes" in out.stderr
    with pytest.raises(TypeError):
        fz.Config.set_memory_limit(1.5)
    with pytest.raises(ValueError):
        fz.Config.set_memory_limit(-1)
    assert fz.thread_pool_size() >= 1


EXPORT_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    import frazil as fz

    df = fz.DataFrame({"a": np.arange(3_000_000), "s": [str(i) for i in range(3_000_000)]})
    fz.Config.set_memory_limit("60M")
    for name, export in [("to_arrow", df.to_arrow), ("to_polars", df.to_polars), ("to_pandas", df.to_pandas)]:
        try:
            export()
        except MemoryError as exc:
            assert "limit of 60 MiB" in str(exc), (name, str(exc))
        else:
            raise AssertionError(f"{name}: no MemoryError under a 60 MiB limit")
    fz.Config.set_memory_limit(None)
    assert df.to_arrow().num_rows == 3_000_000
    print("ok")
    """
)


def test_exports_under_the_limit_raise_memory_error():
    # The Arrow stream reported the limit as an errno and a message, which pyarrow raised as
    # ArrowInvalid (Polars as ComputeError): the batches are now exported before the stream
    # is handed over, so the MemoryError keeps its class.
    out = run_script(EXPORT_SCRIPT, threads=2, unset=("FRAZIL_MEMORY_LIMIT",))
    assert out.strip().endswith("ok")
