#!/usr/bin/env python3
"""Fails when a file of one layer includes a header of a higher layer.

frazil's layers (DESIGN.md): a layer may include its own headers and those of the layers
below it, never those above. The order, bottom up:"""
from __future__ import annotations

import pathlib
import re
import sys

LAYERS = ["core", "compute", "io", "functions", "dsl", "plan", "optimizer", "physical", "exec", "api",
          "sql", "serde", "distributed"]
RANK = {name: i for i, name in enumerate(LAYERS)}
INCLUDE = re.compile(r'^\s*#\s*include\s+"frazil/([a-z_]+)/')


def violations(root: pathlib.Path) -> list[str]:
    out = []
    src = root / "src" / "frazil"
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h", ".cc"):
            continue
        layer = path.relative_to(src).parts[0]
        if layer not in RANK:
            out.append(f"{path.relative_to(root)}: folder '{layer}' is not a known layer (scripts/check_layers.py)")
            continue
        for lineno, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            target = m.group(1)
            if target not in RANK:
                out.append(f"{path.relative_to(root)}:{lineno}: includes unknown layer '{target}'")
            elif RANK[target] > RANK[layer]:
                out.append(f"{path.relative_to(root)}:{lineno}: layer '{layer}' includes the higher layer "
                           f"'{target}' ({line.strip()})")
    return out


def main() -> int:
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent
    found = violations(root)
    for v in found:
        print(v)
    if found:
        print(f"check_layers: {len(found)} include(s) run upward; layers bottom up: {' < '.join(LAYERS)}")
        return 1
    print(f"check_layers: every include runs downward ({' < '.join(LAYERS)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
