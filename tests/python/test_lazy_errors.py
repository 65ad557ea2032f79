"""Queries that must fail: frazil raises the same error kind as Polars (compared by class
name; frazil's classes live in frazil.exceptions, Polars' in polars.exceptions)."""
import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same_error

DATA = pl.DataFrame({"a": [1, 2, 3], "b": [1.5, None, 2.0], "s": ["x", "y", None], "p": [True, False, None]})

ERRORS = [
    # ColumnNotFoundError
    ("select_missing", "ColumnNotFoundError", lambda pl, lf: lf.select("nope")),
    ("expr_missing", "ColumnNotFoundError", lambda pl, lf: lf.select(pl.col("a") + pl.col("nope"))),
    ("filter_missing", "ColumnNotFoundError", lambda pl, lf: lf.filter(pl.col("nope") > 1)),
    ("sort_missing", "ColumnNotFoundError", lambda pl, lf: lf.sort("nope")),
    ("group_key_missing", "ColumnNotFoundError", lambda pl, lf: lf.group_by("nope").agg(pl.col("a").sum())),
    ("agg_missing", "ColumnNotFoundError", lambda pl, lf: lf.group_by("a").agg(pl.col("nope").sum())),
    ("drop_missing", "ColumnNotFoundError", lambda pl, lf: lf.drop("nope")),
    ("rename_missing", "ColumnNotFoundError", lambda pl, lf: lf.rename({"nope": "x"})),
    ("unique_missing", "ColumnNotFoundError", lambda pl, lf: lf.unique("nope")),
    ("after_select", "ColumnNotFoundError", lambda pl, lf: lf.select("a").filter(pl.col("b") > 1)),
    ("with_columns_missing", "ColumnNotFoundError", lambda pl, lf: lf.with_columns(c=pl.col("nope"))),
    ("when_missing", "ColumnNotFoundError", lambda pl, lf: lf.select(pl.when(pl.col("nope")).then(1))),
    ("over_missing", "ColumnNotFoundError", lambda pl, lf: lf.select(pl.col("a").sum().over("nope"))),
    # DuplicateError
    ("select_duplicate", "DuplicateError", lambda pl, lf: lf.select("a", "a")),
    ("select_alias_duplicate", "DuplicateError", lambda pl, lf: lf.select(pl.col("a"), pl.col("b").alias("a"))),
    ("with_columns_duplicate", "ComputeError", lambda pl, lf: lf.with_columns(pl.lit(1).alias("x"),
                                                                              pl.lit(2).alias("x"))),
    ("row_index_duplicate", "DuplicateError", lambda pl, lf: lf.with_row_index("a")),
    ("rename_to_existing", "DuplicateError", lambda pl, lf: lf.rename({"a": "b"})),
    ("agg_duplicate", "DuplicateError", lambda pl, lf: lf.group_by("s").agg(pl.col("a").sum(), pl.col("a").max())),
    ("agg_key_name", "DuplicateError", lambda pl, lf: lf.group_by("s").agg(pl.col("a").first().alias("s"))),
    # InvalidOperationError
    ("str_plus_int", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("s") + 1)),
    # a selection that expands to no column (was an out-of-bounds read, a crash in Polars' suite)
    ("struct_of_nothing", "InvalidOperationError", lambda pl, lf: lf.select(pl.struct(pl.exclude("a", "b", "s", "p")))),
    ("sort_by_struct_of_nothing", "InvalidOperationError",
     lambda pl, lf: lf.with_columns(pl.col("b").sort_by(pl.struct(pl.exclude("a", "b", "s", "p"))))),
    ("str_minus_str", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("s") - pl.col("s"))),
    ("bool_sum_string", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("s").sum())),
    ("not_of_string", "InvalidOperationError", lambda pl, lf: lf.select(~pl.col("s"))),
    ("is_nan_string", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("s").is_nan())),
    ("strict_cast_overflow", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("a").cast(pl.Int8) * 100
                                                                               + pl.lit(1000).cast(pl.Int8))),
    ("strict_cast_string", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("s").cast(pl.Int64))),
    ("str_contains_int", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("a").str.contains("1"))),
    ("mean_of_string", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("s").mean())),
    ("fill_nan_of_bool", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("p").fill_nan(1.5))),
    ("bool_minus_bool", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("p") - pl.col("p"))),
    ("neg_of_unsigned", "InvalidOperationError", lambda pl, lf: lf.select(-pl.col("a").cast(pl.UInt32))),
    ("pow_of_bool", "InvalidOperationError", lambda pl, lf: lf.select(pl.col("p") ** 0.5)),
    # SchemaError
    ("filter_not_bool", "InvalidOperationError", lambda pl, lf: lf.filter(pl.col("a"))),
    ("concat_dtype_mismatch", "InvalidOperationError", lambda pl, lf: pl.concat([lf.select("a"), lf.select(
        pl.col("b").alias("a"))])),
    ("join_key_dtype", "SchemaError", lambda pl, lf: lf.join(lf, left_on="a", right_on="s")),
    # ComputeError / ShapeError
    ("sort_descending_length", None, lambda pl, lf: lf.sort("a", "b", descending=[True, False, True])),
    ("select_length_mismatch", None, lambda pl, lf: lf.select(pl.col("a"), pl.col("a").head(2).alias("h"))),
    ("with_columns_length_mismatch", None, lambda pl, lf: lf.with_columns(h=pl.col("a").head(2))),
    ("bad_join_how", "ValueError", lambda pl, lf: lf.join(lf, on="a", how="sideways")),
]


@pytest.mark.parametrize("query, kind", [(q, k) for _, k, q in ERRORS], ids=[n for n, _, _ in ERRORS])
def test_error_kind_matches_polars(query, kind):
    assert_same_error(query, DATA, kind=kind)


def test_error_names_the_column():
    lf = fz.DataFrame({"a": [1]}).lazy()
    with pytest.raises(fz.ColumnNotFoundError, match="nope"):
        lf.select(fz.col("nope")).collect()
    with pytest.raises(fz.exceptions.InvalidOperationError, match="s"):
        fz.DataFrame({"s": ["x"]}).lazy().select(fz.col("s") + 1).collect()


def test_schema_errors_surface_at_collect_schema():
    lf = fz.DataFrame({"a": [1]}).lazy().select(fz.col("nope"))
    with pytest.raises(fz.ColumnNotFoundError):
        lf.collect_schema()


@pytest.mark.parametrize("build", [
    lambda pl: pl.col("a").is_in([1.0]),
    lambda pl: pl.col("b").is_in([1, 2]),
    lambda pl: pl.col("a").is_in([True]),
    lambda pl: pl.col("s").is_in([1]),
    lambda pl: pl.lit(0).is_in([0.0]),
    lambda pl: pl.col("a").cast(pl.Int8).is_in([1, 300]),
    lambda pl: pl.col("a").is_in([]),
], ids=["int_in_floats", "float_in_ints", "int_in_bools", "str_in_ints", "lit_in_floats", "i8_in_wide_ints",
        "in_empty"])
def test_is_in_needs_matching_kinds(build):
    # Polars 2 only casts between integer widths for is_in; other mixes are errors.
    from fuzz.harness import assert_same

    assert_same(lambda pl, lf: lf.select(build(pl).alias("x")), DATA)
