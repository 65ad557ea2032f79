"""Known, not yet fixed differences between frazil and Polars that the fuzzer finds.

Each entry names the issue, says why it is open, and recognizes its failures by the
oracle, the signature, the query text and the failure message. Matching failures are
counted and reported by the fuzz run but do not fail it; every entry also has a strict
xfail reproducer in tests/python/test_lazy_known_issues.py, so a fix shows up as an XPASS
there and the entry can be deleted. Keep this list short: fix bugs rather than list them.
"""
from __future__ import annotations

import re

# id -> (oracle, signature regex, query-source regex, message regex, reason)
KNOWN: dict[str, tuple[str, str, str, str, str]] = {
    "strict-cast-on-skipped-rows": (
        "differential", r"^frazil-error:InvalidOperationError$", r"strict=True", r"conversion from",
        "a strict cast fails on a row Polars never evaluates: Polars drops dead when(<null/false>) branches and "
        "runs constant-false filters first (filter(cast).filter(lit(-1).is_between(0, 2))); frazil folds "
        "when(false) only when both branches have the same length and does not fold function calls on "
        "literals, so it evaluates the cast"),
    "dynamic-literal-arithmetic-unfolded": (
        "differential", r"^(dtypes|values|height)$",
        r"\(pl\.lit\([^()]*\) (\*\*|//|[-+*/%]) (pl\.lit\(|-?\d|nan|inf)|\(-pl\.lit\(|"
        r"pl\.lit\([^()]*\)\.(fill_null|fill_nan|shift|reverse|ceil|floor|round|round_sig_figs|abs|sqrt|sort|over|clip)\(|"
        r"\(-?\d[\d.e]* (\*\*|//|[-+*/%]) pl\.lit\(", r"",
        "an operation on dynamic literals that constant folding does not fold (lit(0) ** 0, -lit(3), "
        "lit(1000).shift()) gets "
        "a materialized dtype; Polars keeps it dynamic, so .fill_null(col_f32) is f32 there and f64 here; "
        "a function of the widened column shows it as values (col_i8.fill_null(lit(0).abs()) is Int32 here, so "
        "its bitwise_leading_zeros is 29, not 5) and a filter on those as a height (fuzz seed 14 case 1226)"),
    "dynamic-literal-negation-concat": (
        "differential", r"^polars-error:SchemaError$", r"pl\.concat\(.*pl\.lit\(", r"incompatible with expected type",
        "Polars types -lit(2**31) (or lit(0) - lit(2**40)) as Int32 but lit(2**31) as Int64, so a concat of "
        "such columns fails there (even of two equal ones); frazil types them Int64"),
    "polars-group-std-of-one-infinite": (
        "differential", r"^(values|height)$", r"\.(std|var)\(", r"NaN|null|heights differ",
        "Polars' group_by path gives std/var 0.0 for a group of one infinite value or of nulls only (its "
        "Series.std gives NaN / null, as frazil does)"),
    "int-mean-beyond-float-precision": (
        "differential", r"^values$", r"\.(mean|std|var)\([\s\S]*92233720368547758\d\d",
        r"",
        "a mean of Int64 values beyond 2^53 is a sum of rounded doubles in both engines, and the values "
        "cancel differently in each one's order (i64 max, -i64 max and eight small values: exact -55.8, "
        "frazil -66.2, Polars 0.0); summing integers exactly (in 128 bits, as DuckDB) would make frazil's "
        "exact but still not Polars'"),
    "polars-cross-join-slice": (
        "differential", r"^(height|values)$", r"how='cross'.*\.(slice|head|tail|limit|first|last)\(", r"",
        "Polars bug: a slice of a cross join followed by group_by is dropped from the plan"),
    "polars-eq-missing-literal-in-agg": (
        "differential", r"^values$", r"\.agg\(.*pl\.lit\(None, dtype=pl\.Boolean\)\.(eq_missing|ne_missing)", r"",
        "Polars bug: inside group_by().agg(), lit(None, Boolean).eq_missing(<number>) is true (false in a "
        "select, and in frazil)"),
    "polars-std-of-literal-null-group": (
        "differential", r"^values$", r"pl\.lit\(None, dtype=pl\.Boolean\)\.alias\(.*\.(std|var)\(", r"",
        "Polars gives std/var 0.0 (not null) for a group of a column made by lit(None, Boolean) (a real null "
        "Boolean column gives null there too)"),
    "polars-window-of-literal": (
        "differential", r"^(height|values)$", r"pl\.lit\([^()]*\)\.over\(", r"",
        "Polars bug: a literal's window (lit(0.0).over('k')) gets a height other than the frame's (2 or 1 "
        "rows for a 3-row frame, depending on the plan); frazil gives the frame's height"),
    "dead-when-branch-typing": (
        "differential", r"^dtypes$", r"when\(\(*pl\.lit\(", r"",
        "Polars drops the branches a literal predicate decides before typing a when/then chain, so their "
        "values do not widen the result (when(False).then(lit(2**40)).otherwise(lit(1)) is Int32 there, "
        "Int64 here)"),
    "dead-when-branch-errors": (
        "differential", r"^frazil-error:(SchemaError|InvalidOperationError|ComputeError)$", r"when\(\(*pl\.lit\(",
        r"",
        "a when/then branch that a literal predicate never takes holds an ill-typed expression: Polars drops "
        "the branch first, frazil type-checks the whole chain and raises"),
    "polars-null-all-in-agg": (
        "differential", r"^(values|height)$",
        r"\.agg\(.*(pl\.lit\(None, dtype=pl\.Boolean\)\.all\(\)|pl\.lit\([^()]*\)\.shift\(.*\.all\(\))", r"",
        "Polars bug: lit(None, Boolean).all() (or (lit(1).shift(-2) == 1).all(), also null) is true in a "
        "select (no false value) but false inside group_by().agg(); frazil gives true in both"),
    "polars-floor-div-by-reciprocal": (
        "differential", r"^values$", r"// (pl\.lit\(-?\d+\.\d+|\(?-?\d+ / pl\.lit\()", r"",
        "Polars divides by a float literal through its reciprocal: 52.5 // (-3 / 100) is -1751 there "
        "(52.5 * (1 / -0.03) = -1750.0000000000002), -1750 in frazil (52.5 / -0.03 = -1750.0 exactly)"),
    "polars-bool-floordiv-float": (
        "differential", r"^polars-error:InvalidOperationError$", r"//", r"floor_div operation not supported for dtype `bool`",
        "Polars rejects Boolean // float (but allows Boolean // int, Boolean % float, ...); frazil computes it"),
    "polars-fill-null-of-literal-height": (
        "differential", r"^(height|values)$", r"pl\.lit\([^()]*\)\.fill_null\(pl\.col", r"",
        "Polars bug: lit(x).fill_null(col) gets a height other than the frame's in some plans (2 rows of 3)"),
    "polars-negative-zero-group-key": (
        "differential", r"^values$", r"group_by\(|unique\(", r'"-0\.0"|-inf|\binf',
        "Polars writes the group key -0.0 as 0.0 with several keys (one key keeps -0.0), and unique() rows "
        "too; frazil keeps -0.0, which shows once cast to a string or divided by"),
    "huge-float-remainder": (
        "differential", r"^(values|height)$", r"(?s)%.*(9223372036854775|1e300)|1e300.*%", r"",
        "x % y of a float around 9.2e18 (an Int64 extreme times 0.1) or 1e300 keeps no significant digits: the "
        "engines' rounding differs (Polars' (x - 1e300) % 9.5e14 is -1.5e284, larger than the divisor)"),
    "polars-is-between-null-bound-in-agg": (
        "differential", r"^values$", r"\.agg\(.*is_between\(", r"null",
        "inside group_by().agg() Polars gives null for is_between with a null bound even when the other "
        "bound already excludes the value (false in a select, and in frazil: Kleene AND)"),
    "polars-casts-filtered-rows": (
        "differential", r"^polars-error:InvalidOperationError$", r"strict=True", r"conversion from",
        "Polars pushes a filter with a strict cast below an earlier filter and fails on rows that filter "
        "removes; frazil does not"),
    "polars-when-literal-comparison-height": (
        "differential", r"^(height|values)$",
        r"pl\.when\(pl\.lit\([^()]*\)\)\.then\(\(pl\.lit\([^()]*\) [<>=!]=? pl\.col\(|"
        r"with_columns\(pl\.lit\([^()]*\)\.alias\(.*\(pl\.lit\([^()]*\) [<>=!]=? pl\.col\(",
        r"",
        "Polars bug: when(<literal>).then(lit(x) <= col).otherwise(<literal>) gives 2 rows (1 eagerly) for a "
        "3-row frame (then(col >= x) gives 3), as does lit(x) <= col of a column made by lit(); frazil gives "
        "the frame's height"),
    "polars-sort-after-slice-of-ordered-join": (
        "differential", r"^(values|height)$",
        r"maintain_order='(left|right)[a-z_]*'\)\.(slice|head|tail|limit)\([^()]*\)\.(sort|group_by)\(", r"",
        "Polars bug: a sort or group_by after a slice of a join with maintain_order drops the join's order "
        "(the consumer seems to make it irrelevant), so the slice takes other rows"),
    "dynamic-literal-negation-is-in": (
        "differential", r"^polars-error:InvalidOperationError$", r"\(-pl\.lit\(2\*\*31\)\)\.is_in\(",
        r"is_in operation not supported for dtypes `i32`",
        "Polars types -lit(2**31) as Int32 and then rejects is_in([0]) (a list of Int64); (-lit(5)).is_in([0]) "
        "works there; frazil types it Int64"),
    "polars-negated-literal-vs-unsigned": (
        "differential", r"^values$", r"pl\.col\('[^']*'\) ([<>=!]=?|[-+*/%]) \(-pl\.lit\(\d+\)\)", r"null",
        "Polars bug: col_u32 > (-lit(100)) casts the negated literal to UInt32 (null) and gives null; "
        "col_u32 > -100 is true there, as both are in frazil"),
    "polars-string-quantile-in-agg": (
        "differential", r"^frazil-error:InvalidOperationError$", r"\.agg\(.*\.quantile\(",
        r"`quantile` operation not supported for dtype `str`",
        "Polars' group_by().agg() gives null for quantile of a String column, its select raises "
        "InvalidOperationError (as do its median/mean in agg, and frazil everywhere)"),
    "polars-literal-arithmetic-schema-mismatch": (
        "differential", r"^polars-error:SchemaError$", r"pl\.lit\([^()]*\) [-+*] ",
        r"join received different key types",
        "Polars plans (lit(2**40) - 2**40) next to a column as Int64 but computes Int32, so a join on it "
        "with an Int64 key fails at run time; frazil types it Int32 and joins"),
    "polars-literal-product-comparison": (
        "differential", r"^(height|values)$",
        r"\(\(pl\.lit\([^()]*\) [-+*] pl\.lit\([^()]*\)\) [<>=!]=? pl\.col\(", r"",
        "Polars bug: (lit(1000) * lit(1000)) >= col_i8 is right, but its cast to String (or its comparison "
        "with a string) is null where it is true; lit(1000000) >= col_i8 works"),
    "polars-when-skips-unneeded-branch": (
        "differential", r"^frazil-error:InvalidOperationError$", r"\.then\(.*\.otherwise\(.*\(-pl\.col\(",
        r"`neg` operation not supported for dtype `u",
        "Polars evaluates a when/then branch only when some row takes it (otherwise(-col_u16) is never "
        "negated when the predicate is all true, for some inputs only); frazil type-checks every branch while planning"),
    "polars-folded-literal-is-in": (
        "differential", r"^polars-error:InvalidOperationError$", r"pl\.lit\(.*\.is_in\(",
        r"conversion from `i128` to `i32` failed in column 'scalar'",
        "Polars bug: (1 - lit(2**40)).is_in([]) folds the literal to an Int128 scalar and fails to cast it "
        "to Int32; frazil folds it to Int64"),
    "polars-null-dtype-after-empty-filter": (
        "differential", r"^polars-error:SchemaError$", r"\.str\.", r"expected `String`, got `null`",
        "Polars bug: a when/then chain of string and int literals in agg() is planned as String but "
        "computed as Null when a constant-false filter empties the frame, and .str then fails"),
    "polars-var-overflow": (
        "differential", r"^values$", r"(?s)\.(std|var)\(.*(1e300|e\+?30\d)|(1e300|e\+?30\d).*\.(std|var)\(",
        r"\binf\b",
        "Polars' std/var of equal values around 1e300 is inf (its sum of squares overflows); frazil's "
        "Welford update gives 0.0"),
    "polars-sum-of-offset-overflow": (
        "differential", r"^values$", r"\(pl\.col\('[^']*'\) [-+] [^()]*(\([^()]*\))?\)\.sum\(\)", r"",
        "Polars computes (x - c).sum() of a small integer column as x.sum() - n * c, so an element that wraps "
        "(Int16 -32768 - 1) does not wrap there; x - c alone wraps in both engines"),
    "dynamic-literal-unfolded-errors": (
        "differential", r"^polars-error:InvalidOperationError$",
        r"pl\.lit\([^()]*\)\.(shift|reverse|fill_null|sort)\(", r"`neg` operation not supported for dtype `u",
        "the dynamic-literal-arithmetic-unfolded difference seen through an error: Polars keeps lit(1).shift(1) "
        "dynamic, so lit(1).shift(1) - lit(1).count() is UInt32 there (and its negation fails), Int64 here"),
    "full-join-narrow-left-key": (
        "differential", r"^(frazil-error:InvalidOperationError|dtypes)$", r"how='full'", r"conversion from `|vs Int64",
        "frazil bug: a coalescing full join plans the key column with the left key's dtype (UInt32), Polars "
        "with the keys' supertype (Int64); the fix belongs in join_schema (plan/conversion/dsl_to_ir.cpp)"),
    "polars-filter-literal-and-aggregated-literal": (
        "differential", r"^frazil-error:InvalidOperationError$", r"\.filter\(.*pl\.lit\(", r"logical '&' is not supported",
        "Polars bug: filter(lit(1), lit(1).median()) keeps every row (filter(lit(1)) alone raises ComputeError: "
        "the predicate is not Boolean); frazil raises for both"),
    "polars-when-chain-literal-arithmetic-wraps": (
        "differential", r"^values$", r"\.when\(.*\.when\(.*\.otherwise\(\(pl\.lit\(-?\d+\) [-+*] pl\.lit\(2\*\*40\)\)\)",
        r"",
        "Polars bug: in a when/then chain of three or more branches, otherwise(lit(7) - lit(2**40)) of two Python "
        "ints is computed in Int32 (7 - 2**40 wraps to 7); with two branches, and in frazil, it is -1099511627769"),
    "polars-null-literal-comparison-shape": (
        "differential", r"^polars-error:ShapeError$", r"pl\.lit\(None, dtype=pl\.Boolean\) [<>=!]",
        r"zip node received non-equal length inputs",
        "Polars bug: a filter comparing lit(None, Boolean) with a comparison of a column made by lit(None) raises "
        "ShapeError (zip node received non-equal length inputs); frazil keeps no row (the predicate is null)"),
    "ill-typed-union-input-past-a-slice": (
        "differential", r"^frazil-error:(InvalidOperationError|ComputeError|SchemaError)$",
        r"pl\.concat\(\[.*\]\)\.(slice|head|tail|limit)\(", r"",
        "a concat whose later input is ill-typed (filter(lit(0.0)), -col_u8) under a slice the earlier inputs "
        "satisfy: Polars never resolves or runs that input (not even without optimizations); frazil "
        "type-checks the whole plan first and raises"),
    "polars-float16-ceil-floor": (
        "differential", r"^(values|height)$", r"(?s)pl\.Float16.*\.(ceil|floor)\(\)|\.(ceil|floor)\(\).*pl\.Float16", r"",
        "Polars bug: ceil() and floor() of Float16 return the values unchanged (859.5, 0.5 stay); frazil rounds"),
    "wide-int-numeric-functions": (
        "differential", r"^frazil-error:InvalidOperationError$", r"", r"operation not supported for dtype `[iu]128`",
        "frazil bug (not built yet): product, peak_min/peak_max, round_sig_figs and truncate refuse Int128 and "
        "UInt128 (Polars computes them in the integer's width); the other numeric functions of issue #16 take "
        "them, and Float16"),
    "approx-n-unique-is-exact": (
        "differential", r"^(values|height)$", r"\.approx_n_unique\(\)", r"",
        "frazil's approx_n_unique counts exactly; Polars' HyperLogLog estimate can be off even for tiny inputs "
        "([5, -3] -> 1); matching it would mean copying its hash and sketch"),
    "polars-arg-max-tie-in-small-frames": (
        "differential", r"^values$", r"\.arg_(max|min)\(\)", r"",
        "Polars bug: in a lazy query over a small frame arg_max/arg_min of tied values give the last one ([5, 5] "
        "-> 1, [5, 3, 5] -> 2), over a longer one and as a Series the first (0), as frazil always does"),
}

# Differences an oracle works around (it checks a variant of the query instead) and counts.
TOLERATED = {
    "several-errors-other-order": (
        "a query with several errors: frazil and Polars report different ones first (frazil type-checks the "
        "whole plan before running it, Polars some checks only on data). The oracle locates the first "
        "failing steps and expressions in each engine and accepts any order when there are several, and a "
        "planning-time type error of frazil before a strict-cast failure Polars meets on data."),
    "dead-code-evaluated": (
        "frazil type-checks and evaluates select/with_columns/agg items that no later step reads (e.g. "
        "`with_columns(lit(1).str.to_lowercase()).select(lit(1))` raises, `select(-col_u64).select(lit(1.5))` "
        "raises at run time); Polars never computes them. The oracle compares the query without such items. "
        "Conversely frazil simplifies filter(lit(False), <ill-typed>) away where Polars raises; then frazil "
        "without optimizations must raise the same error. And Polars' optimizer folds literal-only parts "
        "away (True | (lit('a') != lit(1))) that frazil type-checks while planning; then Polars without "
        "optimizations must raise frazil's error."),
}


def _without_negative_zero(case):
    """The case with every -0.0 of its frames made 0.0."""
    import copy
    import math

    out = copy.deepcopy(case)
    for frame in out.frames.values():
        for col in frame.columns:
            if col.dtype in ("Float16", "Float32", "Float64"):
                col.values = [0.0 if isinstance(v, float) and v == 0.0 and math.copysign(1.0, v) < 0 else v
                              for v in col.values]
    return out


# A difference that follows from one kind of input shows under whatever signature the rest
# of the query makes of it: a -0.0 group key Polars writes as 0.0 is a "values" difference
# in a select, a "height" one after a filter on its text, a "dtypes" one never. For such an
# entry, `neutralize` takes that input out of the case: if the failure then disappears (the
# oracle passes), it is the known difference, whatever its signature and message.
NEUTRALIZE = {
    "polars-negative-zero-group-key": _without_negative_zero,
}


def match_known(case, failure, recheck=None) -> str | None:
    """The KNOWN entry `failure` of `case` is. `recheck(case) -> Failure | None` runs the
    failure's oracle again; with it, the entries of NEUTRALIZE are tried too."""
    src = case.plan.render() + ("" if case.predicate is None else " " + case.predicate.render())
    src += "\n" + case.frames_src()
    for key, (oracle, sig, pattern, message, _reason) in KNOWN.items():
        if failure.oracle == oracle and re.search(sig, failure.signature) and re.search(pattern, src) and \
                re.search(message, failure.message):
            return key
    if recheck is not None:
        for key, neutralize in NEUTRALIZE.items():
            oracle, _sig, pattern, _message, _reason = KNOWN[key]
            if failure.oracle != oracle or not re.search(pattern, src):
                continue
            changed = neutralize(case)
            if changed.frames_src() != case.frames_src() and recheck(changed) is None:
                return key
    return None
