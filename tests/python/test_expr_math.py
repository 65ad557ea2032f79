"""Mathematical functions, differential against Polars: trigonometric, hyperbolic, exponential
and logarithmic functions, sign, clip, round_sig_figs, truncate, bit counts, is_close,
arctan2; on nulls, NaN, -0.0, infinities, several integer and float widths, in a select,
inside agg() and over()."""
import polars as pl
import pytest

from expr_checks import NUMS, check_all, check_select
from fuzz.harness import assert_same, assert_same_error

FLOAT_FNS = ["sin", "cos", "tan", "cot", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
             "arccosh", "arctanh", "degrees", "radians", "exp", "log1p", "log10", "cbrt", "erf", "erfc", "log"]


@pytest.mark.parametrize("fn", FLOAT_FNS)
@pytest.mark.parametrize("col", ["i", "f", "i8", "u16", "f32"])
def test_float_functions(fn, col):
    check_all(lambda pl: getattr(pl.col(col), fn)(), rel_tol=1e-6 if col == "f32" else 1e-12)


@pytest.mark.parametrize("fn", ["exp", "log1p", "log10", "cbrt", "log"])
def test_float_functions_of_booleans(fn):
    check_select(lambda pl: getattr(pl.col("b"), fn)())


@pytest.mark.parametrize("fn", ["sin", "arctanh"])
def test_trigonometry_of_booleans_and_strings_is_an_error(fn):
    assert_same_error(lambda pl, lf: lf.select(getattr(pl.col("b"), fn)()), NUMS)
    assert_same_error(lambda pl, lf: lf.select(getattr(pl.col("s"), fn)()), NUMS)


@pytest.mark.parametrize("base", [2, 10, 0.5, 1])
def test_log_base(base):
    check_select(lambda pl: pl.col("f").log(base))
    check_select(lambda pl: pl.col("i").log(base))


def test_log_base_expression():
    check_all(lambda pl: pl.col("h").log(pl.col("j")))
    check_select(lambda pl: pl.col("f32").log(2))


def test_arctan2():
    check_all(lambda pl: pl.arctan2(pl.col("i"), pl.col("f")))
    check_select(lambda pl: pl.arctan2("f32", "f32"))
    check_select(lambda pl: pl.arctan2(pl.col("j"), pl.lit(2)))
    assert_same_error(lambda pl, lf: lf.select(pl.arctan2(pl.col("j"), 2)), NUMS)


@pytest.mark.parametrize("col", ["i", "f", "i8", "u16", "f32"])
def test_sign(col):
    check_all(lambda pl: pl.col(col).sign())


def test_sign_of_decimals():
    data = pl.DataFrame({"d": ["1.5", "-2.25", "0", None]}).select(pl.col("d").cast(pl.Decimal(10, 2)))
    check_select(lambda pl: pl.col("d").sign(), data)


@pytest.mark.parametrize("lo, hi", [(0, 5), (None, 2), (-1, None), (1.5, None), (None, None)])
@pytest.mark.parametrize("col", ["i", "f", "i8", "f32"])
def test_clip_by_values(col, lo, hi):
    check_all(lambda pl: pl.col(col).clip(lo, hi))


def test_clip_by_expressions_with_nulls():
    check_all(lambda pl: pl.col("f").clip(pl.col("j"), pl.col("i")))
    check_all(lambda pl: pl.col("i").clip(lower_bound="j"))
    check_select(lambda pl: pl.col("i").clip(pl.lit(None, dtype=pl.Int64), 3))


@pytest.mark.parametrize("build", [
    lambda pl: pl.col("i8").clip(1000),  # beyond Int8
    lambda pl: pl.col("u16").clip(-1),  # below UInt16
    lambda pl: pl.col("i").clip(None, float("inf")),
    lambda pl: pl.col("i").clip(float("nan")),
    lambda pl: pl.col("i8").clip(pl.col("u16")),  # a bound column with 65535
])
def test_clip_bound_the_values_dtype_cannot_hold_is_an_error(build):
    # Polars casts the bounds to the values' dtype strictly (a fraction is truncated).
    assert_same_error(lambda pl, lf: lf.select(build(pl)), NUMS, kind="InvalidOperationError")


def test_clip_of_temporals():
    import datetime as dt

    data = pl.DataFrame({"d": [dt.date(2020, 1, 1), None, dt.date(2021, 6, 1), dt.date(2019, 2, 3)]})
    check_select(lambda pl: pl.col("d").clip(dt.date(2020, 1, 5), dt.date(2021, 1, 1)), data)


@pytest.mark.parametrize("digits", [1, 2, 3, 6])
@pytest.mark.parametrize("col", ["i", "f", "i8", "u16", "f32"])
def test_round_sig_figs(col, digits):
    data = NUMS.with_columns(pl.col("f") * 1234.5678)
    check_all(lambda pl: pl.col(col).round_sig_figs(digits), data, rel_tol=1e-6 if col == "f32" else 1e-12)


def test_round_sig_figs_of_decimals_and_bad_digits():
    data = pl.DataFrame({"d": ["1234.56", "-0.05", "0", None, "99.95"]}).select(pl.col("d").cast(pl.Decimal(10, 2)))
    check_select(lambda pl: pl.col("d").round_sig_figs(2), data)
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").round_sig_figs(0)), NUMS)


@pytest.mark.parametrize("decimals", [0, 1, 3])
@pytest.mark.parametrize("col", ["i", "f", "f32"])
def test_truncate(col, decimals):
    data = NUMS.with_columns(pl.col("f") * 3.14159, pl.col("f32") * 2.71828)
    check_all(lambda pl: pl.col(col).truncate(decimals), data)


@pytest.mark.parametrize("fn", ["count_ones", "count_zeros", "leading_ones", "leading_zeros", "trailing_ones",
                                "trailing_zeros"])
@pytest.mark.parametrize("col", ["i", "i8", "u16", "b"])
def test_bit_counts(fn, col):
    check_all(lambda pl: getattr(pl.col(col), "bitwise_" + fn)())


def test_bit_counts_of_floats_are_an_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").bitwise_count_ones()), NUMS)


@pytest.mark.parametrize("kw", [{}, {"abs_tol": 0.5}, {"rel_tol": 0.5}, {"nans_equal": True}])
def test_is_close(kw):
    check_all(lambda pl: pl.col("f").is_close(pl.col("h"), **kw))
    check_select(lambda pl: pl.col("i").is_close(3, **kw))
    check_select(lambda pl: pl.col("f32").is_close(pl.col("f"), **kw))


def test_is_close_rejects_negative_tolerances():
    assert_same_error(lambda pl, lf: lf.select(pl.col("f").is_close(pl.col("h"), abs_tol=-1.0)), NUMS)


def test_math_on_one_literal_broadcasts():
    assert_same(lambda pl, lf: lf.select(pl.col("i"), pl.lit(2.0).sin().alias("s")), NUMS)


POW_DATA = {"i64": [1, 2, None, -3], "u64": [0, 3, 2**33, None], "i8": [2, -2, 7, None], "u8": [1, 2, 3, 4],
            "f32": [1.5, None, -2.0, 0.5], "f": [0.5, 2.0, None, -1.0], "d": [None, None, None, None]}
POW_SCHEMA = {"i64": pl.Int64, "u64": pl.UInt64, "i8": pl.Int8, "u8": pl.UInt8, "f32": pl.Float32, "f": pl.Float64,
              "d": pl.Date}


@pytest.mark.parametrize(("base", "exponent"), [
    ("i8", "u8"), ("u8", "i8"), ("i64", "u8"), ("f32", "i64"), ("f32", "u8"), ("i64", "f"), ("u8", "f32"),
    ("f", "u64"), ("i8", "i8"),
])
def test_pow_dtypes_and_wrapping(base, exponent):
    q = (lambda m, lf: lf.select(m.col(base).pow(m.col(exponent)).alias("p"),
                                 (m.col(base) ** 3).alias("c"), m.col(base).pow(exponent).alias("by_name")))
    frame = pl.DataFrame({"i8": [2, -2, 7, None], "u8": [1, 2, 3, 4], "i64": [1, 2, None, -3],
                          "f32": [1.5, None, -2.0, 0.5], "f": [0.5, 2.0, None, -1.0], "u64": [0, 3, 30, None]},
                         schema_overrides={"i8": pl.Int8, "u8": pl.UInt8, "f32": pl.Float32, "u64": pl.UInt64})
    if (base, exponent) == ("u8", "i8"):
        frame = frame.with_columns(pl.col("i8").abs())
    assert_same(q, frame)


@pytest.mark.parametrize("query", [
    lambda m, lf: lf.select(m.col("i64") ** m.col("u64")),     # 2**33 does not fit the u32 exponent
    lambda m, lf: lf.select(m.col("i64") ** -1),               # a negative integer exponent
    lambda m, lf: lf.select(m.col("i64") ** m.lit(None)),      # a Null-typed exponent
    lambda m, lf: lf.select(m.lit(None) ** 2),                 # a Null-typed base
    lambda m, lf: lf.select(m.col("d") ** 2),                  # a date base
    lambda m, lf: lf.select(2 ** m.col("d")),                  # a date exponent
    lambda m, lf: lf.select(m.col("i64") ** m.lit(True)),      # a Boolean exponent
    lambda m, lf: lf.select(m.col("i64") ** "nope"),           # a str is a column name
])
def test_pow_errors(query):
    frame = pl.DataFrame(POW_DATA, schema=POW_SCHEMA)
    assert_same_error(query, frame)
