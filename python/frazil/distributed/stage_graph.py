"""The stage graph of a LazyFrame (src/frazil/distributed/stage_planner.hpp): how its
optimized plan is cut at exchanges into stages of plan fragments, as a dict for the runners,
as text or as JSON (``LazyFrame.explain(engine="distributed" | "ray")``)."""

from __future__ import annotations

import json
from typing import Any

from frazil import _frazil


def _lazy_native(lf: Any) -> Any:
    from frazil.lazyframe import LazyFrame

    if not isinstance(lf, LazyFrame):
        raise TypeError(f"expected a LazyFrame, got {type(lf).__name__}")
    return lf._ldf


def _check_partitions(partitions: int) -> int:
    if not isinstance(partitions, int) or isinstance(partitions, bool) or partitions < 1:
        raise ValueError(f"partitions must be a positive int, got {partitions!r}")
    return partitions


def plan_stages(lf: Any, partitions: int = 2, *, broadcast: bool = True) -> dict:
    """The stage graph: {"stages": [...], "frames": [...], "ordered": bool} (see the C++
    stage_planner.hpp for the meaning of the input modes)."""
    from frazil.plan_serde import _install_codec

    _install_codec()  # Python functions in the plan (map_batches, ...) travel as pickles
    return _frazil.plan_stages(_lazy_native(lf), _check_partitions(partitions), broadcast)


def _stage_json(stage: dict, graph: dict, last: bool) -> dict:
    if stage["hash_keys"]:
        output = {"kind": "hash", "keys": list(stage["hash_keys"]), "partitions": stage["partitions"]}
    else:
        output = {"kind": "result" if last else "whole"}
    inputs = []
    for name, up, frame, mode in stage["inputs"]:
        source = {"stage": up} if up >= 0 else {"frame": frame, "rows": graph["frames"][frame].height}
        inputs.append({"name": name, **source, "mode": mode})
    return {"id": stage["id"], "tasks": stage["tasks"], "output": output, "inputs": inputs,
            "plan": stage["description"].rstrip("\n").split("\n")}


def explain_stages(lf: Any, partitions: int = 2, *, broadcast: bool = True, format: str = "plain") -> str:
    """The stage graph as text (format "plain": one "=== Stage k (n tasks) -> output ==="
    block per stage) or as JSON (format "json": {"ordered", "stages": [{"id", "tasks",
    "output": {"kind": "hash" | "whole" | "result", ...}, "inputs", "plan": [lines]}]})."""
    if format == "json":
        g = plan_stages(lf, partitions, broadcast=broadcast)
        stages = [_stage_json(s, g, i + 1 == len(g["stages"])) for i, s in enumerate(g["stages"])]
        return json.dumps({"ordered": g["ordered"], "stages": stages}, indent=2)
    if format not in ("plain", "tree"):
        raise ValueError(f"a distributed explain's format must be 'plain' or 'json', got {format!r}")
    return _frazil.explain_stages(_lazy_native(lf), _check_partitions(partitions), broadcast)


def explain_for_engine(lf: Any, engine: Any, partitions: int | None, format: str) -> str:
    """LazyFrame.explain(engine="distributed" | "ray" | RayEngine(...), partitions=N): a
    RayEngine's own partitions and broadcast choice apply; a name plans 2 partitions unless
    told (it starts no cluster)."""
    broadcast = getattr(engine, "broadcast", True)
    n = partitions or getattr(engine, "partitions", None) or 2
    return explain_stages(lf, n, broadcast=broadcast, format=format)
