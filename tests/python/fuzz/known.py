"""Known, not yet fixed differences between frazil and Polars that the fuzzer finds.

Each entry names the issue, says why it is open, and recognizes its failures by the
oracle, the signature and the query text. Matching failures are counted and reported by
the fuzz run but do not fail it; every entry also has a strict xfail reproducer in
tests/python/test_lazy_known_issues.py, so a fix shows up as an XPASS there and the entry
can be deleted. Keep this list short: fix bugs rather than list them.
"""
from __future__ import annotations

import re

# id -> (oracle, signature regex, query-source regex, reason)
KNOWN: dict[str, tuple[str, str, str, str]] = {
    "dead-branch-errors": (
        "differential", r"^frazil-error:(InvalidOperationError|ComputeError)$", r"when\(pl\.lit\((None|False)",
        "when(<null/false literal>).then(<strict cast that fails>).otherwise(<scalar>): Polars drops the dead "
        "branch before running it; frazil folds it only when both branches have the same length, so it still "
        "evaluates the cast and raises"),
    "dynamic-literal-arithmetic-unoptimized": (
        "optimizer", r"^none:dtypes$", r"pl\.lit\(",
        "with simplify_expression off, an operation on two dynamic literals (lit(inf) - lit(0.5)) gets the "
        "materialized dtype (f64) instead of staying dynamic, so col_f32 % (...) is f64 instead of f32"),
    "dynamic-literal-arithmetic-unfolded": (
        "differential", r"^dtypes$", r"\(pl\.lit\([^()]*\) (\*\*|//|[-+*/%]) (pl\.lit\(|-?\d|nan|inf)",
        "an operation on two dynamic literals that constant folding does not fold (lit(0) ** 0) gets a "
        "materialized dtype; Polars keeps it dynamic, so .fill_null(col_f32) is f32 there and f64 here"),
}


def match_known(case, failure) -> str | None:
    src = case.plan.render() + ("" if case.predicate is None else " " + case.predicate.render())
    for key, (oracle, sig, pattern, _reason) in KNOWN.items():
        if failure.oracle == oracle and re.search(sig, failure.signature) and re.search(pattern, src):
            return key
    return None
