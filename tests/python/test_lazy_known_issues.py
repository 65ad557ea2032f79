"""Open differences from Polars, each as the smallest reproducer the fuzzer (or a test)
found, marked strict xfail: when one gets fixed the test XPASSes (and fails the run), so the
mark and its entry in tests/python/fuzz/known.py are removed together."""
import math

import polars as pl
import pytest

from fuzz.harness import assert_same


def xfail(reason):
    return pytest.mark.xfail(reason=reason, strict=True)


@xfail("strict-cast-on-skipped-rows: Polars runs the constant-false filter first and never casts 'b'; "
       "frazil does not fold is_between on literals, keeps the filter order and fails the strict cast")
def test_strict_cast_behind_constant_false_filter():
    assert_same(lambda pl, lf: lf.filter(pl.col("c0").cast(pl.Int64, strict=True).is_in([1, 2, 3]))
                .filter(pl.lit(-1).is_between(0, 2)), {"c0": ["b"]})


@xfail("strict-cast-on-skipped-rows: Polars drops the dead when(null) branch; frazil folds when(null) only "
       "when both branches have the same length (here a column and a literal), so it evaluates the cast")
def test_strict_cast_in_dead_when_branch():
    assert_same(lambda pl, lf: lf.with_columns(e=pl.when(pl.lit(None, dtype=pl.Boolean))
                                               .then(pl.col("c0").cast(pl.Int8, strict=True))
                                               .otherwise(pl.lit(math.nan))), {"c0": ["ab"]})


F32 = pl.DataFrame({"c0": [None, 1.5]}, schema={"c0": pl.Float32})


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: (pl.lit(0) ** 0).fill_null(pl.col("c0")), id="pow_of_literals"),
    pytest.param(lambda pl: pl.when(pl.col("c0").is_null()).then(-pl.lit(3)).otherwise(pl.col("c0")),
                 id="negated_literal"),
])
@xfail("dynamic-literal-arithmetic-unfolded: an operation on Python-number literals that is not folded "
       "(lit(0) ** 0, -lit(3)) gets a materialized dtype (Int32); Polars keeps it dynamic, so next to a "
       "Float32 column the result is Float32 there and Float64 here")
def test_unfolded_dynamic_literal_keeps_adapting(build):
    assert_same(lambda pl, lf: lf.select(build(pl).alias("out")), F32)


@xfail("dynamic-literal-arithmetic-unfolded: lit(1).fill_null(lit(2**40)) is Int32 in Polars (the filled "
       "literal keeps lit(1)'s dtype), Int64 in frazil")
def test_fill_null_of_two_literals():
    assert_same(lambda pl, lf: lf.select(pl.lit(1).fill_null(pl.lit(2**40))), {"a": [1]})


@xfail("dynamic-literal-negation-concat: Polars types -lit(2**31) as Int32 and lit(2**31) as Int64, so the "
       "concat fails there with a SchemaError; frazil types both Int64 and concatenates")
def test_concat_of_literal_and_negated_literal():
    assert_same(lambda pl, lf: pl.concat([lf.select(pl.lit(2**31).alias("e")),
                                          lf.select((-pl.lit(2**31)).alias("e"))]), {"a": [1]})


@xfail("polars-group-std-of-one-infinite: Polars' group_by gives std 0.0 for a group holding one inf (its "
       "Series.std gives NaN, as frazil does everywhere)")
def test_group_std_of_single_infinity():
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("x").std(ddof=0)), {"g": [1], "x": [math.inf]})


@xfail("int-mean-beyond-float-precision: Int64 values beyond 2^53 are summed as doubles, and cancel "
       "differently in frazil's order and Polars'")
def test_group_mean_of_values_beyond_float_precision():
    values = [-1000, 2**63 - 1, 858, 1, -704, -991, 556, 995, -(2**63 - 1), -273]
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("x").mean()), {"g": [1] * 10, "x": values})


@xfail("dead-code-evaluated: frazil type-checks expressions whose result no later step reads; Polars "
       "prunes them first and never raises")
def test_unread_ill_typed_expression_is_not_checked():
    assert_same(lambda pl, lf: lf.with_columns(pl.lit(1).str.to_lowercase().alias("e")).select(pl.lit(1.5)),
                {"a": [1]})


@xfail("dead-code-evaluated: projection pushdown keeps a select whose only item no later step reads, so "
       "frazil runs -col(u64) and raises; Polars prunes it")
def test_unread_failing_projection_is_not_run():
    frame = pl.DataFrame({"a": [4]}, schema={"a": pl.UInt64})
    assert_same(lambda pl, lf: lf.select((-pl.col("a")).alias("e")).select(pl.lit(1.5)), frame)


@xfail("polars-eq-missing-literal-in-agg: a Polars bug; inside group_by().agg(), "
       "lit(None, Boolean).eq_missing(5) is true in Polars (false in a select, and in frazil)")
def test_eq_missing_of_null_literal_inside_agg():
    assert_same(lambda pl, lf: lf.group_by(pl.lit(1), maintain_order=True).agg(
        pl.lit(None, dtype=pl.Boolean).eq_missing(10 * pl.lit(2**40)).all().alias("e")), {"a": [0.5]})


@xfail("polars-window-of-literal: a Polars bug; lit(0.0).over('k') gets 2 rows (or 1, depending on the "
       "plan) for a 3-row frame in Polars, 3 in frazil")
def test_window_of_literal_has_frame_height():
    frame = pl.DataFrame({"c4": [2, 4, 1]}, schema={"c4": pl.Int32})
    assert_same(lambda pl, lf: lf.select(pl.col("c4").alias("e1"))
                .select((pl.lit(-0.0) > pl.lit(0.0).over("e1")).alias("e2")), frame)


@xfail("polars-std-of-literal-null-group: Polars gives std 0.0 for a group of a column made by "
       "lit(None, Boolean); null for a real null Boolean column, as frazil does for both")
def test_std_of_literal_null_group():
    assert_same(lambda pl, lf: lf.select(pl.lit(None, dtype=pl.Boolean).alias("e2"))
                .group_by("e2").agg(pl.col("e2").std(ddof=0).alias("e3")), {"c1": [None]})


@xfail("polars-cross-join-slice: a Polars bug; the slice of a cross join followed by group_by is dropped")
def test_slice_of_cross_join_before_group_by():
    frame = pl.DataFrame({"c1": [True, False, False]})
    assert_same(lambda pl, lf: lf.join(lf, how="cross", maintain_order="left_right").slice(-5, 11)
                .group_by("c1").agg(pl.len()), frame, check_row_order=False)


@xfail("dead-when-branch-errors: Polars drops the when(False) branch (with an ill-typed value) before "
       "type-checking the chain; frazil type-checks every branch and raises")
def test_ill_typed_dead_when_branch():
    assert_same(lambda pl, lf: lf.with_columns(pl.when(pl.lit(True)).then(pl.col("c0")).when(pl.lit(False))
                                               .then(pl.lit("a")).otherwise(pl.lit(0.5).str.to_uppercase())
                                               .alias("e")), {"c0": [5]})


@xfail("dead-when-branch-typing: Polars types when(False).then(lit(2**40)).otherwise(lit(1)) without the "
       "dead branch (Int32); frazil widens to the dead branch's Int64")
def test_dead_when_branch_does_not_widen():
    assert_same(lambda pl, lf: lf.select(pl.when(pl.lit(False)).then(pl.lit(2**40)).otherwise(pl.lit(1))
                                         .alias("e")), {"c0": [5]})


@xfail("polars-null-all-in-agg: a Polars bug; lit(None, Boolean).all() is true in a select, false inside agg()")
def test_all_of_null_literal_inside_agg():
    assert_same(lambda pl, lf: lf.group_by("c0").agg(pl.lit(None, dtype=pl.Boolean).all().alias("e")),
                {"c0": [True]})


@xfail("polars-floor-div-by-reciprocal: inside group_by().agg() Polars floor-divides by a float literal "
       "through its reciprocal (52.5 // -0.03 is -1751 there, -1750 in its select); frazil divides (-1750, as "
       "52.5 / -0.03 == -1750.0)")
def test_floor_division_by_float_literal():
    assert_same(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(e=pl.col("c0") // (-3 / pl.lit(100))),
                {"c0": [52.5, -714.5], "g": [1, 2]})


@xfail("polars-bool-floordiv-float: Polars rejects Boolean // float (it allows Boolean // int and "
       "Boolean % float); frazil computes it")
def test_boolean_floor_div_float():
    assert_same(lambda pl, lf: lf.select(pl.col("b") // 1.5), {"b": [True, None]})


@xfail("polars-fill-null-of-literal-height: a Polars bug; lit(1).fill_null(col) inside eq_missing gets 2 rows "
       "for a 3-row frame there, 3 in frazil")
def test_fill_null_of_literal_with_column_height():
    assert_same(lambda pl, lf: lf.select(pl.lit(1.5).eq_missing(pl.lit(1).fill_null(pl.col("c0"))).alias("e")),
                {"c0": [0, 2, 3]})


@xfail("polars-negative-zero-group-key: with two keys Polars writes the group key -0.0 as 0.0 (with one key "
       "it keeps -0.0); frazil keeps -0.0, visible once cast to a string")
def test_negative_zero_group_key_with_two_keys():
    assert_same(lambda pl, lf: lf.group_by("c3", pl.lit(1), maintain_order=True).len()
                .select(pl.col("c3").cast(pl.String)), {"c3": [-0.0]})


# Fixed by list arithmetic (compute/list/list_arith.cpp): a Python int next to List(Float32)
# takes the leaf's Float32, as in Polars.
def test_list_arithmetic_keeps_float32():
    frame = pl.DataFrame({"c4": [412.25], "g": [1]}, schema={"c4": pl.Float32, "g": pl.Int64})
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("c4")).select(pl.lit(2**40) / pl.col("c4")), frame)


@xfail("polars-is-between-null-bound-in-agg: inside agg() Polars gives null for is_between with a null bound "
       "even when the other bound excludes the value (false in its select, and in frazil)")
def test_is_between_null_bound_inside_agg():
    assert_same(lambda pl, lf: lf.group_by(pl.lit("a").alias("k"), maintain_order=False).agg(
        pl.lit(-0.0).is_between(pl.lit(2**40), pl.lit(None, dtype=pl.Float64), closed="none").alias("e")),
        {"c0": [None]})


@xfail("polars-when-literal-comparison-height: Polars gives 2 rows for a 3-row frame when a literal "
       "predicate picks between lit(x) <= col and a literal (frazil: 3 rows)")
def test_when_literal_then_literal_comparison_height():
    frame = pl.DataFrame({"c0": [None, 4, None]}, schema={"c0": pl.Int32})
    assert_same(lambda pl, lf: lf.select(pl.when(pl.lit(False)).then(pl.lit(1) <= pl.col("c0"))
                                         .otherwise(pl.lit(False)).alias("e")), frame)


def _sliced_ordered_join(m, a, b, right):
    return a.join(m.concat([b, b]) if right is None else right, how="inner", on="c0", maintain_order="right_left")


def test_sort_after_slice_of_ordered_join():
    # polars-sort-after-slice-of-ordered-join: Polars' lazy engine sometimes drops the
    # join's order before the slice (its answer varies from run to run), so the reference
    # is the join Polars computed, sliced and sorted eagerly.
    import frazil

    frame = pl.DataFrame({"c0": [False, False, False, True]})
    want = _sliced_ordered_join(pl, frame.lazy(), frame.lazy(), None).collect().slice(14, 9).sort("c0")
    got = (_sliced_ordered_join(frazil, frazil.DataFrame(frame).lazy(), frazil.DataFrame(frame).lazy(), None)
           .slice(14, 9).sort("c0").collect().to_polars())
    assert got.equals(want)


@xfail("polars-literal-product-comparison: Polars casts (lit(1000) * lit(1000)) >= col_i8 to String as null "
       "where it is true (lit(1000000) >= col_i8 casts fine); frazil gives 'true'")
def test_literal_product_comparison_cast():
    frame = pl.DataFrame({"c0": [2, None, -5]}, schema={"c0": pl.Int8})
    assert_same(lambda pl, lf: lf.select(((pl.lit(1000) * pl.lit(1000)) >= pl.col("c0")).cast(pl.String)), frame)


def test_group_by_after_slice_of_ordered_join():
    # The same Polars quirk before a group_by: the reference is computed eagerly.
    import frazil

    left = pl.DataFrame({"c0": [5, 0, 4, 1, 4, 1, 5, 0, None, 1, 5, 0, -3, 0, -1, 3, -3, 0, 3, -2, 4, 4, -2, 1,
                                2, -2, 4]})
    right = pl.DataFrame({"c0": [-2, 5, 4, 0]})
    want = (_sliced_ordered_join(pl, left.lazy(), None, right.lazy()).collect().slice(14, 7)
            .group_by("c0").agg(pl.len()).sort("c0"))
    got = (_sliced_ordered_join(frazil, frazil.DataFrame(left).lazy(), None, frazil.DataFrame(right).lazy())
           .slice(14, 7).group_by("c0").agg(frazil.len()).collect().to_polars().sort("c0"))
    assert got.equals(want)


@xfail("dynamic-literal-negation-is-in: Polars types -lit(2**31) as Int32 and rejects is_in([0]) (frazil: "
       "Int64, false)")
def test_negated_literal_is_in():
    assert_same(lambda pl, lf: lf.select((-pl.lit(2**31)).is_in([0])), {"a": [1]})


@xfail("polars-negated-literal-vs-unsigned: Polars casts (-lit(100)) to UInt32 (null) next to a UInt32 "
       "column; col_u32 > -100 is true there and in frazil")
def test_unsigned_compared_with_negated_literal():
    frame = pl.DataFrame({"c1": [0]}, schema={"c1": pl.UInt32})
    assert_same(lambda pl, lf: lf.select(pl.col("c1") > (-pl.lit(100))), frame)


@xfail("polars-string-quantile-in-agg: Polars' agg() gives null for quantile of strings (its select raises "
       "InvalidOperationError, as frazil does in both)")
def test_string_quantile_in_agg():
    assert_same(lambda pl, lf: lf.group_by("c0").agg(pl.col("c0").cast(pl.String).quantile(0.5)),
                {"c0": [-347.75]})


@xfail("polars-literal-arithmetic-schema-mismatch: Polars plans (lit(2**40) - 2**40) next to a column as Int64 "
       "but computes Int32, so the join with an Int64 key fails at run time")
def test_join_on_literal_arithmetic_key():
    frame = pl.DataFrame({"c0": [None]}, schema={"c0": pl.Float64})
    assert_same(lambda pl, a, b: a.select((pl.lit(2**40) - 2**40).alias("e1"), pl.col("c0"))
                .join(b.select(pl.lit(2**40).alias("e1")), how="anti", on="e1"), frame, frame)


@xfail("polars-when-skips-unneeded-branch: Polars never negates the UInt16 otherwise branch when the predicate "
       "is all true; frazil rejects -col_u16 while planning")
def test_unsigned_negation_in_untaken_branch():
    frame = pl.DataFrame({"c0": [2, 3, 0, 5]}, schema={"c0": pl.UInt16})
    assert_same(lambda pl, lf: lf.group_by("c0", maintain_order=True).agg(pl.col("c0").first().alias("e3"))
                .head(8).with_columns(e8=pl.lit(True))
                .filter(pl.when(pl.col("e8")).then(pl.lit(True)).otherwise(0 == (-pl.col("e3")))), frame)


@xfail("huge-float-remainder: Polars' (x - 1e300) % 9.5e14 is -1.5e284 (larger than the divisor); frazil 0.0")
def test_huge_float_remainder():
    frame = pl.DataFrame({"c2": [0, 1, 0]}, schema={"c2": pl.Int16})
    assert_same(lambda pl, lf: lf.select((pl.col("c2") - 1e300) % pl.lit(946728000000000).cast(pl.Int64)), frame)


@xfail("polars-folded-literal-is-in: Polars folds 1 - lit(2**40) to an Int128 scalar that fails to cast to Int32 "
       "in is_in([]); frazil gives false")
def test_folded_literal_is_in_empty():
    assert_same(lambda pl, lf: lf.filter(~(1 - pl.lit(2**40)).is_in([])), {"a": [1]})


@xfail("polars-null-dtype-after-empty-filter: Polars computes the String when/then chain as Null once a false "
       "filter empties the frame, and .str.ends_with fails")
def test_string_when_chain_after_false_filter():
    assert_same(lambda pl, lf: lf.group_by("c0", maintain_order=True).agg(
        pl.when(pl.col("c0").is_null().all()).then(pl.lit("a")).when(pl.lit(True)).then(pl.lit(2))
        .otherwise(pl.col("c0")).last().alias("e2"))
        .filter(pl.lit(math.inf).is_in([0.0, 0.5]), pl.col("e2").str.ends_with("a")), {"c0": ["ab", "A"]})


@xfail("polars-var-overflow: Polars' var of 19 values of 1e300 is inf (sum of squares overflows); frazil 0.0")
def test_var_of_huge_equal_values():
    assert_same(lambda pl, lf: lf.select(pl.col("a").var()), {"a": [1e300] * 19})


@xfail("polars-sum-of-offset-overflow: Polars sums (x - 1) of Int16 -32768 as x.sum() - n (no wrap); "
       "frazil wraps x - 1 first, as both engines do for x - 1 alone")
def test_sum_of_wrapping_offset():
    frame = pl.DataFrame({"c0": [-32768, 5]}, schema={"c0": pl.Int16})
    assert_same(lambda pl, lf: lf.select((pl.col("c0") - pl.lit(1)).sum()), frame)


@xfail("dynamic-literal-unfolded-errors: lit(1).shift(1) - lit(1).count() is UInt32 in Polars (the shifted "
       "literal stays dynamic), so negating it fails there; Int64 in frazil")
def test_negation_of_shifted_literal_minus_count():
    assert_same(lambda pl, lf: lf.select((pl.lit(1).shift(1) - pl.lit(1).count()).alias("e3"))
                .with_columns(e6=-pl.col("e3")), {"c2": [None]})


@xfail("full-join-narrow-left-key: the coalesced key of a full join of UInt32 with Int64 keys is planned as "
       "UInt32 (the left key's dtype) in frazil, Int64 (the supertype) in Polars")
def test_full_join_coalesced_key_takes_the_supertype():
    narrow = pl.DataFrame({"k": [1, 2]}, schema={"k": pl.UInt32})
    wide = pl.DataFrame({"k": [2, 2**40]}, schema={"k": pl.Int64})
    assert_same(lambda pl, a, b: a.join(b, on="k", how="full", coalesce=True), narrow, wide, check_row_order=False)


@xfail("polars-when-literal-comparison-height: lit(-0.0) <= col of a column made by lit(1) gives 2 rows for a "
       "3-row frame in Polars (frazil: 3)")
def test_literal_compared_with_literal_column_height():
    frame = pl.DataFrame({"c0": [None, 4, None]}, schema={"c0": pl.Int32})
    assert_same(lambda pl, lf: lf.with_columns(pl.lit(1).alias("e1"))
                .select((pl.lit(-0.0) <= pl.col("e1")).alias("e2")), frame)


@xfail("polars-null-all-in-agg: (lit(1).shift(-2) == 1).all() is null-only, true in Polars' select but false "
       "in its agg(); frazil true in both")
def test_all_of_shifted_literal_in_agg():
    frame = pl.DataFrame({"c1": [None]}, schema={"c1": pl.UInt16})
    assert_same(lambda pl, lf: lf.group_by("c1").agg((pl.lit(1).shift(-2) == pl.lit(1)).all().alias("e1")), frame)


@xfail("polars-filter-literal-and-aggregated-literal: Polars keeps every row for filter(lit(1), lit(1).median()) "
       "though neither predicate is Boolean (filter(lit(1)) alone raises); frazil raises")
def test_filter_of_int_literal_and_aggregated_literal():
    assert_same(lambda pl, lf: lf.filter(pl.lit(1), pl.lit(1).median()), {"a": [1, 2]})


@xfail("polars-when-chain-literal-arithmetic-wraps: in a three-branch when/then chain Polars computes "
       "lit(7) - lit(2**40) in Int32 (7); frazil gives -1099511627769")
def test_when_chain_of_three_branches_with_literal_arithmetic():
    assert_same(lambda pl, lf: lf.with_columns(
        pl.when(pl.col("c5")).then(pl.lit(1e300)).when(pl.col("c5")).then(pl.lit(True))
        .otherwise(pl.lit(7) - pl.lit(2**40)).alias("e1")), pl.DataFrame({"c5": [None]}, schema={"c5": pl.Boolean}))


@xfail("polars-null-literal-comparison-shape: Polars raises ShapeError (zip node received non-equal length "
       "inputs) for a filter comparing lit(None, Boolean) with a comparison of a lit(None) column")
def test_null_literal_compared_with_comparison_of_null_column():
    assert_same(lambda pl, lf: lf.with_columns(pl.lit(None, dtype=pl.Boolean).alias("e1"))
                .filter(pl.lit(None, dtype=pl.Boolean) > (pl.lit(0.5) <= pl.col("e1"))), {"c2": ["ba", "A", "ba"]})


@xfail("ill-typed-union-input-past-a-slice: Polars never resolves a concat input that a slice above does not "
       "reach (filter(lit(0.0)) there); frazil type-checks it and raises")
def test_ill_typed_union_input_past_a_slice():
    assert_same(lambda pl, lf: pl.concat([lf, lf.filter(pl.lit(0.0))]).slice(1, 2), {"c4": [True, False, True]})


@xfail("wide-int-numeric-functions: product, peak_max, round_sig_figs and truncate refuse Int128 (Polars "
       "computes them in the integer's width)")
def test_numeric_functions_of_int128():
    frame = pl.DataFrame({"a": [3, -(2**100), 5]}, schema={"a": pl.Int128})
    assert_same(lambda pl, lf: lf.select(pl.col("a").product(), pl.col("a").peak_max().alias("p")), frame)


@xfail("polars-float16-ceil-floor: Polars' ceil/floor of Float16 leave 859.5 and 0.5 unchanged")
def test_ceil_of_float16():
    frame = pl.DataFrame({"c2": [859.5, 0.5]}, schema={"c2": pl.Float16})
    assert_same(lambda pl, lf: lf.select(pl.col("c2").ceil(), pl.col("c2").floor().alias("f")), frame)


@xfail("polars-arg-max-tie-in-small-frames: Polars' lazy arg_max of [5, 3, 5] is 2 (the Series' is 0, frazil's 0)")
def test_arg_max_of_tied_values_in_a_small_frame():
    assert_same(lambda pl, lf: lf.select(pl.col("c5").arg_max()), {"c5": [5, 3, 5]})


@xfail("approx-n-unique-is-exact: Polars' HyperLogLog estimates 1 distinct value of [5, -3]; frazil counts 2")
def test_approx_n_unique_of_two_values():
    assert_same(lambda pl, lf: lf.select(pl.col("c0").approx_n_unique()), {"c0": [5, -3]})
