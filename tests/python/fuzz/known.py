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
KNOWN: dict[str, tuple[str, str, str, str]] = {}


def match_known(case, failure) -> str | None:
    src = case.plan.render() + ("" if case.predicate is None else " " + case.predicate.render())
    for key, (oracle, sig, pattern, _reason) in KNOWN.items():
        if failure.oracle == oracle and re.search(sig, failure.signature) and re.search(pattern, src):
            return key
    return None
