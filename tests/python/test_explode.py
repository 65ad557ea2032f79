"""explode: LazyFrame.explode / DataFrame.explode / Expr.explode against Polars (names,
dtypes, values, nulls, row order), with every optimization off and each pushdown off on its
own giving the same frame, and the plans' shapes around pushdown."""
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import frazil as fz

NONE = fz.QueryOptFlags.none()
EACH_OFF = [fz.QueryOptFlags(**{name: False})
            for name in ("predicate_pushdown", "projection_pushdown", "slice_pushdown", "simplify_expression")]

DATA = {
    "k": [1, 2, 3, 4, 5, 6],
    "s": ["x", "y", None, "x", "z", "y"],
    "ints": [[1, 2], [], None, [3], [None, 4, 5], [6]],
    "floats": [[1.5, None], [], None, [2.5], [3.0, float("nan"), -0.0], [4.0]],
    "strs": [["a", "a string longer than twelve bytes"], [], None, [None], ["b", "c", "d"], [""]],
}
SCHEMA = {"k": pl.Int64, "s": pl.String, "ints": pl.List(pl.Int64), "floats": pl.List(pl.Float64),
          "strs": pl.List(pl.String)}


def frames(data=DATA, schema=SCHEMA):
    p = pl.DataFrame(data, schema=schema)
    return p, fz.DataFrame(p)


def check(query, data=DATA, schema=SCHEMA, plan=(), absent=()):
    """Runs `query(pl, lazy_frame)` in both engines; returns frazil's optimized plan."""
    p, f = frames(data, schema)
    q = query(fz, f.lazy())
    got = q.collect()
    expected = query(pl, p.lazy()).collect()
    assert_frame_equal(got.to_polars(), expected)
    for flags in [NONE, *EACH_OFF]:
        assert_frame_equal(q.collect(optimizations=flags).to_polars(), expected)
    text = q.explain()
    for fragment in plan:
        assert fragment in text, f"{fragment!r} not in\n{text}"
    for fragment in absent:
        assert fragment not in text, f"{fragment!r} in\n{text}"
    return text


# ---- one column, each inner dtype ----

@pytest.mark.parametrize("column", ["ints", "floats", "strs"])
def test_one_column(column):
    check(lambda pl, lf: lf.explode(column))


@pytest.mark.parametrize("empty_as_null", [False, True])
@pytest.mark.parametrize("keep_nulls", [False, True])
@pytest.mark.parametrize("column", ["ints", "strs"])
def test_empty_and_null_list_options(column, empty_as_null, keep_nulls):
    check(lambda pl, lf: lf.explode(column, empty_as_null=empty_as_null, keep_nulls=keep_nulls))


def test_list_of_struct():
    data = {"k": [1, 2, 3, 4], "a": [[{"x": 1, "y": "p"}], [], None, [{"x": None, "y": "q"}, None]]}
    schema = {"k": pl.Int64, "a": pl.List(pl.Struct({"x": pl.Int64, "y": pl.String}))}
    check(lambda pl, lf: lf.explode("a"), data, schema)


def test_list_of_lists_explodes_one_level():
    data = {"a": [[[1, 2], None, []], [], None, [[3]]]}
    check(lambda pl, lf: lf.explode("a"), data, {"a": pl.List(pl.List(pl.Int64))})
    check(lambda pl, lf: lf.explode("a").explode("a"), data, {"a": pl.List(pl.List(pl.Int64))})


def test_temporal_and_boolean_inner_types():
    import datetime as dt

    data = {"d": [[dt.date(2020, 1, 1), None], [], [dt.date(1999, 12, 31)]], "b": [[True, None], [], [False]]}
    check(lambda pl, lf: lf.explode("d", "b"), data, {"d": pl.List(pl.Date), "b": pl.List(pl.Boolean)})


# ---- frame shapes ----

def test_empty_frame():
    check(lambda pl, lf: lf.explode("ints"), {n: [] for n in DATA}, SCHEMA)
    check(lambda pl, lf: lf.explode("ints").select("k"), {n: [] for n in DATA}, SCHEMA)


def test_one_row():
    for value in ([7, 8, 9], [], None):
        check(lambda pl, lf: lf.explode("ints"), {"k": [1], "ints": [value]}, {"k": pl.Int64, "ints": pl.List(pl.Int64)})


def test_all_lists_empty_or_null():
    data = {"k": [1, 2, 3], "ints": [[], None, []]}
    schema = {"k": pl.Int64, "ints": pl.List(pl.Int64)}
    check(lambda pl, lf: lf.explode("ints"), data, schema)
    check(lambda pl, lf: lf.explode("ints", keep_nulls=False), data, schema)


def test_many_morsels_keep_row_order(monkeypatch):
    monkeypatch.setenv("FRAZIL_MORSEL_SIZE", "3")
    n = 50
    data = {"k": list(range(n)), "ints": [list(range(i % 4)) if i % 7 else None for i in range(n)]}
    schema = {"k": pl.Int64, "ints": pl.List(pl.Int64)}
    check(lambda pl, lf: lf.explode("ints"), data, schema)
    check(lambda pl, lf: lf.with_columns(j=pl.col("k") * 2).explode("ints").filter(pl.col("k") > 10), data, schema)


# ---- several columns ----

def test_multiple_columns_together():
    data = {"k": [1, 2, 3, 4], "a": [[1, 2], [], None, [3]], "b": [["p", "q"], [], None, [None]]}
    schema = {"k": pl.Int64, "a": pl.List(pl.Int64), "b": pl.List(pl.String)}
    check(lambda pl, lf: lf.explode("a", "b"), data, schema)
    check(lambda pl, lf: lf.explode(["a", "b"]), data, schema)
    check(lambda pl, lf: lf.explode(["b"], "a"), data, schema)
    check(lambda pl, lf: lf.explode(pl.col("a", "b")), data, schema)
    check(lambda pl, lf: lf.explode("a", "b", empty_as_null=True), data, schema)


def test_mismatched_lengths_is_a_shape_error_naming_the_columns():
    f = fz.DataFrame({"a": [[1, 2], [3]], "b": [[1], [2]]})
    with pytest.raises(fz.ShapeError, match='"a".*"b"'):
        f.explode("a", "b")
    with pytest.raises(pl.exceptions.ShapeError):
        f.to_polars().explode("a", "b")
    # A null list against an empty one: both have no elements, but they give 1 and 0 rows.
    g = fz.DataFrame(pl.DataFrame({"a": [None], "b": [[]]}, schema={"a": pl.List(pl.Int64), "b": pl.List(pl.Int64)}))
    with pytest.raises(fz.ShapeError, match="null list"):
        g.explode("a", "b")
    assert_frame_equal(g.explode("a", "b", empty_as_null=True).to_polars(),
                       g.to_polars().explode("a", "b", empty_as_null=True))


def test_errors():
    _, f = frames()
    with pytest.raises(fz.InvalidOperationError, match="`explode` operation not supported for dtype `str`"):
        f.explode("s")
    with pytest.raises(fz.InvalidOperationError, match="no columns"):
        f.explode([])
    with pytest.raises(fz.ColumnNotFoundError):
        f.lazy().explode("nope").collect_schema()
    with pytest.raises(TypeError):
        f.explode(3)


def test_schema():
    _, f = frames()
    p, _ = frames()
    lf = f.lazy().explode("ints", "strs")
    assert lf.collect_schema() == fz.Schema({"k": fz.Int64, "s": fz.String, "ints": fz.Int64,
                                             "floats": fz.List(fz.Float64), "strs": fz.String})
    assert [str(t) for t in lf.collect_schema().dtypes()] == \
        [str(t) for t in p.lazy().explode("ints", "strs").collect_schema().dtypes()]


def test_eager_and_lazy_agree():
    p, f = frames()
    assert_frame_equal(f.explode("ints").to_polars(), p.explode("ints"))
    assert_frame_equal(f.explode("strs").to_polars(), p.explode("strs"))


# ---- after group_by ----

GROUPS = {"g": ["a", "b", "a", "c", "b", "a", "c", "d"], "v": [5.0, None, 3.0, 1.0, 7.0, 9.0, None, None],
          "w": [1, 2, 3, 4, 5, 6, 7, 8]}
GROUPS_SCHEMA = {"g": pl.String, "v": pl.Float64, "w": pl.Int64}


def test_explode_after_group_by_implode():
    check(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(pl.col("v"), pl.col("w")).explode("v", "w"),
          GROUPS, GROUPS_SCHEMA)
    check(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(pl.col("v")).explode("v").filter(pl.col("v") > 2),
          GROUPS, GROUPS_SCHEMA)


def test_explode_after_group_by_top_k():
    # top_k gives each group's values in no particular order (in Polars too): sorted after.
    check(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(pl.col("w").top_k(2).alias("top"))
          .explode("top").sort("g", "top"), GROUPS, GROUPS_SCHEMA)
    check(lambda pl, lf: lf.group_by("g", maintain_order=True).agg(pl.col("v").top_k(3).alias("top"), pl.len())
          .explode("top").sort("g", "top", nulls_last=True), GROUPS, GROUPS_SCHEMA)
    # The H2O question 8 shape (groups in any order: sorted after).
    check(lambda pl, lf: lf.drop_nulls("v").group_by("g").agg(pl.col("v").top_k(2).alias("largest2_v"))
          .explode("largest2_v").sort("g", "largest2_v"), GROUPS, GROUPS_SCHEMA)


def test_top_k_in_agg_is_a_list_column():
    f = fz.DataFrame(GROUPS)
    schema = f.lazy().group_by("g").agg(fz.col("v").top_k(2)).collect_schema()
    assert schema["v"] == fz.List(fz.Float64)


def test_h2o_question_8_runs():
    import importlib.util
    import pathlib
    import sys

    path = pathlib.Path(__file__).resolve().parents[2] / "bench" / "h2o" / "queries.py"
    spec = importlib.util.spec_from_file_location("h2o_queries", path)
    queries = importlib.util.module_from_spec(spec)
    sys.modules["h2o_queries"] = queries  # dataclasses look their module up
    spec.loader.exec_module(queries)
    q8 = next(q for q in queries.GROUPBY if q.n == 8)
    data = {"id6": [1, 2, 1, 2, 3, 1, 3], "v3": [1.5, None, 3.0, 2.0, 8.0, 0.5, 8.0]}
    got = q8.frame(fz, {"x": fz.DataFrame(data).lazy()}).sort("id6", "largest2_v3").collect()
    expected = q8.frame(pl, {"x": pl.DataFrame(data).lazy()}).sort("id6", "largest2_v3").collect()
    assert_frame_equal(got.to_polars(), expected)


# ---- pushdown around explode ----

def test_filter_on_an_exploded_column_stays_above():
    check(lambda pl, lf: lf.explode("ints").filter(pl.col("ints") > 2),
          plan=['FILTER col("ints") > 2\nFROM\n  EXPLODE ["ints"]'], absent=["SELECTION"])


def test_filter_on_another_column_goes_below():
    check(lambda pl, lf: lf.explode("ints").filter(pl.col("s") == "x"),
          plan=['EXPLODE ["ints"]', 'SELECTION: col("s") == "x"'], absent=["FILTER"])


def test_mixed_filter_splits():
    check(lambda pl, lf: lf.explode("ints").filter((pl.col("ints") > 2) & (pl.col("k") < 5)),
          plan=['FILTER col("ints") > 2\nFROM\n  EXPLODE', 'SELECTION: col("k") < 5'])


def test_filter_on_both_columns_stays_above():
    check(lambda pl, lf: lf.explode("ints").filter(pl.col("ints") > pl.col("k")),
          plan=['FILTER col("ints") > col("k")\nFROM\n  EXPLODE'], absent=["SELECTION"])


def test_filter_on_the_second_exploded_column_stays_above():
    check(lambda pl, lf: lf.explode("ints", "floats").filter(pl.col("floats") > 1.0),
          plan=['FILTER col("floats") > 1.0\nFROM\n  EXPLODE'], absent=["SELECTION"])


def test_fallible_filter_stays_above():
    # "x" does not parse as an integer: the row with an empty list (no exploded row) must not
    # make the query fail.
    data = {"k": ["1", "x"], "ints": [[1], []]}
    schema = {"k": pl.String, "ints": pl.List(pl.Int64)}
    check(lambda pl, lf: lf.explode("ints").filter(pl.col("k").cast(pl.Int64) > 0), data, schema,
          plan=['FILTER', 'EXPLODE'], absent=["SELECTION"])


def test_filter_before_explode_is_kept_below():
    check(lambda pl, lf: lf.filter(pl.col("ints").is_not_null()).explode("ints").filter(pl.col("ints") != 4))


def test_projection_keeps_the_exploded_column():
    # Only k is selected, but the exploded column decides how many rows there are.
    check(lambda pl, lf: lf.explode("ints").select("k"), plan=['PROJECT["k", "ints"] 2/5 COLUMNS'])
    check(lambda pl, lf: lf.explode("ints").select("ints"), plan=['PROJECT["ints"] 1/5 COLUMNS'])
    check(lambda pl, lf: lf.explode("ints").select(pl.len()))
    check(lambda pl, lf: lf.explode("ints", "strs").select(pl.col("s").alias("t")))


def test_slice_is_not_pushed_below():
    check(lambda pl, lf: lf.explode("ints").head(3), plan=['SLICE'])
    check(lambda pl, lf: lf.explode("ints").tail(2))
    check(lambda pl, lf: lf.explode("ints").slice(1, 2).select("k"))


def test_explode_with_other_operations():
    check(lambda pl, lf: lf.with_row_index("i").explode("strs").sort("strs", "i", nulls_last=True))
    check(lambda pl, lf: lf.explode("ints").group_by("s", maintain_order=True).agg(pl.col("ints").sum()))
    check(lambda pl, lf: lf.explode("ints").unique(maintain_order=True, subset=["ints"]).select("ints"))
    check(lambda pl, lf: lf.rename({"ints": "i"}).explode("i").with_columns(d=pl.col("i") * 2))
    check(lambda pl, lf: pl.concat([lf.explode("ints"), lf.explode("ints")]).filter(pl.col("s") != "y"))


def test_explode_of_a_join_result():
    right = fz.DataFrame({"s": ["x", "y"], "extra": [[10], [20, 30]]})
    p_right = right.to_polars()
    p, f = frames()
    got = f.lazy().join(right.lazy(), on="s").explode("extra").filter(fz.col("k") > 1)
    expected = p.lazy().join(p_right.lazy(), on="s").explode("extra").filter(pl.col("k") > 1).collect()
    assert_frame_equal(got.collect().to_polars(), expected, check_row_order=False)


def test_common_subplans_keep_their_options():
    # Two explodes of one input that differ only in their options are not one subplan.
    check(lambda pl, lf: pl.concat([lf.explode("ints"), lf.explode("ints", empty_as_null=True)]))


# ---- Expr.explode ----

def test_expr_explode_in_select():
    check(lambda pl, lf: lf.select(pl.col("ints").explode()))
    check(lambda pl, lf: lf.select(pl.col("strs").explode(empty_as_null=True, keep_nulls=False)))
    check(lambda pl, lf: lf.select(pl.col("ints").explode().sum(), pl.col("floats").explode().max()))
    check(lambda pl, lf: lf.select(pl.col("ints").explode().alias("x")).filter(pl.col("x") > 1))


def test_expr_explode_of_a_non_list_is_the_column():
    check(lambda pl, lf: lf.select(pl.col("k").explode(), pl.col("s").explode()))


def test_expr_explode_in_agg():
    check(lambda pl, lf: lf.group_by("s", maintain_order=True).agg(pl.col("ints").explode()))


def test_shared_explode_under_one_filter():
    # Both union arms are one subplan with the same filter pushed into each: the cache
    # reconciliation folded an empty list of leftover conjuncts (a crash, before explode too).
    check(lambda pl, lf: pl.concat([lf.explode("ints"), lf.explode("ints")]).filter(pl.col("s") != "y"))
    check(lambda pl, lf: pl.concat([lf.with_columns(z=pl.col("k") + 1)] * 2).filter(pl.col("s") != "y"))
