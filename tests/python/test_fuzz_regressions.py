"""Differences from Polars that the query fuzzer (tests/python/fuzz) found in frazil, each as
the smallest query that showed it, fixed, and kept here so that it stays fixed."""
import polars as pl
import pytest

from fuzz.harness import assert_same


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: pl.lit(100000) * pl.lit(100000), id="int32_materialized_product"),
    pytest.param(lambda pl: pl.lit(3) * pl.lit(2**40), id="mixed_widths"),
    pytest.param(lambda pl: pl.lit(2**62) * 2 + pl.col("c0"), id="past_int64_is_uint64"),
    pytest.param(lambda pl: 1 / (pl.lit(2**31) * pl.lit(2**40)), id="past_uint64_divided"),
])
def test_python_int_arithmetic_does_not_wrap(build):
    # Folding lit(a) op lit(b) of Python ints wrapped in Int32/Int64 (2**31 * 2**40 became 0).
    frame = pl.DataFrame({"c0": [1, None]}, schema={"c0": pl.UInt8})
    assert_same(lambda pl, lf: lf.select(build(pl).alias("e")), frame)


@pytest.mark.parametrize("key", [
    pytest.param(lambda pl: pl.col("c0").shift(1, fill_value=0), id="shift_fill"),
    pytest.param(lambda pl: pl.col("c0").shift(-1), id="shift"),
    pytest.param(lambda pl: pl.col("c0") - pl.col("c0").mean(), id="minus_mean"),
    pytest.param(lambda pl: pl.col("c0").reverse(), id="reverse"),
])
@pytest.mark.parametrize("morsel", ["1", "2", "3"])
def test_group_by_keys_reading_other_rows_see_the_whole_input(key, morsel, monkeypatch):
    # The keys were computed morsel by morsel (shift saw one row: every key was the fill value).
    monkeypatch.setenv("FRAZIL_MORSEL_SIZE", morsel)
    frame = {"c0": [-2, 3, 5, 3, -2, 7, 1]}
    assert_same(lambda pl, lf: lf.group_by(key(pl).alias("k"), maintain_order=True)
                .agg(pl.len(), pl.col("c0").sum().alias("s"), pl.lit(1).alias("one")), frame)


def test_full_join_coalesces_keys_of_two_dtypes():
    # The merged key column was filled from the right key of another dtype: "cannot select
    # between dtypes `i64` and `u32`" whenever a right row found no partner.
    left = pl.DataFrame({"c2": [-1.5]})
    right = pl.DataFrame({"c1": [5]}, schema={"c1": pl.UInt32})
    assert_same(lambda pl, a, b: a.with_columns(pl.lit(2**40).alias("c1"))
                .join(b, how="full", left_on=["c1"], right_on=["c1"], coalesce=True), left, right,
                check_row_order=False)
    wide = pl.DataFrame({"k": [2, 2**40]}, schema={"k": pl.Int64})
    narrow = pl.DataFrame({"k": [1, 2]}, schema={"k": pl.UInt32})
    assert_same(lambda pl, a, b: a.join(b, on="k", how="full", coalesce=True), wide, narrow, check_row_order=False)


@pytest.mark.parametrize("agg", ["min", "max"])
def test_grouped_min_max_of_signed_zeros_keep_the_last(agg):
    # Grouped min/max kept the first of -0.0 and 0.0, Polars (and frazil's select) the last;
    # 2**40 // max().over() showed it as -inf against inf.
    frame = {"c0": [-0.0, 0.0, 1.0, 0.0, -0.0], "g": [1, 1, 2, 3, 3]}
    assert_same(lambda pl, lf: lf.group_by("g").agg((1 / getattr(pl.col("c0"), agg)()).alias("r")), frame,
                check_row_order=False)
    assert_same(lambda pl, lf: lf.select((1 / getattr(pl.col("c0"), agg)().over("g")).alias("r")), frame)


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: pl.col("c0") > -1, id="gt"),
    pytest.param(lambda pl: pl.col("c0") == -1, id="eq"),
    pytest.param(lambda pl: -5 >= pl.col("c0"), id="ge_left"),
    pytest.param(lambda pl: pl.col("c0") + -1, id="plus"),
    pytest.param(lambda pl: pl.col("c0") // pl.lit(-1), id="floor_div"),
])
def test_uint64_next_to_a_negative_int(build):
    # The UInt64 column was cast strictly to Int64: `col_u64 > -1` raised for values past
    # Int64 (Polars compares exactly and makes those values null in arithmetic).
    frame = pl.DataFrame({"c0": [0, 1, 2**63, 2**64 - 2, None]}, schema={"c0": pl.UInt64})
    assert_same(lambda pl, lf: lf.select(build(pl).alias("e")), frame)


@pytest.mark.parametrize("where", ["select", "agg"])
def test_variance_of_large_values_close_together(where):
    # Welford's running mean of values near 2**40 rounded their differences away
    # (var 2.916697 for 2.916667); the values are now shifted by the first one.
    frame = pl.DataFrame({"c3": [1, 3, 5, 2, 4, 1, 0, 3]}, schema={"c3": pl.Int32})
    if where == "select":
        assert_same(lambda pl, lf: lf.select((pl.lit(2**40) - pl.col("c3")).var().alias("v"),
                                             (pl.lit(2**40) - pl.col("c3")).std(ddof=0).alias("s")), frame)
    else:
        assert_same(lambda pl, lf: lf.select(e1=(pl.lit(2**40) - pl.col("c3"))).group_by(pl.lit(True))
                    .agg(pl.col("e1").var().alias("v"), pl.col("e1").std().alias("s")), frame)


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl, lf: lf.with_columns(pl.all().is_not_null().alias("x")), id="with_columns"),
    pytest.param(lambda pl, lf: lf.select(pl.all().alias("x")), id="select"),
])
def test_alias_of_several_columns_is_reported_by_its_context(build):
    # An alias over pl.all() raised DuplicateError while expanding; Polars' with_columns
    # raises ComputeError, its select DuplicateError (found by the wide-plan fuzzer).
    assert_same(build, {"a": [1, None], "b": [2.5, 3.5]})


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: pl.lit("a string longer than twelve bytes").cast(pl.Int8, strict=False)
                 .eq_missing(pl.col("c0")), id="folded_null_eq_missing"),
    pytest.param(lambda pl: pl.lit(None, dtype=pl.Int8) == pl.col("c0"), id="null_eq"),
    pytest.param(lambda pl: pl.col("c0") != pl.lit(None, dtype=pl.Float64), id="null_ne_right"),
    pytest.param(lambda pl: pl.lit(1, dtype=pl.Int8) == pl.col("c0"), id="non_null_still_an_error"),
])
def test_typed_null_literal_compared_with_a_string_column(build):
    # A typed null literal takes the other side's dtype in a comparison (Polars); frazil
    # raised "cannot compare string with numeric type" (seed 20261201 case 15133).
    assert_same(lambda pl, lf: lf.select(build(pl).alias("r")), {"c0": ["ab", None]})
    assert_same(lambda pl, lf: lf.group_by(pl.lit("a")).agg(build(pl).alias("r")), {"c0": ["ab", None]})


@pytest.mark.parametrize("predicate", [
    pytest.param(lambda pl: pl.lit(0.0), id="float_literal"),
    pytest.param(lambda pl: pl.lit(1) + pl.lit(2), id="int_literals"),
    pytest.param(lambda pl: pl.col("a") * 2, id="column"),
])
def test_non_boolean_filter_predicate_error_kind(predicate):
    # Polars raises ComputeError for a predicate of literals only (found when it runs) and
    # InvalidOperationError for one over columns (while planning); frazil raised the latter for both.
    assert_same(lambda pl, lf: lf.filter(predicate(pl)), {"a": [1, 2]})


_I64 = 2**63 - 1
WIDE_INTS = pl.DataFrame({
    "a": [_I64, -_I64 - 1, _I64, None, 3, 2**62],
    "b": [1, -_I64 - 1, _I64, 5, None, 2**62],
    "c": [1, 1, 1, 1, 1, 127],
    "t": [True, True, None, False, True, None],
    "u": [255, 1, None, 0, 3, 2],
}, schema={"a": pl.Int64, "b": pl.Int64, "c": pl.Int8, "t": pl.Boolean, "u": pl.UInt8})


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: pl.mean_horizontal("a", "b"), id="int64_extremes"),
    pytest.param(lambda pl: pl.mean_horizontal("a", "c"), id="int64_with_int8"),
    pytest.param(lambda pl: pl.mean_horizontal("c", "c", "t"), id="int8_wraps"),
    pytest.param(lambda pl: pl.mean_horizontal("t", "t"), id="booleans"),
    pytest.param(lambda pl: pl.mean_horizontal("u", "c", ignore_nulls=False), id="keep_nulls"),
    pytest.param(lambda pl: pl.mean_horizontal("a", "b", pl.lit(1.5)), id="with_a_float_sums_in_float"),
    pytest.param(lambda pl: pl.mean_horizontal(pl.lit(None), "c"), id="null_literal"),
])
def test_mean_horizontal_of_integers_sums_in_their_dtype(build):
    # Polars sums integers in their supertype, wrapping, and divides the sum in Float64:
    # mean_horizontal(i64 min, i64 min) is 0.0 (seed 404 case 2454); frazil summed in Float64.
    assert_same(lambda pl, lf: lf.select(build(pl).alias("r")), WIDE_INTS)
    assert_same(lambda pl, lf: lf.select(build(pl).alias("r")), WIDE_INTS, chunks=3)
    assert_same(lambda pl, lf: lf.group_by("c").agg(build(pl).alias("r")).sort("c"), WIDE_INTS)


STRINGS = pl.DataFrame({"k": [1, 1, 2], "s": ["a", None, None], "t": ["x", "y", None], "b": [True, None, False],
                        "i": [1, 2, None]})


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: pl.sum_horizontal(pl.lit(1), pl.lit("a")), id="literals"),
    pytest.param(lambda pl: pl.sum_horizontal("s", "t"), id="nulls_are_empty"),
    pytest.param(lambda pl: pl.sum_horizontal("s", "t", ignore_nulls=False), id="keep_nulls"),
    pytest.param(lambda pl: pl.sum_horizontal("s", "b", "i"), id="boolean_and_int_as_text"),
    pytest.param(lambda pl: pl.sum_horizontal("s"), id="one_column"),
    pytest.param(lambda pl: pl.sum_horizontal(pl.lit(None), "t"), id="null_literal"),
])
def test_sum_horizontal_of_strings_concatenates(build):
    # Polars concatenates the values' text when their supertype is String; frazil raised
    # "`sum_horizontal` operation not supported for dtype `str`" (fuzz, in agg()).
    assert_same(lambda pl, lf: lf.select(build(pl).alias("r")), STRINGS)
    assert_same(lambda pl, lf: lf.select(build(pl).alias("r")), STRINGS, chunks=2)
    assert_same(lambda pl, lf: lf.select(build(pl).alias("r")), STRINGS.clear())
    assert_same(lambda pl, lf: lf.group_by("k").agg(build(pl).alias("r")).sort("k"), STRINGS)


@pytest.mark.parametrize("filter_", [
    pytest.param(lambda pl: pl.lit(False), id="literal_false"),
    pytest.param(lambda pl: pl.col("x") > 5, id="no_row_passes"),
])
@pytest.mark.parametrize("agg", [
    pytest.param(lambda pl: pl.col("x").sample(n=1).len(), id="sample_len"),
    pytest.param(lambda pl: pl.col("x").sample(n=2, seed=1).sum(), id="sample_sum"),
    pytest.param(lambda pl: pl.col("x").sample(n=1), id="sample"),
])
def test_sample_per_group_of_no_groups(filter_, agg):
    # With no groups, frazil ran the aggregation's input once over no rows for its dtype, and
    # sample(n=1) of no rows raised ShapeError; Polars gives no rows (fuzz).
    frame = pl.DataFrame({"k": [1, 1, 2], "x": [1.0, 2.0, 3.0]})
    assert_same(lambda pl, lf: lf.filter(filter_(pl)).group_by("k").agg(agg(pl).alias("r")), frame)


@pytest.mark.parametrize("build", [
    pytest.param(lambda pl: pl.lit(-2.25).sort(), id="sorted_literal"),
    pytest.param(lambda pl: pl.lit(1).sort(descending=True), id="sorted_descending"),
    pytest.param(lambda pl: pl.lit(3).reverse() + 1, id="reversed_literal"),
])
def test_window_of_a_literal_expression_broadcasts(build):
    # A one-row result per partition of an input that reads no column broadcasts (frazil
    # raised ShapeError once non-aggregates stopped broadcasting: seed 404 cases 621, 1652).
    frame = pl.DataFrame({"k": [4, 4, 1], "x": [1, 2, 3]})
    assert_same(lambda pl, lf: lf.select(build(pl).over("k").alias("r"), "x"), frame)
    assert_same(lambda pl, lf: lf.filter(pl.lit(1) > build(pl).over("k")), frame)
