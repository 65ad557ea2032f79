"""Progress and introspection: LazyFrame.profile(), FRAZIL_VERBOSE and FRAZIL_TRACE logs,
and the progress display, shown on a pseudo-terminal only."""
import os
import pty
import select
import subprocess
import sys
import time


import frazil as fz

# A query of a few hundred milliseconds: long enough for the progress display to draw
# (its delay is set to 0 in these tests) and short enough for `make test`.
QUERY = """
import numpy as np
import pyarrow as pa
import frazil as pl
n = 1_000_000
df = pl.DataFrame(pa.table({"k": np.arange(n) % 1000, "v": np.arange(n)}))
out = (df.lazy().filter(pl.col("v") % 3 != 0).group_by("k").agg(pl.col("v").sum())
       .sort("k").collect())
assert out.height == 1000
print("done")
"""


def env_for(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FRAZIL_PROGRESS", "FRAZIL_VERBOSE",
                                                                     "FRAZIL_TRACE", "POLARS_VERBOSE"))}
    env.update(extra)
    return env


def run_in_pty(env):
    """Runs QUERY with stdout and stderr on a pseudo-terminal; returns all it printed."""
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", QUERY], stdin=subprocess.DEVNULL, stdout=child, stderr=child,
                            env=env, close_fds=True)
    os.close(child)
    chunks = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.5)
        if ready:
            try:
                data = os.read(main, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    proc.wait(timeout=60)
    os.close(main)
    out = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0, out
    return out


def test_progress_is_drawn_on_a_terminal_and_erased():
    out = run_in_pty(env_for(FRAZIL_PROGRESS_DELAY_MS="0"))
    assert "done" in out
    assert "frazil: " in out and "rows read" in out and "pipeline" in out, out
    # Each redraw clears the line first, and the last one is erased.
    assert "\r\x1b[2K" in out
    assert out.rstrip().endswith("done")


def test_progress_can_be_turned_off_and_is_off_without_a_terminal():
    out = run_in_pty(env_for(FRAZIL_PROGRESS="0", FRAZIL_PROGRESS_DELAY_MS="0"))
    assert "frazil: " not in out
    piped = subprocess.run([sys.executable, "-c", QUERY], capture_output=True, text=True, timeout=120,
                           env=env_for(FRAZIL_PROGRESS_DELAY_MS="0"))
    assert piped.returncode == 0 and "frazil: " not in piped.stderr
    forced = subprocess.run([sys.executable, "-c", QUERY], capture_output=True, text=True, timeout=120,
                            env=env_for(FRAZIL_PROGRESS="1", FRAZIL_PROGRESS_DELAY_MS="0"))
    assert forced.returncode == 0 and "frazil: " in forced.stderr


def test_verbose_logs_passes_and_pipelines():
    out = subprocess.run([sys.executable, "-c", QUERY], capture_output=True, text=True, timeout=120,
                         env=env_for(FRAZIL_VERBOSE="1"))
    assert out.returncode == 0, out.stderr
    log = out.stderr
    for needle in ["[frazil] conversion: ", "[frazil] predicate_pushdown: ", "[frazil] projection_pushdown: ",
                   "[frazil] pipeline: ", "rows out in ", "[frazil] group_by(k): 1000 rows in ",
                   "[frazil] query done: 1000 rows in "]:
        assert needle in log, (needle, log)
    assert "rewrite " not in log  # rewrites are FRAZIL_TRACE's
    # POLARS_VERBOSE is honoured too.
    polars_env = subprocess.run([sys.executable, "-c", QUERY], capture_output=True, text=True, timeout=120,
                                env=env_for(POLARS_VERBOSE="1"))
    assert "[frazil] pipeline: " in polars_env.stderr


def test_trace_lists_rewrites():
    script = """
import frazil as pl
lf = pl.LazyFrame({"a": [1, 2, 3]}).filter((pl.col("a") > 1) & pl.lit(True)).select(pl.col("a") * 2)
lf.collect()
print(lf.explain())
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                         env=env_for(FRAZIL_TRACE="1"))
    assert out.returncode == 0, out.stderr
    assert "[frazil] rewrite " in out.stderr, out.stderr
    assert '(col("a")) > (1)' in out.stdout or 'col("a") > 1' in out.stdout


def test_profile_returns_the_result_and_nested_node_timings():
    df = fz.DataFrame({"k": [1, 2, 1, None], "v": [1.0, 2.0, 3.0, 4.0]})
    lf = df.lazy().filter(fz.col("v") > 1).group_by("k").agg(fz.col("v").sum()).sort("k")
    result, timings = lf.profile()
    assert result.equals(lf.collect())
    assert timings.columns == ["node", "start", "end"]
    assert timings.schema == fz.Schema({"node": fz.String, "start": fz.UInt64, "end": fz.UInt64})
    rows = timings.rows()
    assert rows[0][0] == "optimization" and rows[0][1] == 0
    nodes = [r[0] for r in rows]
    assert any(n.startswith("sort(") for n in nodes) and any(n.startswith("group_by(") for n in nodes)
    for _, start, end in rows:
        assert start <= end
    # The sort's span holds the group_by's (its input).
    sort_row = next(r for r in rows if r[0].startswith("sort("))
    group_row = next(r for r in rows if r[0].startswith("group_by("))
    assert sort_row[1] <= group_row[1] and group_row[2] <= sort_row[2]
