"""The portable wheel that `make wheel` leaves in dist/, when there is one (building it
takes about 20 minutes, so `make test` does not): manylinux as auditwheel sees it, no
system codec library loaded, and importable in a fresh virtual environment."""
import glob
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHEELS = sorted(glob.glob(str(ROOT / "dist" / "frazil-*manylinux*.whl")))
pytestmark = pytest.mark.skipif(not WHEELS, reason="no wheel in dist/ (make wheel builds one)")


def auditwheel():
    exe = Path(sys.executable).with_name("auditwheel")
    if not exe.exists():
        pytest.skip("auditwheel is not installed (make wheel installs it)")
    return str(exe)


def test_auditwheel_sees_a_manylinux_wheel():
    out = subprocess.run([auditwheel(), "show", WHEELS[-1]], capture_output=True, text=True, check=True).stdout
    text = " ".join(out.split())  # auditwheel wraps its lines
    assert 'is consistent with the following platform tag: "manylinux_' in text, out


def test_module_loads_no_system_codec_library(tmp_path):
    with zipfile.ZipFile(WHEELS[-1]) as z:
        z.extractall(tmp_path)
    module = next(tmp_path.glob("frazil/_frazil*.so"))
    ldd = subprocess.run(["ldd", str(module)], capture_output=True, text=True, check=True).stdout
    for lib in ("libzstd", "liblz4", "libsnappy", "libz."):
        assert lib not in ldd, ldd
    # RE2 comes with the wheel (auditwheel copied it beside the package).
    re2 = [line for line in ldd.splitlines() if "libre2" in line]
    assert re2 and all("frazil.libs" in line for line in re2), ldd


def test_wheel_imports_in_a_fresh_venv(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-index", "--no-deps", WHEELS[-1]], check=True)
    script = (
        "import frazil as pl\n"
        "df = pl.DataFrame({'k': ['a', 'b', 'a'], 'v': [1, 2, 3]})\n"
        "out = df.lazy().filter(pl.col('k').str.contains('a')).group_by('k').agg(pl.col('v').sum()).collect()\n"
        "assert out.rows() == [('a', 4)], out\n"
        "print(pl.__version__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([str(py), "-c", script], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == Path(WHEELS[-1]).name.split("-")[1]
