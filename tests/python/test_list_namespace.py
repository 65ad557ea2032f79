"""The list namespace and pl.concat_list, differential against Polars: nulls inside and
outside the lists, empty lists, empty frames, several chunks, inside agg() and over(), with
the optimizations on and off (assert_same runs both)."""
import re

import pytest

from fuzz.harness import assert_same, assert_same_error

INTS = {"a": [[1, 2, None], [3], None, [], [5, 5, 1], [-2, 7]], "i": [0, -1, 1, 2, None, 5],
        "g": [1, 1, 2, 2, 1, 2]}
STRS = {"s": [["x", None, "y"], ["z"], None, [], ["a", "a"], ["é", "b"]], "sep": ["-", ",", "-", None, "", "|"]}
BOOLS = {"b": [[True, None], [False], None, [], [True, True], [None]]}
FLOATS = {"f": [[1.5, float("nan"), None], [-0.0, 0.0], None, [], [2.5], [None, None]]}
EMPTY = {"a": [], "i": [], "g": []}



@pytest.mark.parametrize("chunks", [1, 3])
def test_lengths_and_elements(chunks):
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").list.len().alias("len"),
        pl.col("a").list.get(0, null_on_oob=True).alias("g0"),
        pl.col("a").list.get(-1, null_on_oob=True).alias("gl"),
        pl.col("a").list.get(pl.col("i"), null_on_oob=True).alias("gi"),
        pl.col("a").list.first().alias("first"),
        pl.col("a").list.last().alias("last"),
        pl.col("a").list.slice(1).alias("s1"),
        pl.col("a").list.slice(-2, 1).alias("s2"),
        pl.col("a").list.slice(pl.col("i"), 1).alias("s3"),
        pl.col("a").list.head(2).alias("h"),
        pl.col("a").list.tail(2).alias("t"),
        pl.col("a").list.reverse().alias("r"),
        pl.col("a").list.shift(1).alias("sh"),
        pl.col("a").list.shift(-1).alias("shn"),
        pl.col("a").list.drop_nulls().alias("dn"),
        pl.col("a").list.gather([0, -1], null_on_oob=True).alias("ga"),
        pl.col("a").list.gather_every(2).alias("ge"),
        pl.col("a").list.gather_every(2, 1).alias("ge1"),
        pl.col("a").list.diff().alias("d")), INTS, chunks=chunks)


def test_get_out_of_bounds_is_an_error():
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").list.get(1)), INTS, kind="ComputeError")
    assert_same_error(lambda pl, lf: lf.select(pl.col("i").list.len()), INTS, kind="InvalidOperationError")


@pytest.mark.parametrize("chunks", [1, 2])
def test_reductions(chunks):
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").list.sum().alias("sum"), pl.col("a").list.mean().alias("mean"),
        pl.col("a").list.min().alias("min"), pl.col("a").list.max().alias("max"),
        pl.col("a").list.median().alias("median"), pl.col("a").list.std().alias("std"),
        pl.col("a").list.var(ddof=0).alias("var"), pl.col("a").list.n_unique().alias("nu"),
        pl.col("a").list.arg_min().alias("amin"), pl.col("a").list.arg_max().alias("amax")), INTS, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(pl.col("b").list.any().alias("any"), pl.col("b").list.all().alias("all")),
                BOOLS)
    assert_same(lambda pl, lf: lf.select(pl.col("f").list.sum().alias("sum"), pl.col("f").list.mean().alias("m"),
                                         pl.col("f").list.max().alias("max")), FLOATS)


def test_sort_unique_contains_join():
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").list.sort().alias("s"), pl.col("a").list.sort(descending=True, nulls_last=True).alias("sd"),
        pl.col("a").list.unique(maintain_order=True).alias("u"),
        pl.col("a").list.contains(1).alias("c"), pl.col("a").list.contains(None).alias("cn"),
        pl.col("a").list.contains(pl.col("i")).alias("ci"),
        pl.col("a").list.count_matches(5).alias("cm")), INTS)
    assert_same(lambda pl, lf: lf.select(
        pl.col("s").list.join("-").alias("j"), pl.col("s").list.join("-", ignore_nulls=False).alias("jn"),
        pl.col("s").list.join(pl.col("sep")).alias("jc"), pl.col("s").list.sort().alias("so"),
        pl.col("s").list.contains("a").alias("c")), STRS)


def test_set_operations():
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").list.set_union([1, 7]).alias("u"),
        pl.col("a").list.set_intersection([1, 5]).alias("i"),
        pl.col("a").list.set_difference(pl.col("a").list.head(1)).list.sort().alias("d"),
        pl.col("a").list.set_symmetric_difference([1, 9]).list.sort().alias("x")), INTS)


def test_concat_list_and_literals():
    data = {"a": [[1, 2], None, []], "b": [[3], [4], None], "c": [1, None, 3]}
    assert_same(lambda pl, lf: lf.select(pl.concat_list("a", "b").alias("ab"), pl.concat_list("c", "c").alias("cc"),
                                         pl.concat_list("a", "c").alias("ac"),
                                         pl.col("a").list.concat(pl.col("b")).alias("c2"),
                                         pl.lit([1, 2]).alias("lit"),
                                         pl.col("a").list.concat([9]).alias("c3")), data)


def test_eval_agg_filter():
    assert_same(lambda pl, lf: lf.select(
        pl.col("a").list.eval(pl.element() * 2).alias("x2"),
        pl.col("a").list.eval(pl.element().sum()).alias("sum"),
        pl.col("a").list.eval(pl.element().rank()).alias("rank"),
        pl.col("a").list.eval(pl.element().filter(pl.element() > 1)).alias("f"),
        pl.col("a").list.eval(pl.element().cum_sum()).alias("cs"),
        pl.col("a").list.agg(pl.element().max()).alias("amax"),
        pl.col("a").list.filter(pl.element() != 5).alias("flt")), INTS, chunks=2)
    assert_same(lambda pl, lf: lf.select(pl.col("s").list.eval(pl.element().str.to_uppercase()).alias("u")), STRS)


def test_in_agg_and_over():
    assert_same(lambda pl, lf: lf.group_by("g").agg(pl.col("a").list.len().sum().alias("n"),
                                                    pl.col("a").list.sum().alias("sums"),
                                                    pl.col("a").list.get(0, null_on_oob=True).max().alias("m")),
                INTS, check_row_order=False)
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.len().sum().over("g").alias("n"),
                                         pl.col("a").list.max().over("g").alias("mx")), INTS)


def test_empty_frames():
    import polars
    schema = {"a": polars.List(polars.Int64), "i": polars.Int64, "g": polars.Int64}
    frame = polars.DataFrame(EMPTY, schema=schema)
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.len(), pl.col("a").list.sum().alias("s"),
                                         pl.col("a").list.sort().alias("so"),
                                         pl.col("a").list.eval(pl.element() + 1).alias("e")), frame)


def test_to_struct_item_sample():
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.to_struct(["x", "y"]).alias("st")), INTS)
    one = {"a": [[1], None, [None], [4]]}
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.item()), one)
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").list.item()), INTS, kind="ComputeError")
    # Random elements: only the sizes are comparable.
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.drop_nulls().list.sample(n=1, seed=3).list.len().alias("n"),
                                         pl.col("a").list.sample(fraction=0.5, seed=1).list.len().alias("f")),
                {"a": [[1, 2], [3, 4], None, [5, 6, 7, 8]]})
    assert_same_error(lambda pl, lf: lf.select(pl.col("a").list.sample(n=3)), INTS, kind="ShapeError")


def test_eval_in_over_and_literals():
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.eval(pl.element().max()).over("g").alias("m"),
                                         pl.col("a").list.eval(pl.lit("x")).alias("lit")), INTS)


@pytest.mark.parametrize("empty_as_null", [False, True])
@pytest.mark.parametrize("keep_nulls", [False, True])
def test_list_explode_options(empty_as_null, keep_nulls):
    # Null rows and empty lists, as select (several chunks), in agg and over (one value per row there).
    build = lambda pl: pl.col("a").list.explode(empty_as_null=empty_as_null, keep_nulls=keep_nulls)  # noqa: E731
    for chunks in (1, 3):
        assert_same(lambda pl, lf: lf.select(build(pl)), INTS, chunks=chunks)
    assert_same(lambda pl, lf: lf.select(build(pl)), EMPTY)
    assert_same(lambda pl, lf: lf.group_by("g").agg(build(pl)).sort("g"), INTS)
    assert_same(lambda pl, lf: lf.select(pl.col("a").list.explode(empty_as_null=empty_as_null,
                                                                  keep_nulls=keep_nulls).sum().over("g")), INTS)


@pytest.mark.parametrize("inner", ["Categorical", "Enum"])
def test_string_items_in_lists_of_categories(inner):
    # Strings are looked for among the categories' strings; one outside them matches nothing.
    data = {"l": [["a", "b", None], None, [], ["c"], ["a", "a"]], "x": ["a", "c", None, "zz", "a"]}

    def with_cats(pl, lf):
        t = pl.Categorical if inner == "Categorical" else pl.Enum(["a", "b", "c"])
        return lf.with_columns(pl.col("l").cast(pl.List(t)))

    for chunks in (1, 2):
        assert_same(lambda pl, lf: with_cats(pl, lf).select(
            c1=pl.col("l").list.contains("a"), c2=pl.col("l").list.contains("zz"),
            c3=pl.col("l").list.contains(pl.col("x")), n1=pl.col("l").list.count_matches("a"),
            n2=pl.col("l").list.count_matches("zz")), data, chunks=chunks)
    assert_same(lambda pl, lf: with_cats(pl, lf).filter(pl.col("l").list.contains("c")), data)


@pytest.mark.parametrize(("query", "message"), [
    (lambda pl, lf: lf.select(pl.col("lists").list.gather(pl.col("index"))),
     "list.gather operation not supported for dtypes `list[i64]` and `list[str]`"),
    (lambda pl, lf: lf.select(pl.col("lists").list.gather(pl.col("flat"))), "`list.gather` indices must be a list"),
    (lambda pl, lf: lf.select(pl.col("lists").cast(pl.Array(pl.Int64, 3)).list.contains(2)),
     "expected List data type for list operation, got: Array(Int64, 3)"),
])
def test_errors_name_the_dtypes_as_polars(query, message):
    import frazil
    import polars

    data = {"index": [["2"], ["2"]], "flat": [1, 2], "lists": [[3, 4, 5], [4, 5, 6]]}
    assert_same_error(query, data)
    for m in (polars, frazil):
        with pytest.raises(m.exceptions.InvalidOperationError, match=re.escape(message)):
            query(m, m.LazyFrame(data)).collect()
