"""Runs a test script in a fresh Python process, for tests that need frazil's thread count
or morsel size (read once per process) set differently from the test session's."""
import os
import subprocess
import sys


def run_script(script: str, *, threads: int, morsel_size: int | None = None, timeout: int = 300,
               unset: tuple[str, ...] = ()) -> str:
    """The script's standard output; fails the test if the script fails."""
    env = dict(os.environ, FRAZIL_MAX_THREADS=str(threads))
    if morsel_size is not None:
        env["FRAZIL_MORSEL_SIZE"] = str(morsel_size)
    for name in unset:
        env.pop(name, None)
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout
