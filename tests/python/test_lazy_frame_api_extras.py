"""LazyFrame/Schema API details against Polars: Schema.to_frame/to_python/equality/pickling and
fully-specified dtypes, LazyFrame.show delegating to DataFrame.show, rename(strict=False),
show_graph(plan_stage=...)."""
import pickle
from datetime import date, datetime, timedelta
from unittest.mock import patch

import polars
import pytest

import frazil as pl


@pytest.mark.parametrize("lib", [pl, polars])
def test_schema_parses_python_types_and_exports_them(lib):
    s = lib.Schema({"foo": lib.List(lib.Int32), "bar": int, "baz": lib.Enum(["n", "s"])})
    s["ham"] = datetime
    s["d"] = lib.Duration("ms")
    assert s["bar"] == lib.Int64 and s["ham"] == lib.Datetime("us")
    assert list(s.to_python().values()) == [list, int, str, datetime, timedelta]
    assert [t.to_python() for t in (lib.Date(), lib.Struct({"a": lib.Int8}), lib.Float32(), lib.Boolean(),
                                    lib.Binary(), lib.Categorical())] == [date, dict, float, bool, bytes, str]
    with pytest.raises(TypeError, match="dtypes must be fully-specified, got: List"):
        lib.Schema({"foo": lib.String, "bar": lib.List})
    assert pickle.loads(pickle.dumps(s)) == s


def test_schema_equality_is_exact_as_polars():
    cases = [
        ({"a": "Int64"}, {"a": "Int64"}),
        ({"a": "Datetime('us')"}, {"a": "Datetime"}),
        ({"a": "Datetime('us')"}, {"a": "Datetime('ns')"}),
        ({"a": "List(Int8)"}, {"a": "List"}),
        ({"a": "Int64", "b": "String"}, {"b": "String", "a": "Int64"}),
    ]
    for left, right in cases:
        answers = []
        for lib in (pl, polars):
            ev = {n: getattr(lib, n) for n in ("Int64", "Datetime", "List", "Int8", "String")}
            schema = lib.Schema({k: eval(v, ev) for k, v in left.items()})
            answers.append(schema == {k: eval(v, ev) for k, v in right.items()})
        assert answers[0] == answers[1], (left, right)


@pytest.mark.parametrize("lib", [pl, polars])
def test_schema_to_frame_is_an_empty_frame_of_it(lib):
    s = lib.Schema({"u": lib.UInt32(), "s": lib.Struct({"x": lib.Int64(), "y": lib.Float64()}), "d": lib.Date()})
    df = s.to_frame()
    assert df.shape == (0, 3) and df.schema == s
    assert s.to_frame(eager=False).collect_schema() == s


@pytest.mark.parametrize("lib", [pl, polars])
def test_lazy_show_is_the_dataframe_show_of_its_head(lib):
    lf = lib.LazyFrame({"a": [1, 2, None, 4]})
    with patch.object(lib.DataFrame, "show") as df_show:
        lf.show(3, tbl_cols=2)
    (limit,), kwargs = df_show.call_args
    assert limit == 3 and kwargs["tbl_cols"] == 2 and kwargs["trim_decimal_zeros"] is True
    assert set(kwargs) == {p for p in __import__("inspect").signature(lib.DataFrame.show).parameters
                           if p not in ("self", "limit")}
    with pytest.raises(ValueError):
        lf.show(limit=None)


def test_lazy_show_prints_the_first_rows(capsys):
    pl.LazyFrame({"a": [1, 2, 3]}).show(2)
    polars.LazyFrame({"a": [1, 2, 3]}).show(2)
    ours, theirs = capsys.readouterr().out.split("shape")[1:]
    assert ours == theirs


@pytest.mark.parametrize("mapping", [{"b": "a", "y": "x", "a": "b", "x": "y"}, {"NOT FOUND": "x"}, {}])
def test_rename_non_strict_skips_missing_names(mapping):
    out = pl.LazyFrame({"x": [1], "y": [2]}).rename(mapping, strict=False).collect()
    expected = polars.LazyFrame({"x": [1], "y": [2]}).rename(mapping, strict=False).collect()
    assert out.columns == expected.columns and out.rows() == expected.rows()
    with pytest.raises(pl.exceptions.ColumnNotFoundError):
        pl.LazyFrame({"x": [1]}).rename({"nope": "z"}).collect()


def test_show_graph_plan_stages():
    q = (pl.LazyFrame({"a": ["a", "b", "a"], "b": [1, 2, 3]}).group_by("a", maintain_order=True)
         .agg(pl.all().sum()).sort("a"))
    ir = q.show_graph(raw_output=True, plan_stage="ir")
    assert ir == q.show_graph(raw_output=True) == q.show_graph(raw_output=True, plan_stage="physical",
                                                               engine="in-memory")
    phys = q.show_graph(raw_output=True, plan_stage="physical", engine=pl.StreamingEngine())
    assert phys.startswith("graph") and "pipeline 0" in phys and "p1 -- p0" in phys and phys != ir
    with pytest.raises(TypeError, match="invalid plan stage 'invalid-stage'"):
        q.show_graph(raw_output=True, plan_stage="invalid-stage")


@pytest.mark.parametrize("prop", ["schema", "columns", "dtypes", "width"])
def test_schema_properties_warn_as_polars(prop):
    import warnings

    answers = []
    for lib in (pl, polars):
        lf = lib.LazyFrame({"foo": [1, None], "bar": [6.0, float("nan")], "ham": ["a", None]})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(lf, prop)
        assert [type(w.message).__name__ for w in caught] == ["PerformanceWarning"]
        answers.append((str(caught[0].message), str(value) if prop != "schema" else list(map(str, value.values()))))
    assert answers[0] == answers[1]


def test_schema_properties_read_inside_frazil_do_not_warn():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # match_to_schema and pivot read the input's schema themselves
        pl.LazyFrame({"a": [1]}).match_to_schema({"a": pl.Int64}).collect()
        pl.LazyFrame({"a": [1]}).collect_schema()


def test_lazy_init_signature_is_the_dataframes():
    import inspect

    assert inspect.signature(pl.LazyFrame.__init__) == inspect.signature(pl.DataFrame.__init__)
    lf = pl.LazyFrame({"a": [1, None]}, schema_overrides={"a": pl.Int8})
    assert lf.collect_schema() == {"a": pl.Int8}


@pytest.mark.parametrize("indices,null_on_oob", [([2, 0, -1], False), ([0, 0], False), ([], False),
                                                  ([5, None, 1], True), ([-4, 3], True)])
def test_gather_with_a_lazyframe_of_indices(indices, null_on_oob):
    outs = []
    for lib in (pl, polars):
        idx = lib.LazyFrame({"i": indices}, schema={"i": lib.Int64})
        frame = lib.LazyFrame({"a": [10, None, 30], "s": ["x", "y", None]})
        outs.append(frame.gather(idx, null_on_oob=null_on_oob).collect().rows())
    assert outs[0] == outs[1]


def test_gather_errors_as_polars():
    lf = pl.LazyFrame({"a": [1, 2]})
    with pytest.raises(pl.exceptions.OutOfBoundsError):
        lf.gather(pl.LazyFrame({"i": [2]})).collect()
    with pytest.raises(ValueError, match="one column"):
        lf.gather(pl.LazyFrame({"i": [0], "j": [1]}))


@pytest.mark.parametrize("lib", [pl, polars])
def test_match_to_schema_struct_fields(lib):
    df = lib.DataFrame({"a": [1, 2, 3], "b": [{"x": "A"}, None, {"x": None}]})
    target = {"a": lib.Int64, "b": lib.Struct({"x": lib.String, "y": lib.Datetime("us")})}
    with pytest.raises(lib.exceptions.SchemaError, match="missing struct field: y"):
        df.lazy().match_to_schema(target).collect()
    with pytest.raises(lib.exceptions.SchemaError):
        df.lazy().match_to_schema(target, missing_columns="insert").collect()
    out = df.lazy().match_to_schema(target, missing_struct_fields="insert").collect()
    assert out.to_dict(as_series=False) == {"a": [1, 2, 3], "b": [{"x": "A", "y": None}, None,
                                                                   {"x": None, "y": None}]}
    wide = out.lazy().match_to_schema({"a": lib.Int64, "b": lib.Struct({"x": lib.String})},
                                      extra_struct_fields="ignore").collect()
    assert wide.to_dict(as_series=False) == df.to_dict(as_series=False)
    with pytest.raises(lib.exceptions.SchemaError, match="extra struct field: y"):
        out.lazy().match_to_schema({"a": lib.Int64, "b": lib.Struct({"x": lib.String})}).collect()
    with pytest.raises(lib.exceptions.SchemaError, match='`match_to_schema`: "b"'):
        df.lazy().match_to_schema({"a": lib.Int64}).collect()


@pytest.mark.parametrize("kind", ["generator", "iterator"])
def test_select_and_with_columns_take_one_iterator_of_expressions(kind):
    outs = []
    for lib in (pl, polars):
        df = lib.DataFrame({"a": [1, None], "b": [0.5, -0.0]})
        items = [lib.col("a") * 2, lib.col("b").alias("c")]
        make = (lambda: (e for e in items)) if kind == "generator" else (lambda: iter(items))
        outs.append((df.with_columns(make()).rows(), df.lazy().select(make()).collect().rows()))
    assert str(outs[0]) == str(outs[1])


@pytest.mark.parametrize("lib", [pl, polars])
def test_a_dict_positional_is_refused_as_polars(lib):
    df = lib.DataFrame({"a": [1]})
    for method in ("with_columns", "select"):
        with pytest.raises(TypeError, match="Cannot pass a dictionary as a single positional argument"):
            getattr(df, method)({"a": lib.col("a") * 2})


@pytest.mark.parametrize("lib", [pl, polars])
def test_glimpse_return_as_string_was_removed(lib):
    with pytest.raises(lib.exceptions.ArgumentRemovedError, match="renamed to 'return_type'"):
        lib.DataFrame({"a": [1]}).glimpse(return_as_string=True)
    with pytest.raises(lib.exceptions.ArgumentRemovedError, match="'tree_format'"):
        lib.LazyFrame({"a": [1]}).explain(tree_format=True)
