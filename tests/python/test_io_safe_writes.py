"""Writers never leave a half-written target: a kill, a full disk or a read-only directory
leave the old file as it was (or no file), and errors are OSError subclasses with the OS
reason, as Polars raises them."""
from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

import frazil as pl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PYTHONPATH = os.path.join(ROOT, "python")

# A child that builds a large frame, learns how many bytes the write makes (by writing it
# once to a scratch file), reports that and its own write counter, then writes the target.
CHILD = textwrap.dedent("""
    import sys, numpy as np, pyarrow as pa, frazil as pl
    how, target, scratch = sys.argv[1], sys.argv[2], sys.argv[3]
    n = 2_000_000
    rng = np.random.default_rng(0)
    df = pl.from_arrow(pa.table({
        "a": np.arange(n, dtype=np.int64),
        "b": rng.random(n),
        "c": pa.array(rng.integers(0, 1 << 40, n)).cast(pa.string()),
    }))
    def write(path):
        if how == "write_parquet": df.write_parquet(path, row_group_size=100_000)
        elif how == "write_csv": df.write_csv(path)
        elif how == "sink_parquet": df.lazy().sink_parquet(path, row_group_size=100_000)
        elif how == "sink_csv": df.lazy().sink_csv(path)
    write(scratch)
    size = __import__("os").path.getsize(scratch)
    wchar = int([l for l in open("/proc/self/io") if l.startswith("wchar")][0].split()[1])
    print(size, wchar, flush=True)
    write(target)
    print("done", flush=True)
""")


def _wchar(pid: int) -> int:
    with open(f"/proc/{pid}/io") as f:
        for line in f:
            if line.startswith("wchar"):
                return int(line.split()[1])
    raise AssertionError("no wchar")


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=PYTHONPATH + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.mark.skipif(not os.path.exists("/proc/self/io"), reason="needs /proc/<pid>/io")
@pytest.mark.parametrize(
    ("how", "fraction"),
    [("write_parquet", 0.5), ("write_parquet", 0.9), ("sink_parquet", 0.5), ("write_csv", 0.5),
     ("write_csv", 0.9), ("sink_csv", 0.9)],
)
def test_kill_during_write_keeps_old_file(tmp_path, how: str, fraction: float) -> None:
    ext = "parquet" if "parquet" in how else "csv"
    target = tmp_path / f"out.{ext}"
    old = pl.DataFrame({"old": [1, 2, 3]})
    if ext == "parquet":
        old.write_parquet(target)
    else:
        old.write_csv(target)
    old_bytes = target.read_bytes()
    _kill_child_during_write(tmp_path, how, target, fraction)
    assert target.read_bytes() == old_bytes
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, "scratch"])


@pytest.mark.skipif(not os.path.exists("/proc/self/io"), reason="needs /proc/<pid>/io")
@pytest.mark.parametrize(("how", "fraction"), [("write_parquet", 0.5), ("sink_parquet", 0.5), ("write_csv", 0.5)])
def test_kill_during_write_to_a_new_path_leaves_no_file(tmp_path, how: str, fraction: float) -> None:
    # The target did not exist: after the kill there is no file there (no truncated one),
    # and no temporary file beside it.
    target = tmp_path / ("out.parquet" if "parquet" in how else "out.csv")
    _kill_child_during_write(tmp_path, how, target, fraction)
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scratch"]


def _kill_child_during_write(tmp_path, how: str, target, fraction: float) -> None:
    """Runs CHILD writing `target` and kills it once `fraction` of the write's bytes are out."""
    ext = target.suffix[1:]
    scratch = tmp_path / "scratch" / f"s.{ext}"
    scratch.parent.mkdir()
    child = subprocess.Popen([sys.executable, "-c", CHILD, how, str(target), str(scratch)], env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        size, base = (int(x) for x in child.stdout.readline().split())
        deadline = time.monotonic() + 120
        while _wchar(child.pid) < base + fraction * size:
            assert child.poll() is None, "the child ended before it was killed: " + child.stderr.read()
            assert time.monotonic() < deadline
            time.sleep(0.0005)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    assert child.returncode == -signal.SIGKILL


def _run_limited(script: str, *, user: int | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], env=_env(), capture_output=True, text=True,
                          timeout=120, user=user)


@pytest.mark.parametrize("how", ["write_parquet", "write_csv", "sink_parquet", "sink_csv"])
def test_file_size_limit_gives_oserror_and_keeps_old_file(tmp_path, how: str) -> None:
    # RLIMIT_FSIZE makes writes past 1 MiB fail with EFBIG, as a full disk fails with ENOSPC,
    # without privileges.
    target = tmp_path / "out.bin"
    target.write_bytes(b"old content")
    script = textwrap.dedent(f"""
        import errno, resource, signal, frazil as pl
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
        df = pl.DataFrame({{"a": list(range(300_000)), "s": ["some text"] * 300_000}})
        try:
            if "{how}".startswith("sink"):
                getattr(df.lazy(), "{how}")(r"{target}", **({{"compression": "uncompressed"}} if "parquet" in "{how}" else {{}}))
            else:
                getattr(df, "{how}")(r"{target}", **({{"compression": "uncompressed"}} if "parquet" in "{how}" else {{}}))
        except OSError as e:
            print(type(e).__name__, e.errno == errno.EFBIG, str(e))
    """)
    out = _run_limited(script)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("OSError True"), out.stdout
    assert "File too large" in out.stdout and str(target) in out.stdout
    assert target.read_bytes() == b"old content"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]


def test_full_tmpfs_gives_enospc_and_keeps_old_file(tmp_path) -> None:
    mnt = tmp_path / "small"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        target = mnt / "out.parquet"
        pl.DataFrame({"old": [1]}).write_parquet(target)
        old_bytes = target.read_bytes()
        df = pl.DataFrame({"a": list(range(200_000))})
        for write in (lambda: df.write_parquet(target, compression="uncompressed"), lambda: df.write_csv(target)):
            with pytest.raises(OSError, match="No space left on device") as e:
                write()
            assert e.value.errno == errno.ENOSPC
            assert target.read_bytes() == old_bytes
            assert [p.name for p in mnt.iterdir()] == ["out.parquet"]
    finally:
        subprocess.run(["umount", str(mnt)], check=True)


def test_read_only_directory_gives_permission_error() -> None:
    # Under /tmp itself: pytest's tmp_path is private to its user, and the write may run as
    # another user (root ignores directory permissions: the effective user becomes nobody).
    import shutil
    import tempfile

    base = tempfile.mkdtemp(prefix="frazil_ro_", dir="/tmp")
    os.chmod(base, 0o755)
    d = os.path.join(base, "ro")
    os.mkdir(d)
    target = os.path.join(d, "out.csv")
    with open(target, "w") as f:
        f.write("old\n")
    os.chmod(d, 0o555)
    as_root = os.geteuid() == 0
    try:
        for how in ("write_csv", "write_parquet"):
            if as_root:
                os.seteuid(65534)
            try:
                with pytest.raises(PermissionError, match="Permission denied"):
                    getattr(pl.DataFrame({"a": [1]}), how)(target)
            finally:
                if as_root:
                    os.seteuid(0)
            with open(target) as f:
                assert f.read() == "old\n"
            assert os.listdir(d) == ["out.csv"]
    finally:
        os.chmod(d, 0o755)
        shutil.rmtree(base)


def test_devices_are_written_not_unlinked(tmp_path) -> None:
    df = pl.DataFrame({"a": [1, 2]})
    df.write_csv("/dev/null")
    df.write_parquet("/dev/null")
    assert os.path.exists("/dev/null")
    if os.path.exists("/dev/full"):
        with pytest.raises(OSError, match="No space left on device"):
            pl.DataFrame({"a": list(range(500_000))}).write_csv("/dev/full")
        assert os.path.exists("/dev/full")


def test_directory_target_is_refused(tmp_path) -> None:
    with pytest.raises(IsADirectoryError):
        pl.DataFrame({"a": [1]}).write_parquet(tmp_path)
    assert tmp_path.is_dir()


def test_symlink_target_is_replaced_through_the_link(tmp_path) -> None:
    real = tmp_path / "real.parquet"
    pl.DataFrame({"a": [1]}).write_parquet(real)
    link = tmp_path / "link.parquet"
    link.symlink_to(real)
    pl.DataFrame({"a": [2, 3]}).write_parquet(link)
    assert link.is_symlink()
    assert pl.read_parquet(real)["a"].to_list() == [2, 3]


@pytest.mark.parametrize("read", [pl.read_csv, pl.read_parquet, lambda p: pl.scan_parquet(p).collect(),
                                  lambda p: pl.scan_csv(p).collect()])
def test_missing_file_is_file_not_found(tmp_path, read) -> None:
    with pytest.raises(FileNotFoundError, match="No such file or directory"):
        read(tmp_path / "missing.file")


def test_missing_directory_on_write_is_file_not_found(tmp_path) -> None:
    with pytest.raises(FileNotFoundError):
        pl.DataFrame({"a": [1]}).write_csv(tmp_path / "no" / "such.csv")
