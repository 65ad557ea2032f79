"""LazyFrame operations, differential against Polars: select, with_columns, filter, sort,
slices, unique, rename, drop, with_row_index, concat, collect_schema."""
import math

import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_same, to_frames

NAN = math.nan
INF = math.inf

BASE = pl.DataFrame(
    {
        "i": [1, -2, None, 4, 0, 7, -2, None, 3],
        "f": [1.5, NAN, -0.0, None, INF, -INF, 2.5, 0.0, -1.25],
        "s": ["a", "b", None, "a", "", "ccc", "b", "a", "zz"],
        "b": [True, False, None, True, False, True, None, False, True],
        "g": ["x", "y", "x", "y", "x", "z", "z", "x", "y"],
        "u": [3, 1, 2, 255, 0, None, 7, 7, 1],
    },
    schema_overrides={"u": pl.UInt8},
)
EMPTY = BASE.clear()
ONE = BASE.head(1)
FRAMES = {"base": BASE, "empty": EMPTY, "one": ONE}


def _frames():
    return pytest.mark.parametrize("frame", list(FRAMES.values()), ids=list(FRAMES))


SELECTS = [
    pytest.param(lambda pl, lf: lf.select("i", "s"), id="names"),
    pytest.param(lambda pl, lf: lf.select(["i", pl.col("f")]), id="list"),
    pytest.param(lambda pl, lf: lf.select(pl.col("i") + 1, total=pl.col("f") * 2), id="positional_and_keyword"),
    pytest.param(lambda pl, lf: lf.select(pl.col("i").alias("x"), pl.lit(3)), id="alias_and_literal"),
    pytest.param(lambda pl, lf: lf.select(pl.lit(1).alias("one"), pl.col("s")), id="literal_broadcast"),
    pytest.param(lambda pl, lf: lf.select(pl.col("i").sum(), pl.col("f").max()), id="reductions"),
    pytest.param(lambda pl, lf: lf.select(pl.len()), id="len"),
    pytest.param(lambda pl, lf: lf.select(pl.all()), id="all"),
    pytest.param(lambda pl, lf: lf.select(pl.all().exclude("s", "g")), id="exclude"),
    pytest.param(lambda pl, lf: lf.select(pl.col("i", "u")), id="multi_col"),
    pytest.param(lambda pl, lf: lf.select(pl.nth(2)), id="nth"),
    pytest.param(lambda pl, lf: lf.with_columns(pl.col("i") * 2), id="wc_replace"),
    pytest.param(lambda pl, lf: lf.with_columns(k=pl.col("i") - pl.col("u"), z=pl.lit("q")), id="wc_keyword"),
    pytest.param(lambda pl, lf: lf.with_columns((pl.col("f") / 2).alias("h"), pl.col("s").str.len_bytes()),
                 id="wc_positional"),
    pytest.param(lambda pl, lf: lf.with_columns(m=pl.col("i").max()), id="wc_broadcast_agg"),
    pytest.param(lambda pl, lf: lf.with_columns(a=pl.col("i") + 1).with_columns(b=pl.col("a") * 2), id="wc_chain"),
]


@_frames()
@pytest.mark.parametrize("query", SELECTS)
def test_select_and_with_columns(query, frame):
    assert_same(query, frame)


FILTERS = [
    pytest.param(lambda pl, lf: lf.filter(pl.col("i") > 0), id="gt"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("i") > 0, pl.col("f") < 3), id="two_args"),
    pytest.param(lambda pl, lf: lf.filter([pl.col("i") >= -2, pl.col("s") != "a", pl.col("b")]), id="list_three"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("i") > 0).filter(pl.col("u") < 10), id="chained"),
    pytest.param(lambda pl, lf: lf.filter(g="x"), id="keyword_constraint"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("b")), id="bool_column"),
    pytest.param(lambda pl, lf: lf.filter(~pl.col("b")), id="not_bool_column"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("f").is_nan()), id="is_nan"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("f") == 0.0), id="neg_zero_equals_zero"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("f") > 1e308), id="inf"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("s").is_null() | (pl.col("i") < 0)), id="or_null"),
    pytest.param(lambda pl, lf: lf.filter(True), id="lit_true"),
    pytest.param(lambda pl, lf: lf.filter(pl.lit(False)), id="lit_false"),
    pytest.param(lambda pl, lf: lf.filter(pl.lit(None, dtype=pl.Boolean)), id="lit_null"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("i") > pl.col("i").mean()), id="vs_aggregate"),
    pytest.param(lambda pl, lf: lf.with_columns(k=pl.col("i") * 10).filter(pl.col("k") > 5).select("k", "s"),
                 id="through_with_columns"),
]


@_frames()
@pytest.mark.parametrize("query", FILTERS)
def test_filter(query, frame):
    assert_same(query, frame, chunks=3)


SORTS = [
    pytest.param(lambda pl, lf: lf.sort("i"), id="one_key"),
    pytest.param(lambda pl, lf: lf.sort("f"), id="float_nan_zero"),
    pytest.param(lambda pl, lf: lf.sort("f", descending=True), id="float_desc"),
    pytest.param(lambda pl, lf: lf.sort("s", nulls_last=True), id="string_nulls_last"),
    pytest.param(lambda pl, lf: lf.sort("g", "i", descending=[True, False]), id="multi_desc_list"),
    pytest.param(lambda pl, lf: lf.sort(["g", "s"], descending=[False, True], nulls_last=[True, False]),
                 id="multi_nulls_last_list"),
    pytest.param(lambda pl, lf: lf.sort("g", maintain_order=True), id="maintain_order"),
    pytest.param(lambda pl, lf: lf.sort("b", "u", nulls_last=True, maintain_order=True), id="bool_key"),
    pytest.param(lambda pl, lf: lf.sort(pl.col("i") * -1, "f"), id="expr_key"),
    pytest.param(lambda pl, lf: lf.sort("u", descending=True, nulls_last=True).head(3), id="top_k"),
    pytest.param(lambda pl, lf: lf.sort("i").tail(2), id="bottom"),
]


@_frames()
@pytest.mark.parametrize("query", SORTS)
def test_sort(query, frame):
    assert_same(query, frame, chunks=2)


SLICES = [
    pytest.param(lambda pl, lf: lf.head(3), id="head"),
    pytest.param(lambda pl, lf: lf.head(0), id="head0"),
    pytest.param(lambda pl, lf: lf.head(100), id="head_big"),
    pytest.param(lambda pl, lf: lf.tail(3), id="tail"),
    pytest.param(lambda pl, lf: lf.tail(100), id="tail_big"),
    pytest.param(lambda pl, lf: lf.limit(2), id="limit"),
    pytest.param(lambda pl, lf: lf.slice(2, 3), id="slice"),
    pytest.param(lambda pl, lf: lf.slice(-4, 2), id="slice_negative"),
    pytest.param(lambda pl, lf: lf.slice(-20, 3), id="slice_negative_past_start"),
    pytest.param(lambda pl, lf: lf.slice(3), id="slice_open"),
    pytest.param(lambda pl, lf: lf.slice(50, 2), id="slice_past_end"),
    pytest.param(lambda pl, lf: lf.first(), id="first"),
    pytest.param(lambda pl, lf: lf.last(), id="last"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("i").is_not_null()).head(2), id="filter_head"),
    pytest.param(lambda pl, lf: lf.head(5).filter(pl.col("i").is_not_null()), id="head_filter"),
    pytest.param(lambda pl, lf: lf.head(6).tail(3).head(2), id="nested"),
    pytest.param(lambda pl, lf: lf.with_columns(c=pl.col("i").cum_count() if False else pl.col("i")).slice(1, 4),
                 id="with_columns_slice"),
]


@_frames()
@pytest.mark.parametrize("query", SLICES)
def test_slices(query, frame):
    assert_same(query, frame, chunks=3)


UNIQUES = [
    pytest.param(lambda pl, lf: lf.unique(maintain_order=True), False, id="all_cols_ordered"),
    pytest.param(lambda pl, lf: lf.unique(), True, id="all_cols"),
    pytest.param(lambda pl, lf: lf.unique("g", keep="first", maintain_order=True), False, id="first_ordered"),
    pytest.param(lambda pl, lf: lf.unique("g", keep="last", maintain_order=True), False, id="last_ordered"),
    pytest.param(lambda pl, lf: lf.unique(["g", "b"], keep="none", maintain_order=True), False, id="none_ordered"),
    pytest.param(lambda pl, lf: lf.unique(["s"], keep="first"), True, id="first"),
    pytest.param(lambda pl, lf: lf.unique(["f"], keep="first", maintain_order=True), False, id="float_key"),
    pytest.param(lambda pl, lf: lf.select("g", "u").unique(), True, id="after_select"),
    pytest.param(lambda pl, lf: lf.unique("i", keep="any").select("i"), True, id="keep_any_key_only"),
]


@_frames()
@pytest.mark.parametrize("query, unordered", UNIQUES)
def test_unique(query, unordered, frame):
    assert_same(query, frame, check_row_order=not unordered, chunks=2)


SHAPE = [
    pytest.param(lambda pl, lf: lf.rename({"i": "ii", "s": "ss"}), id="rename"),
    pytest.param(lambda pl, lf: lf.rename({"i": "s", "s": "i"}), id="rename_swap"),
    pytest.param(lambda pl, lf: lf.rename(lambda c: c.upper()), id="rename_callable"),
    pytest.param(lambda pl, lf: lf.rename({"i": "x"}).filter(pl.col("x") > 0), id="rename_then_filter"),
    pytest.param(lambda pl, lf: lf.drop("i"), id="drop"),
    pytest.param(lambda pl, lf: lf.drop(["i", "f"], "s"), id="drop_many"),
    pytest.param(lambda pl, lf: lf.with_row_index(), id="row_index"),
    pytest.param(lambda pl, lf: lf.with_row_index("n", offset=10), id="row_index_offset"),
    pytest.param(lambda pl, lf: lf.filter(pl.col("i") > 0).with_row_index(), id="filter_row_index"),
    pytest.param(lambda pl, lf: lf.with_row_index().filter(pl.col("i") > 0), id="row_index_filter"),
    pytest.param(lambda pl, lf: lf.with_row_index().slice(2, 3), id="row_index_slice"),
]


@_frames()
@pytest.mark.parametrize("query", SHAPE)
def test_rename_drop_row_index(query, frame):
    assert_same(query, frame, chunks=2)


CONCATS = [
    pytest.param(lambda pl, a, b: pl.concat([a, b]), id="two"),
    pytest.param(lambda pl, a, b: pl.concat([a, b, a]), id="three"),
    pytest.param(lambda pl, a, b: pl.concat([a.filter(pl.col("i") > 0), b.head(2)]), id="filtered_inputs"),
    pytest.param(lambda pl, a, b: pl.concat([a, b]).filter(pl.col("u") > 1).select("u", "s"), id="filter_after"),
    pytest.param(lambda pl, a, b: pl.concat([a, b]).sort("i", "s", "f", maintain_order=True), id="sort_after"),
    pytest.param(lambda pl, a, b: pl.concat([a, b]).group_by("g").agg(pl.col("i").sum()).sort("g"),
                 id="group_after"),
    pytest.param(lambda pl, a, b: pl.concat([a, b]).slice(7, 4), id="slice_across"),
    pytest.param(lambda pl, a, b: pl.concat([a.select("i"), b.select("i")]).with_row_index(), id="row_index"),
]


@pytest.mark.parametrize("query", CONCATS)
@pytest.mark.parametrize("second", [BASE.reverse(), EMPTY], ids=["reversed", "empty"])
def test_concat(query, second):
    assert_same(query, BASE, second)


def test_concat_reused_subplan():
    def query(pl, lf):
        sub = lf.filter(pl.col("i") > -5).with_columns(k=pl.col("i") * 2)
        return pl.concat([sub.select("k"), sub.select(pl.col("k") + 1)])

    assert_same(query, BASE)


def test_concat_width_mismatch_errors():
    def query(pl, a, b):
        return pl.concat([a, b.select("i")])

    from fuzz.harness import assert_same_error

    assert_same_error(query, BASE, BASE)


@_frames()
def test_collect_schema(frame):
    def query(pl, lf):
        return lf.with_columns(x=pl.col("i") * 1.5, y=pl.col("u") + 1, z=pl.col("s").str.len_chars(),
                               w=pl.col("i").cast(pl.Int16), c=pl.col("f") > 0).group_by("g").agg(
            pl.col("x").sum(), pl.col("y").mean(), pl.col("z").max(), pl.col("w").sum(), pl.col("c").sum(),
            n=pl.len())

    pdf, fdf = to_frames(frame)
    expected = query(pl, pdf.lazy()).collect_schema()
    got = query(fz, fdf.lazy()).collect_schema()
    assert list(got.names()) == list(expected.names())
    assert [str(d) for d in got.dtypes()] == [str(d) for d in expected.dtypes()]
    assert query(fz, fdf.lazy()).columns == query(pl, pdf.lazy()).collect_schema().names()
