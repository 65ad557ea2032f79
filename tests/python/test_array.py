"""The Array dtype and the arr namespace, differential against Polars: nulls inside and
outside the arrays, width 0 and 1, empty frames, several chunks, inside agg() and over(),
with the optimizations on and off (assert_same runs both)."""
import numpy as np
import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same, assert_same_error

INTS = pl.DataFrame({
    "a": pl.Series([[1, 2, None], [3, 3, 1], None, [5, -5, 0], [None, None, None], [7, 8, 9]],
                   dtype=pl.Array(pl.Int64, 3)),
    "b": pl.Series([[1, 0, 2], [1, 1, 1], [2, 2, 2], None, [0, 1, 0], [1, 2, 3]], dtype=pl.Array(pl.Int64, 3)),
    "i": [0, -1, 1, 2, None, 2],
    "g": [1, 1, 2, 2, 1, 2],
})
STRS = pl.DataFrame({"s": pl.Series([["x", None], ["z", "a"], None, ["é", "b"]], dtype=pl.Array(pl.String, 2))})
BOOLS = pl.DataFrame({"b": pl.Series([[True, None], [False, False], None, [True, True]], dtype=pl.Array(pl.Boolean, 2))})
FLOATS = pl.DataFrame({"f": pl.Series([[1.5, float("nan")], [-0.0, 0.0], None, [2.5, None]],
                                      dtype=pl.Array(pl.Float64, 2))})
WIDTH1 = pl.DataFrame({"a": pl.Series([[1], [None], None, [4]], dtype=pl.Array(pl.Int64, 1))})
# (Polars cannot import a zero-width array with a null row back from Arrow, even its own.)
WIDTH0 = pl.DataFrame({"a": pl.Series([[], [], []], dtype=pl.Array(pl.Int64, 0))})


# ---- the dtype ----

def test_dtype_names_and_shapes():
    assert repr(fz.Array(fz.Int64, 3)) == repr(pl.Array(pl.Int64, 3)) == "Array(Int64, shape=(3,))"
    nested = fz.Array(fz.Int64, (2, 3))
    assert nested.shape == (2, 3) and nested.size == 2 and nested.inner == fz.Array(fz.Int64, 3)
    assert nested == pl.Array(pl.Int64, (2, 3))
    assert fz.Array(fz.Int64, 2) != fz.Array(fz.Int64, 3)
    assert fz.Array(fz.Int64, 2) == fz.Array
    with pytest.raises(TypeError):
        fz.Array(fz.Int64)


def test_series_from_values_prints_as_polars():
    for dtype in (pl.Array(pl.Int64, 2), pl.Array(pl.Int64, (2, 1))):
        values = [[1, 2], None, [3, None]] if dtype.shape == (2,) else [[[1], [2]], None, [[3], [None]]]
        p = pl.Series("x", values, dtype=dtype)
        f = fz.Series("x", values, dtype=fz.Array(fz.Int64, dtype.shape))
        assert str(f) == str(p)
        assert f.to_list() == p.to_list()
        assert f.dtype == p.dtype
    with pytest.raises(fz.ComputeError, match="width 2"):
        fz.Series([[1, 2], [3]], dtype=fz.Array(fz.Int64, 2))


@pytest.mark.parametrize("data", [INTS, STRS, FLOATS, WIDTH1])
def test_arrow_round_trip_keeps_fixed_size_list(data):
    f = fz.DataFrame(data)
    assert f.schema == data.schema
    out = f.to_polars()
    pl.testing.assert_frame_equal(out, data)
    t = f.to_arrow()
    assert str(t.schema.field(0).type).startswith("fixed_size_list")


def test_casts_between_list_and_array():
    assert_same(lambda pl, lf: lf.select(pl.col("a").cast(pl.List(pl.Int64)).alias("l"),
                                         pl.col("a").cast(pl.Array(pl.Float64, 3)).alias("f"),
                                         pl.col("a").cast(pl.List(pl.Int64)).cast(pl.Array(pl.Int64, 3)).alias("back")),
                INTS, chunks=2)
    lists = {"l": [[1, 2], [3], None]}
    assert_same_error(lambda pl, lf: lf.select(pl.col("l").cast(pl.Array(pl.Int64, 2))), lists, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").cast(pl.Array(pl.Int64, 2))), INTS,
                      kind="InvalidOperationError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").cast(pl.String)), INTS, kind="InvalidOperationError")
    assert_same(lambda pl, lf: lf.select(pl.col("l").list.to_array(1)), {"l": [[1], None, [3]]})


def test_equality_group_by_and_unique_on_arrays():
    assert_same(lambda pl, lf: lf.select((pl.col("a") == pl.col("b")).alias("eq"),
                                         pl.col("a").eq_missing(pl.col("b")).alias("eqm")), INTS)
    assert_same(lambda pl, lf: lf.group_by("a").agg(pl.col("i").sum()), INTS, check_row_order=False)
    assert_same(lambda pl, lf: lf.select(pl.col("a")).unique(), INTS, check_row_order=False)
    j = pl.DataFrame({"a": pl.Series([[3, 3, 1], [7, 8, 9]], dtype=pl.Array(pl.Int64, 3)), "k": [10, 20]})
    assert_same(lambda pl, lf, rf: lf.join(rf, on="a").select("i", "k"), INTS, j, check_row_order=False)


# ---- the namespace ----

@pytest.mark.parametrize("chunks", [1, 3])
def test_reductions(chunks):
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").arr.sum().alias("sum"), pl.col("a").arr.mean().alias("mean"),
        pl.col("a").arr.min().alias("min"), pl.col("a").arr.max().alias("max"),
        pl.col("a").arr.median().alias("median"), pl.col("a").arr.std().alias("std"),
        pl.col("a").arr.var(ddof=0).alias("var"), pl.col("a").arr.n_unique().alias("nu"),
        pl.col("a").arr.arg_min().alias("amin"), pl.col("a").arr.arg_max().alias("amax"),
        pl.col("a").arr.len().alias("len")), INTS, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.col("b").arr.any().alias("any"), pl.col("b").arr.all().alias("all")),
                BOOLS)
    assert_same(lambda pl, lf: lf.select(pl.col("f").arr.sum().alias("sum"), pl.col("f").arr.max().alias("max")),
                FLOATS)


@pytest.mark.parametrize("data", [INTS, WIDTH1])
def test_elements_and_order(data):
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").arr.first().alias("first"), pl.col("a").arr.last().alias("last"),
        pl.col("a").arr.get(0, null_on_oob=True).alias("g0"),
        pl.col("a").arr.head(2).alias("h"), pl.col("a").arr.tail(2).alias("t"),
        pl.col("a").arr.slice(1).alias("s"), pl.col("a").arr.shift(1).alias("sh"),
        pl.col("a").arr.reverse().alias("r"), pl.col("a").arr.sort().alias("so"),
        pl.col("a").arr.sort(descending=True, nulls_last=True).alias("sod"),
        pl.col("a").arr.unique(maintain_order=True).alias("u"),
        pl.col("a").arr.to_list().alias("tl"),
        pl.col("a").arr.contains(1).alias("c"), pl.col("a").arr.count_matches(1).alias("cm")), data, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.explode()), data)
    assert_same(lambda pl, lf: lf.explode("a"), data)


def test_zero_width_arrays():
    # (Not through Arrow: Polars cannot import its own zero-width arrays back.)
    values = [[], None, []]
    p = pl.Series("a", values, dtype=pl.Array(pl.Int64, 0))
    f = fz.Series("a", values, dtype=fz.Array(fz.Int64, 0))
    assert str(f.dtype) == str(p.dtype)
    # (Polars panics on sum and max of zero-width arrays; frazil gives 0 and null, as for empty lists.)
    for build in (lambda s: s.arr.len(), lambda s: s.arr.to_list(), lambda s: s.arr.reverse(),
                  lambda s: s.arr.sort(), lambda s: s.arr.first()):
        assert build(f).to_list() == build(p).to_list()
    assert f.arr.sum().to_list() == [0, None, 0]
    assert f.arr.max().to_list() == [None, None, None]


def test_get_with_column_index_and_out_of_bounds():
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.get(pl.col("i"), null_on_oob=True)), INTS)
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").arr.get(5)), INTS, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").arr.sum()), INTS)


def test_join_to_struct_dot():
    assert_same(lambda pl, lf: lf.select(pl.col("s").arr.join("-").alias("j"),
                                         pl.col("s").arr.join("-", ignore_nulls=False).alias("jn")), STRS)
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.to_struct()).unnest("a"), INTS)
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.to_struct(["x", "y", "z"])), INTS)
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.dot(pl.col("b"))), INTS)
    assert_same(lambda pl, lf: lf.select(pl.col("f").arr.dot(pl.col("f"))), FLOATS)


def test_eval_and_agg():
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.eval(pl.element() * 2).alias("e"),
                                         pl.col("a").arr.eval(pl.element().sort()).alias("s"),
                                         pl.col("a").arr.eval(pl.element().filter(pl.element() > 1),
                                                              as_list=True).alias("fl"),
                                         pl.col("a").arr.agg(pl.element().sum()).alias("agg")), INTS, chunks=2)
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").arr.eval(pl.element().sum())), INTS,
                      kind="InvalidOperationError")


def test_in_agg_and_over():
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("a").arr.sum().sum().alias("s"),
                                                    pl.col("a").arr.max().max().alias("m")).sort("g"), INTS)
    assert_same(lambda pl, lf: lf.select(pl.col("a").arr.sum().sum().over("g").alias("o")), INTS)
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("a").arr.sum().sum()).sort("g"), INTS.clear())


def test_concat_arr():
    assert_same(lambda pl, lf: lf.select(pl.concat_arr("a", "b").alias("ab"), pl.concat_arr("a", "i").alias("ai"),
                                         pl.concat_arr("i").alias("i1")), INTS, chunks=2)
    assert_same_error(lambda pl, lf: lf.select(pl.concat_arr("a", pl.col("i").cast(pl.Int32))), INTS,
                      kind="SchemaError")


# ---- reshape and NumPy ----

def test_reshape():
    flat = {"x": [1, 2, None, 4, 5, 6]}
    for dims in [(2, 3), (-1, 2), (3, 2), (1, 2, 3), (6,), (-1,)]:
        assert_same(lambda pl, lf, d=dims: lf.select(pl.col("x").reshape(d)), flat)
    assert_same(lambda pl, lf: lf.select(pl.col("a").reshape((-1,))), INTS.filter(pl.col("a").is_not_null()))
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").reshape((4, 2))), flat, kind="InvalidOperationError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("x").reshape((-1, -1))), flat, kind="InvalidOperationError")


def test_numpy_two_dimensional():
    m = np.arange(6, dtype=np.float64).reshape(3, 2)
    s = fz.Series("m", m)
    assert s.dtype == pl.Series("m", m).dtype
    assert s.dtype == fz.Array(fz.Float64, 2)
    assert s.to_list() == pl.Series("m", m).to_list()
    np.testing.assert_array_equal(s.to_numpy(), m)
    cube = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    assert fz.Series(cube).dtype == pl.Series(cube).dtype
    np.testing.assert_array_equal(fz.Series(cube).to_numpy(), cube)


# ---- Parquet ----

def test_parquet_round_trip(tmp_path):
    path = str(tmp_path / "a.parquet")
    fz.DataFrame(INTS).write_parquet(path)
    got = fz.read_parquet(path)
    assert got.schema == INTS.schema
    pl.testing.assert_frame_equal(got.to_polars(), INTS)
    # Polars reads the values back (as a List: frazil's footer names the width only for frazil).
    back = pl.read_parquet(path).with_columns(pl.col("a", "b").cast(pl.Array(pl.Int64, 3)))
    pl.testing.assert_frame_equal(back, INTS)
    # What Polars writes reads back as Array.
    ppath = str(tmp_path / "p.parquet")
    INTS.write_parquet(ppath)
    got = fz.read_parquet(ppath)
    assert got.schema == INTS.schema
    pl.testing.assert_frame_equal(got.to_polars(), INTS)


def test_arithmetic_between_arrays():
    floats = pl.DataFrame({"x": pl.Series([[1.5, None], [2.0, -1.0], None], dtype=pl.Array(pl.Float64, 2)),
                           "y": pl.Series([[2.0, 1.0], None, [1.0, 1.0]], dtype=pl.Array(pl.Float64, 2))})
    assert_same(lambda pl, lf: lf.select((pl.col("x") + pl.col("y")).alias("add"),
                                         (pl.col("x") * pl.col("y")).alias("mul"),
                                         (pl.col("x") / pl.col("y")).alias("div")), floats, chunks=2)
    assert_same(lambda pl, lf: lf.select((pl.col("a") - pl.col("b")).alias("sub")), INTS)


def test_head_tail_slice_as_array():
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").arr.head(2, as_array=True).alias("h"), pl.col("a").arr.tail(1, as_array=True).alias("t"),
        pl.col("a").arr.head(-1, as_array=True).alias("hn"), pl.col("a").arr.tail(10, as_array=True).alias("t10"),
        pl.col("a").arr.slice(1, as_array=True).alias("s"), pl.col("a").arr.slice(-2, 1, as_array=True).alias("s2")),
        INTS.filter(pl.col("a").is_not_null()))
    # (A zero-width result cannot go back to Polars through Arrow.)
    got = fz.DataFrame(INTS).select(fz.col("a").arr.slice(5, as_array=True)).to_series()
    assert got.dtype == fz.Array(fz.Int64, 0) and got.to_list() == [[], [], None, [], [], []]


def test_sort_by_array_column():
    assert_same(lambda pl, lf: lf.sort("b", nulls_last=True).select("b", "i"), INTS)


def test_ipc_round_trip(tmp_path):
    path = str(tmp_path / "a.arrow")
    fz.DataFrame(INTS).write_ipc(path)
    pl.testing.assert_frame_equal(pl.read_ipc(path), INTS)
    pl.testing.assert_frame_equal(fz.read_ipc(path).to_polars(), INTS)


IS_IN = {"a": [[1, 2], [3, 4], None, [1, None], [None, None], [7, 8]], "x": [1, 3, 5, None, 2, 8],
         "g": [1, 1, 2, 2, 2, 1]}


def with_array(pl, lf, inner="Int64"):
    return lf.with_columns(pl.col("a").cast(pl.Array(getattr(pl, inner), 2)))


@pytest.mark.parametrize("chunks", [1, 3])
@pytest.mark.parametrize("kind", ["array", "list"])
def test_is_in_a_list_or_array_column(chunks, kind):
    # Row by row: whether each row's list holds its x (a null list or x gives null).
    frame = with_array if kind == "array" else (lambda pl, lf: lf)
    assert_same(lambda pl, lf: frame(pl, lf).select(pl.col("x").is_in(pl.col("a"))), IS_IN, chunks=chunks)
    assert_same(lambda pl, lf: frame(pl, lf).select(pl.col("x").cast(pl.Int8).is_in(pl.col("a"))), IS_IN,
                chunks=chunks)
    assert_same(lambda pl, lf: frame(pl, lf).group_by("g").agg(pl.col("x").is_in(pl.col("a"))).sort("g"), IS_IN)
    assert_same(lambda pl, lf: frame(pl, lf).select(pl.col("x").is_in(pl.col("a")).over("g")), IS_IN)
    assert_same(lambda pl, lf: frame(pl, lf).filter(pl.col("x").is_in(pl.col("a"))), IS_IN, chunks=chunks)
    assert_same(lambda pl, lf: frame(pl, lf).head(0).select(pl.col("x").is_in(pl.col("a"))), IS_IN)


def test_is_in_one_array_value_and_errors():
    assert_same(lambda pl, lf: with_array(pl, lf).select(pl.col("x").is_in(pl.col("a").last())), IS_IN)
    assert_same(lambda pl, lf: with_array(pl, lf, "Int32").select(pl.col("x").is_in(pl.col("a"))), IS_IN)
    assert_same_error(lambda pl, lf: with_array(pl, lf).select(pl.col("x").cast(pl.String).is_in(pl.col("a"))),
                      IS_IN)
