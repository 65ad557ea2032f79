"""The physical plan (explain(format="physical")) as a Graphviz DOT graph: one node per
pipeline, labelled with its source, operators and sink, and an edge from each pipeline to
the pipelines whose output it reads (show_graph(plan_stage="physical"))."""
from __future__ import annotations

import re

_HEADER = re.compile(r"^PIPELINE (\d+)(?: \(([^)]*)\))?(?:, reads ([\d, ]+))?")


def _quote(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def physical_plan_dot(text: str) -> str:
    """DOT of the physical plan text; pipelines are `p<N>` as in the text."""
    nodes: list[tuple[int, list[str]]] = []
    edges: list[tuple[int, int]] = []
    for line in text.splitlines():
        header = _HEADER.match(line)
        if header:
            index = int(header.group(1))
            nodes.append((index, [f"pipeline {index}" + (f" ({header.group(2)})" if header.group(2) else "")]))
            for read in (header.group(3) or "").split(","):
                if read.strip():
                    edges.append((index, int(read)))
        elif nodes and line.startswith("  "):
            nodes[-1][1].append(line.strip())
    out = ["graph  polars_query {"]
    for index, lines in nodes:
        out.append(f'  p{index}[label="{_quote(chr(10).join(lines))}"]'.replace("\n", "\\n"))
    out.extend(f"  p{a} -- p{b}" for a, b in edges)
    out.append("}")
    return "\n".join(out) + "\n"
