"""The expression API, differential against Polars: every operator (also with reflected
Python scalars), null/NaN/-0.0/inf handling, casts, boolean functions, reductions,
shape functions, when/then/otherwise and windows."""
import math

import polars as pl
import pytest

from fuzz.harness import assert_same

NAN = math.nan
INF = math.inf

DATA = pl.DataFrame(
    {
        "a": [1, -7, None, 0, 12, 3, -1, 5],
        "b": [2, 3, 4, None, -5, 3, 0, 2],
        "x": [0.5, NAN, -0.0, None, INF, -INF, 2.25, -3.5],
        "y": [1.0, 2.0, 0.0, 4.0, None, -2.0, NAN, 0.25],
        "p": [True, False, None, True, None, False, True, False],
        "q": [True, True, False, None, None, False, False, True],
        "s": ["apple", "Banana", None, "", "cherry pie", "apple", "  pad  ", "ü-é"],
        "g": ["u", "v", "u", "w", "v", "u", "w", "u"],
        "i8": [1, -128, 127, None, 0, -1, 5, 2],
        "u32": [1, 2, 3, None, 4_000_000_000, 0, 7, 8],
        "f32": [1.5, -2.5, None, 0.0, 3.25, NAN, -0.0, 8.0],
    },
    schema_overrides={"i8": pl.Int8, "u32": pl.UInt32, "f32": pl.Float32},
)
EMPTY = DATA.clear()
ONE = DATA.slice(1, 1)


def c(name):
    return lambda pl: pl.col(name)


ARITH = [
    # name, expression builder
    ("add", lambda pl: pl.col("a") + pl.col("b")),
    ("sub", lambda pl: pl.col("a") - pl.col("b")),
    ("mul", lambda pl: pl.col("a") * pl.col("b")),
    ("truediv_int", lambda pl: pl.col("a") / pl.col("b")),
    ("floordiv_int", lambda pl: pl.col("a") // pl.col("b")),
    ("mod_int", lambda pl: pl.col("a") % pl.col("b")),
    ("pow_int", lambda pl: pl.col("b") ** 2),
    ("add_float", lambda pl: pl.col("x") + pl.col("y")),
    ("truediv_float", lambda pl: pl.col("x") / pl.col("y")),
    ("floordiv_float", lambda pl: pl.col("x") // pl.col("y")),
    ("mod_float", lambda pl: pl.col("x") % pl.col("y")),
    ("pow_float", lambda pl: pl.col("y") ** 0.5),
    ("pow_expr", lambda pl: pl.col("y").pow(pl.col("x"))),
    ("int_plus_float", lambda pl: pl.col("a") + pl.col("x")),
    ("i8_plus_i64", lambda pl: pl.col("i8") + pl.col("a")),
    ("i8_times_lit", lambda pl: pl.col("i8") * 2),
    ("u32_minus_i64", lambda pl: pl.col("u32") - pl.col("a")),
    ("f32_plus_lit", lambda pl: pl.col("f32") + 1.5),
    ("f32_times_int", lambda pl: pl.col("f32") * pl.col("a")),
    ("rsub", lambda pl: 1 - pl.col("a")),
    ("rmul_float", lambda pl: 0.2 * pl.col("a")),
    ("radd", lambda pl: 10 + pl.col("x")),
    ("rtruediv", lambda pl: 1 / pl.col("y")),
    ("rfloordiv", lambda pl: 100 // pl.col("b")),
    ("rmod", lambda pl: 17 % pl.col("b")),
    ("rpow", lambda pl: 2 ** pl.col("b")),
    ("neg", lambda pl: -pl.col("a")),
    ("neg_float", lambda pl: -pl.col("x")),
    ("pos", lambda pl: +pl.col("a")),
    ("abs", lambda pl: pl.col("a").abs()),
    ("abs_float", lambda pl: pl.col("x").abs()),
    ("abs_i8", lambda pl: pl.col("i8").abs()),
    ("round", lambda pl: (pl.col("y") * 1.2345).round(2)),
    ("round0", lambda pl: pl.col("x").round()),
    ("floor", lambda pl: pl.col("x").floor()),
    ("ceil", lambda pl: pl.col("y").ceil()),
    ("sqrt", lambda pl: pl.col("y").sqrt()),
    ("named_methods", lambda pl: pl.col("a").add(1).sub(pl.col("b")).mul(2).truediv(3)),
    ("lit_lit", lambda pl: pl.lit(3) - pl.lit(5)),
    ("mixed_tree", lambda pl: (pl.col("a") * 2 + pl.col("b")) % 5 - pl.col("a") // 3),
    ("int_div_by_zero_lit", lambda pl: pl.col("a") // 0),
    ("int_mod_by_zero_lit", lambda pl: pl.col("a") % 0),
    ("float_div_by_zero", lambda pl: pl.col("x") / 0),
    ("bool_plus_bool", lambda pl: pl.col("p") + pl.col("q")),
    ("bool_div_bool", lambda pl: pl.col("p") / pl.col("q")),
    ("bool_minus_bool_error", lambda pl: pl.col("p") - pl.col("q")),
    ("bool_times_bool_error", lambda pl: pl.col("p") * pl.col("q")),
    ("bool_plus_int", lambda pl: pl.col("p") + 1),
    ("bool_plus_i8", lambda pl: pl.col("p") + pl.col("i8")),
    ("bool_literals_plus", lambda pl: pl.lit(True) + pl.lit(True)),
]

COMPARE = [
    ("eq", lambda pl: pl.col("a") == pl.col("b")),
    ("ne", lambda pl: pl.col("a") != pl.col("b")),
    ("lt", lambda pl: pl.col("a") < pl.col("b")),
    ("le", lambda pl: pl.col("x") <= pl.col("y")),
    ("gt", lambda pl: pl.col("x") > 0),
    ("ge", lambda pl: pl.col("x") >= pl.col("y")),
    ("eq_nan", lambda pl: pl.col("x") == NAN),
    ("eq_neg_zero", lambda pl: pl.col("x") == 0.0),
    ("lt_inf", lambda pl: pl.col("x") < INF),
    ("reflected_lt", lambda pl: 3 < pl.col("a")),
    ("str_eq", lambda pl: pl.col("s") == "apple"),
    ("str_lt", lambda pl: pl.col("s") < pl.col("g")),
    ("bool_eq", lambda pl: pl.col("p") == pl.col("q")),
    ("eq_missing", lambda pl: pl.col("a").eq_missing(pl.col("b"))),
    ("ne_missing", lambda pl: pl.col("p").ne_missing(pl.col("q"))),
    ("named_cmp", lambda pl: pl.col("a").lt(2) & pl.col("b").ge(0)),
    ("u32_vs_neg", lambda pl: pl.col("u32") > -1),
    ("i8_vs_big", lambda pl: pl.col("i8") < 1000),
    ("int_vs_float", lambda pl: pl.col("a") == pl.col("x")),
]

BOOLEAN = [
    ("and", lambda pl: pl.col("p") & pl.col("q")),
    ("or", lambda pl: pl.col("p") | pl.col("q")),
    ("xor", lambda pl: pl.col("p") ^ pl.col("q")),
    ("invert", lambda pl: ~pl.col("p")),
    ("not_", lambda pl: pl.col("q").not_()),
    ("and_lit_true", lambda pl: pl.col("p") & True),
    ("and_lit_false", lambda pl: pl.col("p") & False),
    ("or_lit_true", lambda pl: pl.col("p") | True),
    ("ror_lit", lambda pl: False | pl.col("q")),
    ("and_null", lambda pl: pl.col("p") & pl.lit(None, dtype=pl.Boolean)),
    ("or_null", lambda pl: pl.col("p") | pl.lit(None, dtype=pl.Boolean)),
    ("and_or_many", lambda pl: pl.col("p").and_(pl.col("q"), pl.col("a") > 0).or_(pl.col("s") == "")),
    ("int_and", lambda pl: pl.col("a") & pl.col("b")),
    ("int_or", lambda pl: pl.col("a") | 6),
    ("int_xor", lambda pl: pl.col("a") ^ pl.col("b")),
    ("is_null", lambda pl: pl.col("a").is_null()),
    ("is_not_null", lambda pl: pl.col("s").is_not_null()),
    ("is_nan", lambda pl: pl.col("x").is_nan()),
    ("is_not_nan", lambda pl: pl.col("y").is_not_nan()),
    ("is_finite", lambda pl: pl.col("x").is_finite()),
    ("is_infinite", lambda pl: pl.col("x").is_infinite()),
    ("double_not", lambda pl: ~~pl.col("p")),
    ("not_of_cmp", lambda pl: ~(pl.col("a") > 1)),
]

NULLS_AND_SETS = [
    ("fill_null_lit", lambda pl: pl.col("a").fill_null(0)),
    ("fill_null_float_into_int", lambda pl: pl.col("a").fill_null(1.5)),
    ("fill_null_expr", lambda pl: pl.col("a").fill_null(pl.col("b"))),
    ("fill_null_str", lambda pl: pl.col("s").fill_null("missing")),
    ("fill_null_zero_strategy", lambda pl: pl.col("x").fill_null(strategy="zero")),
    ("fill_nan", lambda pl: pl.col("x").fill_nan(0.0)),
    ("coalesce", lambda pl: pl.coalesce("a", "b", pl.lit(-1))),
    ("is_in_list", lambda pl: pl.col("a").is_in([1, 3, 5])),
    ("is_in_str", lambda pl: pl.col("s").is_in(["apple", ""])),
    ("is_in_float", lambda pl: pl.col("x").is_in([0.0, 0.5])),
    ("is_in_empty", lambda pl: pl.col("a").is_in([])),
    ("between_both", lambda pl: pl.col("a").is_between(0, 5)),
    ("between_left", lambda pl: pl.col("a").is_between(0, 5, closed="left")),
    ("between_right", lambda pl: pl.col("a").is_between(0, 5, closed="right")),
    ("between_none", lambda pl: pl.col("a").is_between(0, 5, closed="none")),
    ("between_exprs", lambda pl: pl.col("x").is_between(pl.col("y"), pl.col("y") + 1)),
    ("between_str", lambda pl: pl.col("s").is_between("a", "c")),
]

CASTS = [
    ("int_to_float", lambda pl: pl.col("a").cast(pl.Float64)),
    ("int_to_str", lambda pl: pl.col("a").cast(pl.String)),
    ("float_to_int_nonstrict", lambda pl: pl.col("y").cast(pl.Int64, strict=False)),
    ("float_to_int_strict_nan_error", lambda pl: pl.col("y").cast(pl.Int32)),
    ("int_to_i8_nonstrict", lambda pl: pl.col("u32").cast(pl.Int8, strict=False)),
    ("int_to_i8_strict_error", lambda pl: pl.col("u32").cast(pl.Int8)),
    ("bool_to_int", lambda pl: pl.col("p").cast(pl.Int32)),
    ("int_to_bool", lambda pl: pl.col("a").cast(pl.Boolean)),
    ("float_to_str", lambda pl: pl.col("x").cast(pl.String)),
    ("str_to_int_nonstrict", lambda pl: pl.col("s").cast(pl.Int64, strict=False)),
    ("str_to_int_strict_error", lambda pl: pl.col("s").cast(pl.Int64)),
    ("f32_to_f64", lambda pl: pl.col("f32").cast(pl.Float64)),
    ("f64_to_f32", lambda pl: pl.col("x").cast(pl.Float32)),
    ("u32_to_i64", lambda pl: pl.col("u32").cast(pl.Int64)),
    ("neg_to_unsigned_nonstrict", lambda pl: pl.col("a").cast(pl.UInt16, strict=False)),
    ("lit_cast", lambda pl: pl.lit(5).cast(pl.UInt8) + pl.col("i8")),
    ("int_to_date", lambda pl: pl.col("b").cast(pl.Date)),
]

STRINGS = [
    ("contains_literal", lambda pl: pl.col("s").str.contains("an", literal=True)),
    ("contains_regex", lambda pl: pl.col("s").str.contains("^[a-c]")),
    ("starts_with", lambda pl: pl.col("s").str.starts_with("app")),
    ("ends_with", lambda pl: pl.col("s").str.ends_with("e")),
    ("slice", lambda pl: pl.col("s").str.slice(1, 3)),
    ("slice_neg", lambda pl: pl.col("s").str.slice(-3)),
    ("len_bytes", lambda pl: pl.col("s").str.len_bytes()),
    ("len_chars", lambda pl: pl.col("s").str.len_chars()),
    ("upper", lambda pl: pl.col("s").str.to_uppercase()),
    ("lower", lambda pl: pl.col("s").str.to_lowercase()),
    ("strip", lambda pl: pl.col("s").str.strip_chars()),
    ("strip_chars", lambda pl: pl.col("s").str.strip_chars("ae")),
    ("replace", lambda pl: pl.col("s").str.replace("p", "P", literal=True)),
    ("replace_all", lambda pl: pl.col("s").str.replace_all("[aeiou]", "_")),
    ("str_concat_plus", lambda pl: pl.col("s") + pl.col("g")),
]

EXPRESSIONS = ARITH + COMPARE + BOOLEAN + NULLS_AND_SETS + CASTS + STRINGS


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("build", [b for _, b in EXPRESSIONS], ids=[n for n, _ in EXPRESSIONS])
def test_elementwise(build, frame):
    assert_same(lambda pl, lf: lf.select(build(pl).alias("out")), frame, chunks=3)


@pytest.mark.parametrize("build", [b for _, b in EXPRESSIONS], ids=[n for n, _ in EXPRESSIONS])
def test_elementwise_in_with_columns_and_filter(build):
    # The same expression next to the input columns, then as part of a predicate.
    def query(pl, lf):
        out = lf.with_columns(out=build(pl))
        return out.filter(pl.col("out").is_not_null()).select("a", "out")

    assert_same(query, DATA)


REDUCTIONS = [
    ("sum", lambda pl: pl.col("a").sum()),
    ("sum_float", lambda pl: pl.col("x").sum()),
    ("sum_i8", lambda pl: pl.col("i8").sum()),
    ("sum_bool", lambda pl: pl.col("p").sum()),
    ("mean", lambda pl: pl.col("a").mean()),
    ("mean_f32", lambda pl: pl.col("f32").mean()),
    ("min", lambda pl: pl.col("a").min()),
    ("max", lambda pl: pl.col("x").max()),
    ("min_float_nan", lambda pl: pl.col("y").min()),
    ("max_str", lambda pl: pl.col("s").max()),
    ("min_bool", lambda pl: pl.col("p").min()),
    ("count", lambda pl: pl.col("a").count()),
    ("len", lambda pl: pl.col("a").len()),
    ("n_unique", lambda pl: pl.col("g").n_unique()),
    ("n_unique_nulls", lambda pl: pl.col("a").n_unique()),
    ("first", lambda pl: pl.col("s").first()),
    ("last", lambda pl: pl.col("x").last()),
    ("median", lambda pl: pl.col("a").median()),
    ("median_float", lambda pl: pl.col("y").median()),
    ("std", lambda pl: pl.col("a").std()),
    ("var", lambda pl: pl.col("b").var()),
    ("std_ddof0", lambda pl: pl.col("b").std(ddof=0)),
    ("quantile_nearest", lambda pl: pl.col("a").quantile(0.3)),
    ("quantile_linear", lambda pl: pl.col("b").quantile(0.75, interpolation="linear")),
    ("quantile_lower", lambda pl: pl.col("b").quantile(0.5, interpolation="lower")),
    ("quantile_higher", lambda pl: pl.col("b").quantile(0.5, interpolation="higher")),
    ("quantile_midpoint", lambda pl: pl.col("b").quantile(0.5, interpolation="midpoint")),
    ("any", lambda pl: pl.col("p").any()),
    ("all", lambda pl: pl.col("q").all()),
    ("null_count", lambda pl: pl.col("a").null_count()),
    ("sum_of_expr", lambda pl: (pl.col("a") * pl.col("b")).sum()),
    ("agg_arith", lambda pl: pl.col("a").max() - pl.col("a").min()),
    ("agg_of_filter", lambda pl: pl.col("a").filter(pl.col("p")).sum()),
    ("functions_sum", lambda pl: pl.sum("a")),
    ("functions_mean", lambda pl: pl.mean("b")),
    ("functions_n_unique", lambda pl: pl.n_unique("s")),
]


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("build", [b for _, b in REDUCTIONS], ids=[n for n, _ in REDUCTIONS])
def test_reduction(build, frame):
    assert_same(lambda pl, lf: lf.select(build(pl).alias("out")), frame, chunks=2)


SHAPES = [
    ("sort", lambda pl: pl.col("a").sort()),
    ("sort_desc_nulls_last", lambda pl: pl.col("x").sort(descending=True, nulls_last=True)),
    ("sort_str", lambda pl: pl.col("s").sort()),
    ("reverse", lambda pl: pl.col("s").reverse()),
    ("shift", lambda pl: pl.col("a").shift()),
    ("shift_neg", lambda pl: pl.col("a").shift(-2)),
    ("shift_fill", lambda pl: pl.col("a").shift(3, fill_value=0)),
    ("unique_ordered", lambda pl: pl.col("g").unique(maintain_order=True)),
    ("drop_nulls", lambda pl: pl.col("s").drop_nulls()),
    ("head", lambda pl: pl.col("a").head(3)),
    ("tail", lambda pl: pl.col("a").tail(2)),
    ("sort_by", lambda pl: pl.col("s").sort_by("a")),
    ("sort_by_desc", lambda pl: pl.col("a").sort_by(pl.col("x"), descending=True)),
    ("filter", lambda pl: pl.col("a").filter(pl.col("a") > 0)),
]


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("build", [b for _, b in SHAPES], ids=[n for n, _ in SHAPES])
def test_shape_functions(build, frame):
    assert_same(lambda pl, lf: lf.select(build(pl).alias("out")), frame)


def test_unique_unordered():
    assert_same(lambda pl, lf: lf.select(pl.col("a").unique()), DATA, check_row_order=False)


WHEN = [
    ("simple", lambda pl: pl.when(pl.col("a") > 0).then(pl.col("a")).otherwise(0)),
    ("no_otherwise", lambda pl: pl.when(pl.col("p")).then(pl.lit("yes"))),
    ("chained", lambda pl: pl.when(pl.col("a") > 5).then(pl.lit("big")).when(pl.col("a") > 0).then(pl.lit("small"))
     .otherwise(pl.lit("neg"))),
    ("three_branches", lambda pl: pl.when(pl.col("x").is_nan()).then(-1.0).when(pl.col("x") < 0).then(pl.col("x"))
     .when(pl.col("x") > 1).then(1.0).otherwise(pl.col("y"))),
    ("null_predicate", lambda pl: pl.when(pl.col("q")).then(1).otherwise(2)),
    ("supertype", lambda pl: pl.when(pl.col("p")).then(pl.col("i8")).otherwise(pl.col("x"))),
    ("keyword_constraint", lambda pl: pl.when(g="u").then(pl.col("b")).otherwise(pl.col("a"))),
    ("then_column_name", lambda pl: pl.when(pl.col("a") > 0).then("b").otherwise("a")),
    ("nested", lambda pl: pl.when(pl.col("p")).then(pl.when(pl.col("q")).then(1).otherwise(2)).otherwise(3)),
    ("agg_branch", lambda pl: pl.when(pl.col("a") > pl.col("a").mean()).then(pl.col("a").max()).otherwise(0)),
]


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("build", [b for _, b in WHEN], ids=[n for n, _ in WHEN])
def test_when_then_otherwise(build, frame):
    assert_same(lambda pl, lf: lf.select(build(pl).alias("out")), frame, chunks=2)


WINDOWS = [
    ("sum_over", lambda pl: pl.col("a").sum().over("g")),
    ("mean_over", lambda pl: pl.col("x").mean().over("g")),
    ("count_over", lambda pl: pl.col("a").count().over("g")),
    ("len_over", lambda pl: pl.len().over("g")),
    ("max_over_two_keys", lambda pl: pl.col("b").max().over("g", "p")),
    ("min_over_expr_key", lambda pl: pl.col("a").min().over(pl.col("b") % 2)),
    ("first_over", lambda pl: pl.col("s").first().over("g")),
    ("elementwise_over", lambda pl: (pl.col("a") - pl.col("a").mean()).over("g")),
    ("n_unique_over", lambda pl: pl.col("s").n_unique().over("g")),
    ("over_null_key", lambda pl: pl.col("a").sum().over("q")),
    ("shift_over", lambda pl: pl.col("a").shift().over("g")),
    ("sort_over", lambda pl: pl.col("a").sort().over("g")),
    ("cumulative_like_rank", lambda pl: pl.col("a").reverse().over("g")),
]


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
@pytest.mark.parametrize("build", [b for _, b in WINDOWS], ids=[n for n, _ in WINDOWS])
def test_window(build, frame):
    assert_same(lambda pl, lf: lf.select("g", build(pl).alias("out")), frame, chunks=2)


def test_alias_chain_and_duplicate_source():
    assert_same(lambda pl, lf: lf.select(pl.col("a").alias("t").alias("u"), pl.col("a").alias("v")), DATA)


def test_literal_dtypes():
    def query(pl, lf):
        return lf.select(pl.lit(1), pl.lit(1.5).alias("f"), pl.lit("s").alias("s"), pl.lit(True).alias("b"),
                         pl.lit(None).alias("n"), pl.lit(2**40).alias("big"), pl.lit(3, dtype=pl.Int16).alias("i16"))

    assert_same(query, DATA)


def test_extreme_integers():
    frame = pl.DataFrame({"m": [2**63 - 1, -(2**63), 0, None], "n": [1, -1, 2**62, 3]})
    assert_same(lambda pl, lf: lf.select(pl.col("m") // pl.col("n"), (pl.col("m") % 7).alias("r"),
                                         pl.col("m").abs().alias("a"), pl.col("m").max().alias("mx"),
                                         (pl.col("m") == pl.col("n")).alias("e")), frame)


@pytest.mark.parametrize("frame", [DATA, EMPTY, ONE], ids=["data", "empty", "one"])
def test_aggregations_of_literals_are_one_value(frame):
    # Polars: a literal is one value, whatever the frame's height (found by the fuzzer: the
    # parallel aggregation summed it once per row and gave null over no rows).
    def query(pl, lf):
        return lf.select(pl.lit(1000).sum().alias("s"), pl.lit(1000).min().alias("lo"), pl.lit(3).count().alias("n"),
                         pl.lit(2.5).mean().alias("m"), (pl.lit(1) + pl.lit(2)).max().alias("x"))

    assert_same(query, frame, chunks=3)
    assert_same(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(
        pl.lit(1000).sum().alias("s"), pl.lit(1.5).count().alias("n"), pl.lit(2**40).filter(pl.lit(True)).var().alias("v")),
        frame)


@pytest.mark.parametrize("extra", range(12))
def test_pow_coercion_with_arena_growth(extra):
    # Type coercion of `int ** float` read the exponent's node after adding a cast to the arena,
    # which can move it (heap-use-after-free under AddressSanitizer, found by the fuzzer). Growing
    # prefixes put the reallocation at different points.
    def query(pl, lf):
        e = pl.col("a")
        for _ in range(extra):
            e = e + pl.col("b")
        return lf.select(((e % pl.col("b")) ** 0.5).alias("x"), (pl.col("i8") ** 2.5).alias("y"))

    assert_same(query, DATA)


def test_window_of_literal_over_filtered_away_rows():
    # Projection pushdown left only `lit(x).over(k) // 5` in the select; over an empty frame it
    # became a one-row literal (found by the fuzzer's TLP oracle: count 1 instead of 0).
    def query(pl, lf):
        q = lf.select(pl.col("g"), (pl.lit(-math.inf).over("g") // pl.lit(-5)).alias("e"))
        return q.filter(pl.lit(None, dtype=pl.Boolean)).select(pl.col("e").count(), pl.col("e").max().alias("m"))

    assert_same(query, DATA)


@pytest.mark.parametrize("literal", [300, 2**40, -1, 1000])
def test_python_int_next_to_unsigned_column(literal):
    # Polars: col_u8 + 300 is UInt16, col_u8 + 2**40 UInt64, col_u8 + (-1) Int16.
    frame = pl.DataFrame({"u": [5, 255, None]}, schema={"u": pl.UInt8})
    assert_same(lambda pl, lf: lf.select((pl.col("u") + literal).alias("a"), (pl.col("u") - literal).alias("s"),
                                         (pl.lit(literal) * pl.col("u")).alias("m")), frame)


def test_std_of_equal_huge_values():
    # Summing first gave a mean one rounding error off, whose square overflowed (fuzzer).
    frame = pl.DataFrame({"c5": [5, None, 2, 0, 1, 5, 4, 2, 1, 0], "g": [1, 1, 1, 1, 1, 2, 2, 2, 2, 2]})
    assert_same(lambda pl, lf: lf.select((pl.col("c5").fill_null(100) + 1e300).std().alias("s")), frame)
    assert_same(lambda pl, lf: lf.group_by("g", maintain_order=True).agg((pl.col("c5") * 0 + 1e300).var()), frame)


@pytest.mark.parametrize("dtype", [pl.UInt8, pl.UInt16, pl.UInt32, pl.UInt64])
def test_negative_python_int_next_to_unsigned_column(dtype):
    # Polars: u8 - 5 stays UInt8 but u8 + (-1000) is Int16, u64 * -3 is Int64 (not Float64).
    frame = pl.DataFrame({"u": [3, None, 200]}, schema={"u": dtype})
    assert_same(lambda pl, lf: lf.select((pl.col("u") + (-1000)).alias("b"), (-3 * pl.col("u")).alias("c"),
                                         (pl.lit(-5) - pl.col("u")).alias("d")), frame)


@pytest.mark.parametrize("exponent", [0.5, 1.5, 2.0, -0.5, 3.0])
def test_float_pow_special_values(exponent):
    # Polars computes x ** 0.5 as sqrt(x) ((-inf) ** 0.5 is NaN there, inf with pow; fuzzer).
    frame = pl.DataFrame({"x": [-math.inf, -0.0, -4.0, math.inf, 2.0, None, math.nan]})
    assert_same(lambda pl, lf: lf.select((pl.col("x") ** exponent).alias("p")), frame)
    assert_same(lambda pl, lf: lf.select((pl.col("x").cast(pl.Float32) ** exponent).alias("p")), frame)


def test_sqrt_of_booleans_and_fill_null_of_unsigned_with_negative():
    frame = pl.DataFrame({"b": [True, False, None], "u": [2, None, 7]}, schema={"b": pl.Boolean, "u": pl.UInt64})
    assert_same(lambda pl, lf: lf.select(pl.col("b").sqrt(), pl.lit(True).sqrt().alias("t"),
                                         pl.col("u").fill_null(pl.lit(-5)).alias("f")), frame)


def test_sqrt_of_strings_and_is_finite_type_errors():
    assert_same(lambda pl, lf: lf.select(pl.lit("hello world").sqrt().alias("a"), pl.lit("4").sqrt().alias("b")), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("p").is_finite()), DATA)
    assert_same(lambda pl, lf: lf.select(pl.col("s").is_infinite()), DATA)


@pytest.mark.parametrize("nulls_last", [True, False, [True, False], [False, True]])
@pytest.mark.parametrize("descending", [False, [True, False]])
def test_sort_by_nulls_last_per_key(nulls_last, descending):
    data = {"a": [1, 2, None, None, 5, 2], "b": [1, 2, None, 1, None, None], "c": [2, 3, 1, 2, 1, 0]}
    q = (lambda m, lf: lf.select(
        m.arg_sort_by("a", "b", nulls_last=nulls_last, descending=descending, maintain_order=True).alias("i"),
        m.col("c").sort_by("a", "b", nulls_last=nulls_last, descending=descending, maintain_order=True)))
    assert_same(q, data)
    assert_same(lambda m, lf: lf.group_by(m.lit(1).alias("g")).agg(
        m.col("c").sort_by("a", "b", nulls_last=nulls_last, descending=descending, maintain_order=True)), data)


def test_sort_by_nulls_last_of_another_length_is_an_error():
    import frazil as fz

    with pytest.raises(fz.exceptions.InvalidOperationError, match="nulls_last"):
        fz.col("c").sort_by("a", "b", nulls_last=[True, False, True])
