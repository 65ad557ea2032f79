"""scripts/check_layers.py: the tree's includes run downward, and an upward one fails."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "check_layers.py"


def run(root):
    return subprocess.run([sys.executable, str(SCRIPT), str(root)], capture_output=True, text=True)


def test_the_tree_is_layered():
    r = run(ROOT)
    assert r.returncode == 0, r.stdout


def test_an_include_from_a_lower_layer_to_a_higher_one_fails(tmp_path):
    core = tmp_path / "src" / "frazil" / "core"
    plan = tmp_path / "src" / "frazil" / "plan"
    core.mkdir(parents=True)
    plan.mkdir(parents=True)
    (plan / "ok.hpp").write_text('#include "frazil/core/x.hpp"\n')
    (core / "x.hpp").write_text('#pragma once\n#include "frazil/plan/ok.hpp"\n')
    r = run(tmp_path)
    assert r.returncode == 1
    assert "src/frazil/core/x.hpp:2: layer 'core' includes the higher layer 'plan'" in r.stdout


def test_an_unknown_layer_folder_fails(tmp_path):
    (tmp_path / "src" / "frazil" / "misc").mkdir(parents=True)
    (tmp_path / "src" / "frazil" / "misc" / "a.cpp").write_text("")
    assert run(tmp_path).returncode == 1
