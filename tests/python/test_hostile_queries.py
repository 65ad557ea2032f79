"""Hostile queries: what an unlucky or malicious user types. Each case is written once
against the Polars API and run in Polars and in frazil; frazil must give Polars' result, or
raise an exception of the same class (frazil.exceptions.X for polars.exceptions.X, the same
builtin otherwise). Where Polars panics (a Polars bug), frazil must raise one of its own
error classes. Never a crash, a RuntimeError from the bindings, a UnicodeDecodeError or a
silently wrapped number.

The few places where frazil differs on purpose are listed in DIFFERENT with the outcome
frazil must give and why; everything else must match.

Deep plans (recursion) are not here yet: they wait for the iterative plan walks."""
from __future__ import annotations

import io
import math

import polars
import polars.testing as plt
import pytest

import frazil

# --- frames ----------------------------------------------------------------------------


def frame(pl):
    return pl.DataFrame({"i": [1, -2, 3], "f": [1.5, float("nan"), -0.0], "s": ["a", "bb", None],
                         "b": [True, None, False]})


def u64(pl):
    return pl.DataFrame({"u": [0, 2**63, 2**64 - 1]}, schema={"u": pl.UInt64})


def empty(pl):
    return pl.DataFrame({"i": [], "f": [], "s": []}, schema={"i": pl.Int64, "f": pl.Float64, "s": pl.String})


def one(pl):
    return pl.DataFrame({"i": [7], "f": [-0.0], "s": ["x"]})


def zeros(pl):
    return pl.DataFrame({"f": [0.0, -0.0, float("nan"), -float("nan"), float("inf")], "k": [1, 1, 2, 2, 3]})


def ints(pl, dtype):
    return pl.DataFrame({"x": [0, 1]}, schema={"x": dtype})


# --- cases: id -> query(pl) ------------------------------------------------------------

CASES: dict[str, object] = {
    # Overflowing and extreme literals.
    "lit_int64_max": lambda pl: frame(pl).select(pl.lit(2**63 - 1)),
    "lit_int64_min": lambda pl: frame(pl).select(pl.lit(-(2**63))),
    "lit_uint64_max": lambda pl: frame(pl).select(pl.lit(2**64 - 1)),
    "lit_2_64": lambda pl: frame(pl).select(pl.lit(2**64)),
    "lit_10_30": lambda pl: frame(pl).select(pl.lit(10**30)),
    "lit_below_int64": lambda pl: frame(pl).select(pl.lit(-(2**63) - 1)),
    "lit_2_200": lambda pl: frame(pl).select(pl.lit(2**200)),
    "col_plus_2_64": lambda pl: frame(pl).select(pl.col("i") + 2**64),
    "col_times_10_30": lambda pl: frame(pl).select(pl.col("i") * 10**30),
    "col_is_in_2_64": lambda pl: frame(pl).select(pl.col("i").is_in([2**64])),
    "fill_null_2_64": lambda pl: frame(pl).select(pl.col("i").fill_null(2**64)),
    "lit_typed_uint8_256": lambda pl: frame(pl).select(pl.lit(256, dtype=pl.UInt8)),
    "lit_typed_uint8_neg": lambda pl: frame(pl).select(pl.lit(-1, dtype=pl.UInt8)),
    "lit_typed_int32_2_31": lambda pl: frame(pl).select(pl.lit(2**31, dtype=pl.Int32)),
    "lit_typed_uint64_2_64": lambda pl: frame(pl).select(pl.lit(2**64, dtype=pl.UInt64)),
    "lit_inf": lambda pl: frame(pl).select(pl.lit(float("inf")) * pl.col("f")),
    "lit_1e308_times_10": lambda pl: frame(pl).select(pl.lit(1e308) * 10),
    "lit_nan_eq_nan": lambda pl: frame(pl).select(pl.lit(float("nan")) == pl.lit(float("nan"))),
    "int64_min_negated": lambda pl: frame(pl).select(-pl.lit(-(2**63))),
    "int64_min_abs": lambda pl: pl.DataFrame({"x": [-(2**63)]}).select(pl.col("x").abs()),
    "int64_max_plus_one": lambda pl: pl.DataFrame({"x": [2**63 - 1]}).select(pl.col("x") + 1),
    "int8_sum_widens": lambda pl: ints(pl, pl.Int8).select(pl.lit(127, dtype=pl.Int8) + pl.col("x")),
    "int_div_zero": lambda pl: frame(pl).select(pl.col("i") // 0),
    "int_mod_zero": lambda pl: frame(pl).select(pl.col("i") % 0),
    "int64_min_floordiv_minus_one": lambda pl: pl.DataFrame({"x": [-(2**63)]}).select(pl.col("x") // -1),
    "float_div_zero": lambda pl: frame(pl).select(pl.col("f") / 0),
    "pow_huge": lambda pl: frame(pl).select(pl.col("f") ** 10**6),
    # Unsigned next to negative numbers.
    "u64_gt_minus_one": lambda pl: u64(pl).select(pl.col("u") > -1),
    "u64_eq_minus_one": lambda pl: u64(pl).select(pl.col("u") == -1),
    "u64_le_minus_big": lambda pl: u64(pl).select(pl.col("u") <= -(2**63)),
    "u64_plus_minus_one": lambda pl: u64(pl).select(pl.col("u") + -1),
    "u64_is_in_negative": lambda pl: u64(pl).select(pl.col("u").is_in([-1, 0])),
    "u8_minus_five": lambda pl: ints(pl, pl.UInt8).select(pl.col("x") - 5),
    "u64_neg": lambda pl: u64(pl).select(-pl.col("u")),
    # Huge and negative arguments.
    "head_2_64": lambda pl: frame(pl).head(2**64),
    "head_2_63": lambda pl: frame(pl).head(2**63 - 1),
    "head_negative": lambda pl: frame(pl).head(-1),
    "head_very_negative": lambda pl: frame(pl).head(-(2**62)),
    "lazy_head_negative": lambda pl: frame(pl).lazy().head(-1).collect(),
    "tail_negative": lambda pl: frame(pl).tail(-2),
    "lazy_tail_big": lambda pl: frame(pl).lazy().tail(2**40).collect(),
    "slice_negative_offset": lambda pl: frame(pl).slice(-1),
    "slice_huge_offset": lambda pl: frame(pl).slice(2**62),
    "slice_negative_length": lambda pl: frame(pl).slice(0, -1),
    "lazy_slice_negative_length": lambda pl: frame(pl).lazy().slice(0, -1).collect(),
    "lazy_slice_min_offset": lambda pl: frame(pl).lazy().slice(-(2**63), 2).collect(),
    "lazy_slice_2_64": lambda pl: frame(pl).lazy().slice(2**64).collect(),
    "expr_head_negative": lambda pl: frame(pl).select(pl.col("i").head(-1)),
    "expr_tail_huge": lambda pl: frame(pl).select(pl.col("i").tail(2**40)),
    "shift_2_63": lambda pl: frame(pl).select(pl.col("i").shift(2**63)),
    "shift_min": lambda pl: frame(pl).select(pl.col("i").shift(-(2**63))),
    "shift_huge": lambda pl: frame(pl).select(pl.col("i").shift(10**12)),
    "shift_negative_huge": lambda pl: frame(pl).select(pl.col("i").shift(-(10**12))),
    "round_2_31": lambda pl: frame(pl).select(pl.col("f").round(2**31)),
    "round_2_32_minus_one": lambda pl: frame(pl).select(pl.col("f").round(2**32 - 1)),
    "round_2_32": lambda pl: frame(pl).select(pl.col("f").round(2**32)),
    "round_negative": lambda pl: frame(pl).select(pl.col("f").round(-1)),
    "round_int_column_big": lambda pl: frame(pl).select(pl.col("i").round(400)),
    "str_slice_negative": lambda pl: frame(pl).select(pl.col("s").str.slice(-(2**63))),
    "str_slice_huge": lambda pl: frame(pl).select(pl.col("s").str.slice(2**62, 2**62)),
    "str_slice_2_64": lambda pl: frame(pl).select(pl.col("s").str.slice(2**64)),
    "row_index_negative": lambda pl: frame(pl).with_row_index(offset=-1),
    "row_index_past_u32": lambda pl: frame(pl).with_row_index(offset=2**32),
    "row_index_overflow": lambda pl: frame(pl).with_row_index(offset=2**32 - 2),
    "quantile_above_one": lambda pl: frame(pl).select(pl.col("f").quantile(1.5)),
    "quantile_negative": lambda pl: frame(pl).select(pl.col("f").quantile(-0.1)),
    "quantile_nan": lambda pl: frame(pl).select(pl.col("f").quantile(float("nan"))),
    "std_ddof_huge": lambda pl: frame(pl).select(pl.col("f").std(ddof=2**31 - 1)),
    "std_ddof_negative": lambda pl: frame(pl).select(pl.col("i").std(ddof=-1)),
    "var_ddof_2_40": lambda pl: frame(pl).select(pl.col("i").var(ddof=2**40)),
    # Strings and UTF-8.
    "col_surrogate": lambda pl: frame(pl).select(pl.col("a\udcff")),
    "col_latin1": lambda pl: frame(pl).select(pl.col("\xff")),
    "col_empty_name": lambda pl: frame(pl).select(pl.col("")),
    "lit_surrogate": lambda pl: frame(pl).select(pl.lit("\udcff")),
    "contains_bad_regex": lambda pl: frame(pl).select(pl.col("s").str.contains("(")),
    "contains_nul": lambda pl: frame(pl).select(pl.col("s").str.contains("\x00", literal=True)),
    "strip_emoji": lambda pl: pl.DataFrame({"s": ["\U0001F600a\U0001F600"]}).select(
        pl.col("s").str.strip_chars("\U0001F600")),
    "len_chars_multibyte": lambda pl: pl.DataFrame({"s": ["h\u00e9\U0001F600", ""]}).select(
        pl.col("s").str.len_chars(), pl.col("s").str.len_bytes().alias("b")),
    "csv_invalid_utf8_value": lambda pl: pl.read_csv(io.BytesIO(b"a\n\xff\xfe\n"), schema={"a": pl.Int64}),
    "csv_invalid_utf8_header": lambda pl: pl.read_csv(io.BytesIO(b"\xff\xfe,b\n1,2\n")),
    "csv_invalid_utf8_string": lambda pl: pl.read_csv(io.BytesIO(b"a\nok\n\xc3\x28\n")),
    "csv_ragged": lambda pl: pl.read_csv(io.BytesIO(b"a,b\n1,2,3\n")),
    "csv_bad_int": lambda pl: pl.read_csv(io.BytesIO(b"a\n1\nx\xff\n"), schema={"a": pl.Int64}),
    # Empty and one-row frames.
    "empty_max": lambda pl: empty(pl).select(pl.col("i").max(), pl.col("f").min(), pl.col("s").max()),
    "empty_mean_std": lambda pl: empty(pl).select(pl.col("i").mean(), pl.col("f").std(), pl.col("f").var()),
    "empty_median_quantile": lambda pl: empty(pl).select(pl.col("i").median(), pl.col("f").quantile(0.3)),
    "empty_first_last": lambda pl: empty(pl).select(pl.col("i").first(), pl.col("s").last()),
    "empty_sum_len": lambda pl: empty(pl).select(pl.col("i").sum(), pl.len(), pl.col("s").count()),
    "empty_n_unique": lambda pl: empty(pl).select(pl.col("i").n_unique(), pl.col("s").null_count()),
    "empty_group_by": lambda pl: empty(pl).group_by("s").agg(pl.col("i").sum(), pl.len()),
    "empty_join": lambda pl: empty(pl).join(empty(pl), on="i"),
    "empty_left_join": lambda pl: one(pl).join(empty(pl), on="i", how="left"),
    "empty_sort": lambda pl: empty(pl).sort("f", "i"),
    "empty_unique": lambda pl: empty(pl).unique(maintain_order=True),
    "empty_row_index": lambda pl: empty(pl).with_row_index(),
    "empty_filter_false": lambda pl: frame(pl).filter(False),
    "empty_head_zero": lambda pl: frame(pl).head(0).select(pl.col("i").sum(), pl.col("f").mean()),
    "empty_cross_join": lambda pl: empty(pl).join(one(pl), how="cross"),
    "empty_concat_list": lambda pl: pl.concat([]),
    "empty_concat_one": lambda pl: pl.concat([empty(pl)]),
    "empty_with_columns_lit": lambda pl: empty(pl).with_columns(pl.lit(1).alias("one")),
    "one_std": lambda pl: one(pl).select(pl.col("i").std(), pl.col("i").var(ddof=0)),
    "one_median": lambda pl: one(pl).select(pl.col("f").median(), pl.col("i").quantile(1.0)),
    "one_group_by": lambda pl: one(pl).group_by("s").agg(pl.col("f").max(), pl.col("i").std()),
    "one_shift": lambda pl: one(pl).select(pl.col("i").shift(1), pl.col("i").shift(-1).alias("j")),
    "one_self_join": lambda pl: one(pl).join(one(pl), on="i", how="full"),
    "no_columns_select_len": lambda pl: pl.DataFrame().select(pl.len()),
    "no_columns_with_row_index": lambda pl: pl.DataFrame().with_row_index(),
    # NaN, -0.0 and infinities.
    "unique_negative_zero": lambda pl: zeros(pl).select(pl.col("f").unique(maintain_order=True)),
    "n_unique_nan": lambda pl: zeros(pl).select(pl.col("f").n_unique()),
    "group_by_nan_key": lambda pl: zeros(pl).group_by("f", maintain_order=True).agg(pl.col("k").sum()),
    "sort_nan": lambda pl: zeros(pl).sort("f"),
    "sort_nan_descending": lambda pl: zeros(pl).sort("f", descending=True, nulls_last=True),
    "min_max_nan": lambda pl: zeros(pl).select(pl.col("f").min(), pl.col("f").max().alias("mx")),
    "nan_eq_nan": lambda pl: zeros(pl).select(pl.col("f") == float("nan")),
    "negative_zero_eq": lambda pl: zeros(pl).select(pl.col("f") == 0.0),
    "join_on_negative_zero": lambda pl: zeros(pl).join(zeros(pl), on="f"),
    "is_in_nan": lambda pl: zeros(pl).select(pl.col("f").is_in([float("nan")])),
    "sum_inf_minus_inf": lambda pl: pl.DataFrame({"f": [float("inf"), -float("inf")]}).select(pl.col("f").sum()),
    "cast_nan_to_int": lambda pl: zeros(pl).select(pl.col("f").cast(pl.Int64, strict=False)),
    "cast_nan_to_int_strict": lambda pl: zeros(pl).select(pl.col("f").cast(pl.Int64)),
    "cast_neg_zero_str": lambda pl: zeros(pl).select(pl.col("f").cast(pl.String)),
    # Names, shapes and types.
    "missing_column": lambda pl: frame(pl).select(pl.col("zzz")),
    "missing_sort_key": lambda pl: frame(pl).sort("zzz"),
    "missing_group_key": lambda pl: frame(pl).group_by("zzz").agg(pl.len()),
    "missing_join_key": lambda pl: frame(pl).join(frame(pl), on="zzz"),
    "duplicate_output": lambda pl: frame(pl).select(pl.col("i"), pl.col("f").alias("i")),
    "duplicate_with_columns_ok": lambda pl: frame(pl).with_columns(pl.col("f").alias("i"), pl.col("i").alias("i2")),
    "rename_missing": lambda pl: frame(pl).rename({"zzz": "y"}),
    "rename_to_existing": lambda pl: frame(pl).rename({"i": "f"}),
    "drop_missing": lambda pl: frame(pl).drop("zzz"),
    "string_plus_int": lambda pl: frame(pl).select(pl.col("s") + 1),
    "string_gt_int": lambda pl: frame(pl).select(pl.col("s") > 1),
    "bool_minus_bool": lambda pl: frame(pl).select(pl.col("b") - pl.col("b")),
    "sum_of_strings": lambda pl: frame(pl).select(pl.col("s").sum()),
    "mean_of_strings": lambda pl: frame(pl).select(pl.col("s").mean()),
    "strict_cast_str_int": lambda pl: frame(pl).select(pl.col("s").cast(pl.Int64)),
    "strict_cast_overflow": lambda pl: pl.DataFrame({"x": [300]}).select(pl.col("x").cast(pl.Int8)),
    "lenient_cast_overflow": lambda pl: pl.DataFrame({"x": [300]}).select(pl.col("x").cast(pl.Int8, strict=False)),
    "filter_not_bool": lambda pl: frame(pl).filter(pl.col("i")),
    "filter_string_predicate": lambda pl: frame(pl).filter(pl.col("s")),
    "length_mismatch": lambda pl: frame(pl).select(pl.col("i"), pl.col("i").head(2).alias("j")),
    "when_string_number": lambda pl: frame(pl).select(pl.when(pl.col("b")).then(pl.lit("x")).otherwise(1)),
    "join_type_mismatch": lambda pl: frame(pl).join(frame(pl).select(pl.col("s").alias("i")), on="i"),
    "bad_join_how": lambda pl: frame(pl).join(frame(pl), on="i", how="sideways"),
    "bad_unique_keep": lambda pl: frame(pl).unique(keep="middle"),
    "concat_mismatched": lambda pl: pl.concat([frame(pl), one(pl)]),
    "concat_type_mismatch": lambda pl: pl.concat([one(pl), one(pl).with_columns(pl.col("i").cast(pl.String))]),
    "col_not_a_name": lambda pl: frame(pl).select(pl.col(1)),
    "lit_object": lambda pl: frame(pl).select(pl.lit(object())),
    "dataframe_ragged": lambda pl: pl.DataFrame({"a": [1, 2], "b": [1]}),
    "dataframe_bad_value": lambda pl: pl.DataFrame({"a": [1, "x"]}, schema={"a": pl.Int64}),
    "series_too_big_for_dtype": lambda pl: pl.DataFrame({"a": [2**64]}, schema={"a": pl.UInt64}),
    "column_index_out_of_range": lambda pl: frame(pl).to_series(10),
}

# Where frazil knowingly differs: the class of exception (or "ok") frazil gives, and why.
DIFFERENT: dict[str, tuple[str, str]] = {
    "str_slice_2_64": ("OverflowError", "Polars turns an offset past Int64 into a null offset (every row null); "
                                        "frazil refuses the argument, as it does for head(2**64)"),
    "csv_invalid_utf8_header": ("ComputeError", "the CSV reader refuses invalid UTF-8 in a header unless "
                                                "encoding='utf8-lossy' (Polars replaces it); the readers' part of #26"),
}


def outcome(module, query):
    try:
        out = query(module)
    except BaseException as exc:  # noqa: BLE001 - the class is the outcome
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        return "error", exc
    if hasattr(out, "collect"):
        out = out.collect()
    return "ok", out


def same_values(got, want):
    if isinstance(want, polars.DataFrame):
        plt.assert_frame_equal(got.to_polars(), want, check_dtypes=True)
    elif isinstance(want, polars.Series):
        plt.assert_series_equal(got.to_polars() if hasattr(got, "to_polars") else polars.Series(got.to_list()), want)
    else:
        assert got == want or (isinstance(want, float) and math.isnan(want) and math.isnan(got))


@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_query(case):
    query = CASES[case]
    p_kind, p_out = outcome(polars, query)
    f_kind, f_out = outcome(frazil, query)
    if f_kind == "error":
        # Never the bindings' fallbacks: every frazil error keeps its class and a valid message.
        assert type(f_out).__name__ not in ("RuntimeError", "UnicodeDecodeError", "PanicException"), (
            f"{type(f_out).__name__}: {f_out}")
        str(f_out).encode("utf-8")
    if case in DIFFERENT:
        want, why = DIFFERENT[case]
        got = "ok" if f_kind == "ok" else type(f_out).__name__
        assert got == want, f"{case} ({why}): frazil gave {got}: {f_out}"
        return
    if p_kind == "error" and type(p_out).__name__ == "PanicException":
        assert f_kind == "error" and isinstance(f_out, (frazil.exceptions.FrazilError, ValueError, TypeError,
                                                        OverflowError)), (
            f"Polars panics ({p_out}); frazil gave {f_kind}: {f_out}")
        return
    if p_kind == "error":
        assert f_kind == "error", f"Polars raised {type(p_out).__name__}: {p_out}; frazil returned\n{f_out}"
        assert type(f_out).__name__ == type(p_out).__name__, (
            f"frazil raised {type(f_out).__name__}: {f_out}\nPolars raised {type(p_out).__name__}: {p_out}")
        if isinstance(p_out, polars.exceptions.PolarsError):
            assert isinstance(f_out, frazil.exceptions.FrazilError)
        return
    assert f_kind == "ok", f"frazil raised {type(f_out).__name__}: {f_out}; Polars returned\n{p_out}"
    same_values(f_out, p_out)


def test_there_are_over_a_hundred_cases():
    assert len(CASES) > 100


# --- the environment -------------------------------------------------------------------

BAD_ENVIRONMENT = [
    ("FRAZIL_MEMORY_LIMIT", "16777216T"),  # 2**64 bytes: wrapped to 0, "no limit"
    ("FRAZIL_MEMORY_LIMIT", "99999999999999999999"),  # raised IndexError: stoll
    ("FRAZIL_MEMORY_LIMIT", "-1"),
    ("FRAZIL_MEMORY_LIMIT", "8E"),
    ("FRAZIL_MEMORY_LIMIT", "lots"),
    ("FRAZIL_BLOCK_CACHE", "lots"),  # was ignored
    ("FRAZIL_MAX_THREADS", "0"),  # was ignored
    ("FRAZIL_MAX_THREADS", "abc"),
    ("FRAZIL_MAX_THREADS", "99999999999999999999"),
    ("FRAZIL_MAX_THREADS", "2.5"),
    ("POLARS_MAX_THREADS", "-3"),
    ("FRAZIL_MORSEL_SIZE", "0"),
    ("FRAZIL_MORSEL_SIZE", "1e5"),
    ("FRAZIL_TRACE", "maybe"),
    ("FRAZIL_VERIFY", "sometimes"),
    ("FRAZIL_VERBOSE", "loud"),
    ("FRAZIL_PROGRESS", "2"),
    ("FRAZIL_PROGRESS_DELAY_MS", "-5"),  # was taken as the 2 s default
]


def _import_frazil(env_update):
    import os
    import subprocess
    import sys

    env = dict(os.environ, **env_update)
    code = "import frazil as fz; print(fz.Config.memory_limit(), fz.thread_pool_size())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name,value", BAD_ENVIRONMENT, ids=[f"{n}={v}" for n, v in BAD_ENVIRONMENT])
def test_bad_environment_value_fails_at_import_naming_the_variable(name, value):
    out = _import_frazil({name: value})
    assert out.returncode != 0, out.stdout
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith("frazil.exceptions.InvalidOperationError") and name in last and value in last, out.stderr


def test_good_environment_values_are_read():
    out = _import_frazil({"FRAZIL_MEMORY_LIMIT": " 2G ", "FRAZIL_MAX_THREADS": "3", "FRAZIL_MORSEL_SIZE": "7",
                          "FRAZIL_TRACE": "0", "FRAZIL_BLOCK_CACHE": "0"})
    assert out.returncode == 0 and out.stdout.split() == [str(2 << 30), "3"], out.stderr


def test_no_leak_report_at_exit_with_a_thread_still_querying():
    # A daemon thread still running queries at exit keeps its frames' objects alive; that
    # printed "nanobind: leaked 1 instances!" at every such exit.
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import threading, time
        import frazil as pl
        def run():
            df = pl.DataFrame({"a": list(range(10))})
            while True:
                df.select(pl.col("a") * 2)
        threading.Thread(target=run, daemon=True).start()
        time.sleep(0.2)
        leaked = pl.DataFrame({"b": [1]})
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "leak" not in out.stderr, out.stderr
