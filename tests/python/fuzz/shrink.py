"""Greedy shrinking of a failing case: drop plan steps, expressions, options, rows,
chunks and columns, and replace subexpressions by their children or by literals, keeping
each change that still fails with the same signature."""
from __future__ import annotations

import dataclasses
import time

from .exprs import E
from .frames import Frame
from .oracles import Case, Failure, check
from .plans import P


def _p_nodes(p: P, path=()):
    yield path, p
    for i, c in enumerate(p.inputs):
        yield from _p_nodes(c, path + (i,))


def _p_replace(p: P, path, new: P) -> P:
    if not path:
        return new
    inputs = list(p.inputs)
    inputs[path[0]] = _p_replace(inputs[path[0]], path[1:], new)
    return dataclasses.replace(p, inputs=inputs)


def _plan_candidates(plan: P):
    for path, node in _p_nodes(plan):
        # Drop the step: its input (any input, for joins and concats) takes its place.
        for child in node.inputs:
            yield _p_replace(plan, path, child)
        # Drop one expression of a list, or one option.
        for li, lst in enumerate(node.exprs):
            if len(lst) > 1:
                for i in range(len(lst)):
                    exprs = [list(x) for x in node.exprs]
                    del exprs[li][i]
                    yield _p_replace(plan, path, dataclasses.replace(node, exprs=exprs))
        for key in list(node.opts):
            if key in ("descending", "nulls_last", "suffix", "coalesce", "maintain_order", "subset", "keep") and \
                    node.kind != "group_by":
                opts = dict(node.opts)
                del opts[key]
                yield _p_replace(plan, path, dataclasses.replace(node, opts=opts))
        # Simplify each expression.
        for li, lst in enumerate(node.exprs):
            for i, (e, alias, kw) in enumerate(lst):
                for smaller in _expr_candidates(e):
                    exprs = [list(x) for x in node.exprs]
                    exprs[li][i] = (smaller, alias, kw)
                    yield _p_replace(plan, path, dataclasses.replace(node, exprs=exprs))


LEAVES = {"int": "pl.lit(1)", "float": "pl.lit(0.5)", "bool": "pl.lit(True)", "str": 'pl.lit("a")'}


def _expr_candidates(e: E):
    for path, n in e.nodes():
        for k in n.kids:
            yield e.replace(path, k)
        if n.kids or not n.tpl.startswith("pl.lit"):
            leaf = LEAVES.get(n.cat)
            if leaf and n.tpl != leaf:
                yield e.replace(path, E(leaf, [], n.cat))


def _frame_candidates(frames: dict):
    for name, f in frames.items():
        h = f.height
        if f.chunks:
            yield {**frames, name: Frame(f.columns, [])}
        if h > 1:
            half = h // 2
            yield {**frames, name: f.with_rows(list(range(half)))}
            yield {**frames, name: f.with_rows(list(range(half, h)))}
        if 1 < h <= 24:
            for i in range(h):
                yield {**frames, name: f.with_rows([j for j in range(h) if j != i])}
        if len(f.columns) > 1:
            for c in f.columns:
                yield {**frames, name: f.without_column(c.name)}


def shrink(case: Case, failure: Failure, seconds: float = 20.0, max_checks: int = 400) -> Case:
    deadline = time.monotonic() + seconds
    checks = 0

    def still_fails(c: Case) -> bool:
        nonlocal checks
        checks += 1
        try:
            f = check(c, failure.oracle)
        except Exception:  # noqa: BLE001 - a candidate that breaks the generator's assumptions
            return False
        return f is not None and f.signature == failure.signature

    improved = True
    while improved and time.monotonic() < deadline and checks < max_checks:
        improved = False
        candidates = [dataclasses.replace(case, plan=p) for p in _plan_candidates(case.plan)]
        if case.predicate is not None:
            candidates += [dataclasses.replace(case, predicate=p) for p in _expr_candidates(case.predicate)]
        candidates += [dataclasses.replace(case, frames=f) for f in _frame_candidates(case.frames)]
        for cand in candidates:
            if time.monotonic() >= deadline or checks >= max_checks:
                break
            if still_fails(cand):
                case = cand
                improved = True
                break
    return case
