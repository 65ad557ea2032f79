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
