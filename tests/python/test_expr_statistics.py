"""Statistics, horizontal functions and generators, differential against Polars: product,
skew, kurtosis, nan_min/nan_max, bitwise_and/or/xor, entropy, dot, cov, corr(spearman),
hash (properties only), *_horizontal, int_range(s), arange, linear_space(s), fold/reduce,
pl.select; in a select, inside agg() and over(), optimizations on and off."""
import polars as pl
import pytest

from expr_checks import NUMS, check_agg, check_all, check_over, check_select, ok
from fuzz.harness import assert_same, assert_same_error

REAL = ["i", "f", "h", "i8", "u16", "f32", "b"]


@pytest.mark.parametrize("col", REAL)
def test_product(col):
    check_all(lambda pl: pl.col(col).product())


@pytest.mark.parametrize("col", ["i", "f", "h", "u16", "f32"])
@pytest.mark.parametrize("kw", [{}, {"bias": False}])
def test_skew(col, kw):
    check_all(lambda pl: pl.col(col).skew(**kw))


@pytest.mark.parametrize("col", ["i", "f", "h", "u16", "f32"])
@pytest.mark.parametrize("kw", [{}, {"bias": False}, {"fisher": False}])
def test_kurtosis(col, kw):
    check_all(lambda pl: pl.col(col).kurtosis(**kw))


@pytest.mark.parametrize("fn", ["nan_min", "nan_max"])
@pytest.mark.parametrize("col", ["i", "f", "h", "f32", "s"])
def test_nan_min_max(fn, col):
    check_all(lambda pl: getattr(pl.col(col), fn)())


@pytest.mark.parametrize("fn", ["bitwise_and", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("col", ["i", "j", "i8", "u16", "b"])
def test_bitwise_reductions(fn, col):
    check_all(lambda pl: getattr(pl.col(col), fn)())


@pytest.mark.parametrize("kw", [{}, {"base": 2}, {"normalize": False}])
def test_entropy(kw):
    data = pl.DataFrame({"g": [1, 1, 2, 2, 2], "x": [1, None, 2, 2, 3], "p": [0.5, 0.25, None, 0.25, 0.5]})
    check_all(lambda pl: pl.col("x").entropy(**kw), data)
    check_all(lambda pl: pl.col("p").entropy(**kw), data)


@pytest.mark.parametrize("kw", [{}, {"normalize": False}])
def test_entropy_of_negative_single_and_float32_groups(kw):
    # Polars' formula log(S) - sum(x log x) / S: a negative sum is NaN, one positive value 0.0
    # (not -0.0), no value NaN; Float32 stays Float32.
    data = pl.DataFrame({"g": [1, 2, 3, 3, 4, 5, 5], "x": [-358.5, 0.5, -1.0, 2.0, None, 0.0, 1.0]},
                        schema={"g": pl.Int64, "x": pl.Float32})
    check_all(lambda pl: pl.col("x").entropy(**kw), data)


def test_dot_cov_corr():
    check_all(lambda pl: pl.col("i").dot(pl.col("j")), over=False)
    check_select(lambda pl: pl.col("f").dot("h"))
    for ddof in (0, 1):
        ok(assert_same(lambda pl, lf: lf.select(pl.cov("i", "j", ddof=ddof)), NUMS))
        ok(assert_same(lambda pl, lf: lf.group_by("g").agg(pl.cov("i", "j", ddof=ddof)).sort("g"), NUMS))


def test_hash_is_stable_per_value():
    import frazil as fz

    df = fz.DataFrame({"x": [1, 2, 1, None, None], "s": ["a", "b", "a", None, "b"]})
    out = df.select(h=fz.col("x").hash(), hs=fz.col("s").hash(7), h2=fz.col("x").hash(1))
    h, hs, h2 = (out[c].to_list() for c in ("h", "hs", "h2"))
    assert h[0] == h[2] and h[0] != h[1] and h[3] == h[4]
    assert hs[0] == hs[2] and hs[1] == hs[4]
    assert h2[0] != h[0]
    assert out.schema["h"] == fz.UInt64


HORIZONTAL = ["sum_horizontal", "mean_horizontal", "min_horizontal", "max_horizontal"]


@pytest.mark.parametrize("fn", HORIZONTAL)
@pytest.mark.parametrize("cols", [("i", "j"), ("f", "h"), ("i8", "u16"), ("i", "f", "j"), ("b", "b"), ("i",)])
def test_horizontal(fn, cols):
    check_all(lambda pl: getattr(pl, fn)(*cols), agg=False, over=False)
    check_select(lambda pl: getattr(pl, fn)([pl.col(c) for c in cols]))


@pytest.mark.parametrize("fn", HORIZONTAL + ["any_horizontal", "all_horizontal"])
def test_horizontal_expands_selections_into_its_inputs(fn):
    # A selection inside a horizontal function is its inputs: one column, named after the
    # first (it was expanded outside: one output column per selected column).
    numeric = ["i", "j", "f", "h"] if "sum" in fn or "mean" in fn else ["i", "j", "i8", "u16"]
    sel = (lambda pl: pl.col("b", "b")) if fn in ("any_horizontal", "all_horizontal") else (lambda pl: pl.col(numeric))
    check_select(lambda pl: getattr(pl, fn)(sel(pl)))
    check_select(lambda pl: getattr(pl, fn)(sel(pl)).alias("out"))
    check_select(lambda pl: getattr(pl, fn)(sel(pl), pl.col("j").is_null() if "any" in fn or "all" in fn else "t"))
    check_agg(lambda pl: getattr(pl, fn)(sel(pl)).first())


@pytest.mark.parametrize("fn", ["sum_horizontal", "mean_horizontal"])
def test_horizontal_ignore_nulls(fn):
    check_select(lambda pl: getattr(pl, fn)("i", "f", ignore_nulls=False))
    check_agg(lambda pl: getattr(pl, fn)("i", "j").sum())


@pytest.mark.parametrize("fn", ["any_horizontal", "all_horizontal"])
def test_logic_horizontal(fn):
    check_select(lambda pl: getattr(pl, fn)("b", pl.col("i") > 0, pl.col("s").is_null()))
    check_select(lambda pl: getattr(pl, fn)(pl.col("b")))
    check_agg(lambda pl: getattr(pl, fn)("b", pl.col("i") > 0))


@pytest.mark.parametrize("args", [(5,), (0, 5), (2, 9, 3), (5, 0, -2), (3, 3)])
def test_int_range(args):
    ok(assert_same(lambda pl, lf: lf.select(pl.int_range(*args)), NUMS))
    ok(assert_same(lambda pl, lf: lf.select(pl.arange(*args, dtype=pl.UInt16)), NUMS))


def test_int_range_of_lengths_in_groups_and_windows():
    check_over(lambda pl: pl.int_range(pl.len()))
    check_agg(lambda pl: pl.int_range(0, pl.len()).alias("r"))
    check_select(lambda pl: pl.int_range(0, pl.len()) * 2)
    ok(assert_same(lambda pl, lf: lf.select(pl.int_range(0.5, 3)), NUMS))
    assert_same_error(lambda pl, lf: lf.select(pl.int_range(pl.lit("a"), 3)), NUMS)


def test_int_ranges():
    data = pl.DataFrame({"a": [1, 5, None, -2], "b": [4, 2, 3, 2], "s": [1, -1, 1, 2]})
    check_select(lambda pl: pl.int_ranges("a", "b"), data)
    check_select(lambda pl: pl.int_ranges(0, "b", 2), data)
    check_select(lambda pl: pl.int_ranges("b", dtype=pl.Int32), data)


@pytest.mark.parametrize("closed", ["both", "left", "right", "none"])
@pytest.mark.parametrize("n", [0, 1, 3, 4])  # (3: the last point is end - step, not 2 * step)
def test_linear_space(closed, n):
    ok(assert_same(lambda pl, lf: lf.select(pl.linear_space(0, 1, n, closed=closed)), NUMS))
    ok(assert_same(lambda pl, lf: lf.select(pl.linear_space(-2.5, 10, n, closed=closed)), NUMS))


SPACES = pl.DataFrame({"g": [1, 1, 2, 2, 2, 3], "s": [0.0, 1.0, None, 2.0, 5.0, -1.0], "e": [1.0, 3.0, 2.0, 2.0, 4.0, 7.5],
                       "n": [3, 2, 1, 1, 0, 4]})


@pytest.mark.parametrize("closed", ["both", "left", "right", "none"])
def test_linear_spaces(closed):
    # Per row: a null bound gives a null list, 0 samples an empty one; Float32 bounds stay Float32.
    check_all(lambda pl: pl.linear_spaces("s", "e", "n", closed=closed), SPACES, agg=False)
    check_select(lambda pl: pl.linear_spaces(pl.col("s").cast(pl.Float32), pl.col("e").cast(pl.Float32), 4,
                                             closed=closed), SPACES)
    check_select(lambda pl: pl.linear_spaces("s", 10, 3, closed=closed, as_array=True), SPACES)
    ok(assert_same(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(
        pl.linear_spaces(pl.col("s").min(), pl.col("e").max(), 3, closed=closed)), SPACES))


def test_fold_reduce_and_select():
    ok(assert_same(lambda pl, lf: lf.select(pl.fold(pl.lit(0), lambda a, x: a + x, [pl.col("i"), pl.col("j")])), NUMS))
    ok(assert_same(lambda pl, lf: lf.select(pl.reduce(lambda a, x: a * x, [pl.col("i"), pl.col("j"), pl.col("t")])),
                   NUMS))
    import frazil as fz
    import polars.testing as plt

    plt.assert_frame_equal(fz.select(fz.int_range(3).alias("x"), y=fz.lit(1)).to_polars(),
                           pl.select(pl.int_range(3).alias("x"), y=pl.lit(1)))
