"""What the spill tests' child processes share. Each spill test runs its queries in a fresh
process (tests/python/isolated.py), so that the memory limit, the spill directory and the
peak RSS belong to that query alone; CHILD_SETUP, put first in a child's script, lets it
import this module."""
import os

# The child sets its own limit and spill directory. make test's verify pass (FRAZIL_VERIFY)
# would also run every query unoptimized (no projection pushdown), a run the limits are
# not sized for.
UNSET = ("FRAZIL_MEMORY_LIMIT", "FRAZIL_TEMP_DIRECTORY", "FRAZIL_VERIFY")

CHILD_SETUP = f"import sys\nsys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r})\n"


def spill_dirs(tmp: str) -> list[str]:
    """The spill directories frazil made under FRAZIL_TEMP_DIRECTORY = tmp."""
    return [os.path.join(tmp, d) for d in os.listdir(tmp) if d.startswith("frazil-spill-")]


def spilled(tmp: str) -> bool:
    return bool(spill_dirs(tmp))


def spill_files(tmp: str) -> list[str]:
    """Every file left below tmp's subdirectories (the inputs sit in tmp itself)."""
    return [os.path.join(d, f) for d, _, fs in os.walk(tmp) for f in fs if d != tmp]


def with_memory_limit(limit, run):
    """run() under frazil's memory limit, which is lifted again afterwards."""
    import frazil as fz

    fz.Config.set_memory_limit(limit)
    try:
        return run()
    finally:
        fz.Config.set_memory_limit(None)


def proc_status(field: str) -> int:
    """A size from /proc/self/status (VmRSS, VmHWM), in bytes."""
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
    raise KeyError(field)


def peak_growth(run):
    """run()'s result and how far its peak RSS rose above the RSS before it."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # the peak (VmHWM) starts again from here
    base = proc_status("VmRSS")
    out = run()
    return out, proc_status("VmHWM") - base
