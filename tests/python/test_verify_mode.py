"""Verify mode: collect(verify=True) (and FRAZIL_VERIFY=1) runs the query unoptimized too,
verify="passes" also with each optimization off in turn, and raises ComputeError with both
plans if a result differs. `make test` runs this whole suite a second time with
FRAZIL_VERIFY=1; here: the flag's forms, and that the extra runs agree on queries whose
row order is defined, only a multiset, or not defined at all."""
import os
import subprocess
import sys

import pytest

import frazil as pl
from fuzz.harness import assert_frames_match


def frame():
    return pl.DataFrame({"k": [3, 1, 3, 2, 1, None, 2], "v": [0.5, 1.5, -2.0, 4.0, None, 8.0, 0.1],
                         "s": ["a", "b", "a", None, "c", "b", "a"]})


QUERIES = {
    "filter_select": lambda lf: lf.filter(pl.col("v") > 0).select(pl.col("k"), (pl.col("v") * 2).alias("w")),
    "group_by": lambda lf: lf.group_by("k").agg(pl.col("v").sum(), pl.len()),
    "group_by_ordered": lambda lf: lf.group_by("s", maintain_order=True).agg(pl.col("v").mean()),
    "head_of_group_by": lambda lf: lf.group_by("k").agg(pl.col("v").max()).head(2),
    "sort_slice": lambda lf: lf.sort("v", nulls_last=True).slice(1, 3),
    "join": lambda lf: lf.join(lf.select("k", pl.col("s").alias("t")), on="k"),
    "unique": lambda lf: lf.unique(subset=["s"]),
    "with_row_index_of_group_by": lambda lf: lf.group_by("s").agg(pl.len()).with_row_index(),
    "cse": lambda lf: lf.select((pl.col("v") + 1).sum().alias("a"), ((pl.col("v") + 1) * 2).sum().alias("b")),
    "concat": lambda lf: pl.concat([lf, lf.filter(pl.col("k") == 3)]).select(pl.col("v").sum()),
}


@pytest.mark.parametrize("verify", [True, "passes"])
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_verified_collect_gives_the_plain_result(name, verify):
    lf = frame().lazy()
    plain = QUERIES[name](lf).collect(verify=False)
    checked = QUERIES[name](lf).collect(verify=verify)
    assert_frames_match(checked, plain.to_polars(), check_row_order=True)


def test_verify_flag_values():
    lf = frame().lazy()
    with pytest.raises(ValueError, match="verify must be"):
        lf.collect(verify="sometimes")


def test_verify_runs_the_unoptimized_plan_too():
    # The unoptimized run converts the plan without expression simplification: a second
    # conversion of the frame's cached plan shows it happened.
    lf = frame().lazy().select((pl.col("v") + 0).alias("w"))
    lf.collect(verify=False)
    before = lf._ldf.conversions()
    lf.collect(verify=True)
    assert lf._ldf.conversions() > before


def test_frazil_verify_from_the_environment():
    code = ("import frazil as pl\nlf = pl.DataFrame({'a': [1, 2]}).lazy().select(pl.col('a') + 0)\n"
            "lf.collect()\nn = lf._ldf.conversions()\nlf.collect()\nprint(n, lf._ldf.conversions())")
    for value, grows in (("1", True), ("passes", True), ("0", False)):
        env = dict(os.environ, FRAZIL_VERIFY=value)
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        first, second = map(int, out.stdout.split())
        assert (second > first) == grows, (value, out.stdout)
