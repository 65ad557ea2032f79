"""Frame methods composed from select/filter/sort (python/frazil/frame_methods.py), against
Polars, eager and lazy, on nulls, NaN, -0.0, empty and one-row frames."""
import datetime
import math

import polars as pl
import pytest

import frazil as fz

FRAMES = {
    "mixed": {"a": [1, None, 3, 2], "b": [1.5, float("nan"), None, -0.0], "s": ["x", None, "z", "y"],
              "t": [True, False, None, True], "d": [datetime.date(2024, 1, i) for i in (1, 2, 3, 4)]},
    "one_row": {"a": [5], "b": [float("nan")], "s": ["q"], "t": [None], "d": [datetime.date(2020, 2, 29)]},
}
EMPTY = {"a": [], "b": []}

# (method, args, kwargs)
CASES = [
    ("sum", (), {}), ("mean", (), {}), ("median", (), {}), ("std", (), {}), ("var", (), {}), ("max", (), {}),
    ("min", (), {}), ("null_count", (), {}), ("count", (), {}), ("quantile", (0.5,), {}), ("reverse", (), {}),
    ("shift", (1,), {}), ("shift", (-2,), {}), ("drop_nans", (), {}), ("drop_nans", ("b",), {}),
    ("fill_nan", (0.0,), {}), ("fill_null", (0,), {}), ("fill_null", ("none",), {}),
    ("top_k", (2,), {"by": "a"}), ("bottom_k", (2,), {"by": "a"}), ("top_k", (3,), {"by": ["t", "a"]}),
    ("bottom_k", (2,), {"by": "s", "reverse": True}),
    ("unpivot", (), {"index": "s", "on": ["a", "b"]}), ("unpivot", (), {"on": ["a"], "variable_name": "k"}),
]


def normalized(rows):
    return [tuple("nan" if isinstance(v, float) and math.isnan(v) else v for v in r) for r in rows]


def same(got, want):
    assert got.columns == want.columns
    assert [str(t) for t in got.schema.values()] == [str(t) for t in want.schema.values()]
    assert normalized(got.rows()) == normalized(want.rows())


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("frame", sorted(FRAMES))
@pytest.mark.parametrize("method,args,kwargs", CASES, ids=[f"{c[0]}{i}" for i, c in enumerate(CASES)])
def test_frame_method_matches_polars(method, args, kwargs, frame, lazy):
    f, p = fz.DataFrame(FRAMES[frame]), pl.DataFrame(FRAMES[frame])
    if lazy:
        got = getattr(f.lazy(), method)(*args, **kwargs).collect()
        want = getattr(p.lazy(), method)(*args, **kwargs).collect()
    else:
        got, want = getattr(f, method)(*args, **kwargs), getattr(p, method)(*args, **kwargs)
    if lazy and method == "unpivot":  # Polars' lazy unpivot does not keep the eager row order
        got, want = got.sort(got.columns), want.sort(want.columns)
    same(got, want)


@pytest.mark.parametrize("method", ["sum", "mean", "max", "null_count", "reverse", "count"])
def test_empty_frame(method):
    same(getattr(fz.DataFrame(EMPTY, schema={"a": fz.Int64, "b": fz.Float64}), method)(),
         getattr(pl.DataFrame(EMPTY, schema={"a": pl.Int64, "b": pl.Float64}), method)())


def test_remove_keeps_rows_where_the_predicate_is_null():
    data = {"a": [1, None, 3, 2], "b": ["x", "y", None, "x"]}
    same(fz.DataFrame(data).remove(fz.col("a") > 1), pl.DataFrame(data).remove(pl.col("a") > 1))
    same(fz.DataFrame(data).remove(fz.col("a") > 1, b="x"), pl.DataFrame(data).remove(pl.col("a") > 1, b="x"))
    same(fz.DataFrame(data).lazy().remove(a=1).collect(), pl.DataFrame(data).lazy().remove(a=1).collect())


def test_dataframe_only_methods():
    data = {"a": [1, 2, 3], "b": [4, 5, 6]}
    f, p = fz.DataFrame(data), pl.DataFrame(data)
    same(f.transpose(include_header=True), p.transpose(include_header=True))
    same(f.transpose(), p.transpose())

    def names():
        i = 0
        while True:
            yield f"c{i}"
            i += 1

    same(f.transpose(column_names=names()), p.transpose(column_names=names()))
    same(f.transpose(include_header=True, header_name="h", column_names=["x", "y", "z"]),
         p.transpose(include_header=True, header_name="h", column_names=["x", "y", "z"]))
    assert f.get_column_index("b") == p.get_column_index("b") == 1
    with pytest.raises(fz.exceptions.ColumnNotFoundError):
        f.get_column_index("nope")
    f.insert_column(1, fz.Series("z", [7, 8, 9]))
    p.insert_column(1, pl.Series("z", [7, 8, 9]))
    same(f, p)
    assert f.drop_in_place("z").to_list() == p.drop_in_place("z").to_list() == [7, 8, 9]
    same(f, p)
    same(f.hstack([fz.Series("c", [0, 0, 0])]), p.hstack([pl.Series("c", [0, 0, 0])]))
    assert f.n_unique() == p.n_unique() == 3
    assert [x.rows() for x in fz.DataFrame({"k": [1, 2, 1, None]}).partition_by("k")] == [
        x.rows() for x in pl.DataFrame({"k": [1, 2, 1, None]}).partition_by("k", maintain_order=True)]
    assert [x.height for x in f.iter_slices(2)] == [2, 1]
    assert [s.name for s in f.iter_columns()] == ["a", "b"]
    assert f.fold(lambda x, y: x + y).to_list() == [5, 7, 9]
    assert f.to_numpy().tolist() == p.to_numpy().tolist()
    assert f.pipe(lambda d, n: d.head(n), 1).height == 1
    g = fz.DataFrame(data)
    g.extend(fz.DataFrame(data))
    assert g.height == 6
    assert fz.DataFrame(data).lazy().dtypes == [fz.Int64, fz.Int64]


CONCAT = [
    ("diagonal", [{"x": [1, 2], "y": ["a", "b"]}, {"x": [3], "z": [True]}]),
    ("diagonal_relaxed", [{"x": [1, 2], "y": ["a", "b"]}, {"x": [3.5], "z": [True]}]),
    ("vertical_relaxed", [{"x": [1], "y": [None]}, {"x": [2.5], "y": ["s"]}]),
    ("horizontal", [{"x": [1, 2]}, {"q": [None, 3]}]),
    ("horizontal_extend", [{"x": [1, 2]}, {"q": [1, 2, 3]}]),
    ("align", [{"x": [1, 2], "y": ["a", "b"]}, {"x": [1, 3], "w": [9, 8]}]),
    ("align_inner", [{"x": [1, 2], "y": ["a", "b"]}, {"x": [1, 3], "w": [9, 8]}]),
]


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize("how,frames", CONCAT, ids=[c[0] for c in CONCAT])
def test_concat_strategies_match_polars(how, frames, lazy):
    f, p = [fz.DataFrame(d) for d in frames], [pl.DataFrame(d) for d in frames]
    if lazy:
        same(fz.concat([x.lazy() for x in f], how=how).collect(), pl.concat([x.lazy() for x in p], how=how).collect())
    else:
        same(fz.concat(f, how=how), pl.concat(p, how=how))


def test_concat_errors_and_series():
    with pytest.raises(fz.exceptions.ShapeError, match="different heights"):
        fz.concat([fz.DataFrame({"a": [1, 2]}), fz.DataFrame({"b": [1]})], how="horizontal")
    with pytest.raises(fz.exceptions.DuplicateError, match="'a' has more than one occurrence"):
        fz.concat([fz.DataFrame({"a": [1]}), fz.DataFrame({"a": [1]})], how="horizontal")
    with pytest.raises(ValueError, match="`how` must be one of"):
        fz.concat([fz.DataFrame({"a": [1]})], how="nope")
    assert fz.concat([fz.Series("a", [1]), fz.Series("a", [2, None])]).to_list() == [1, 2, None]


def test_vstack_onto_a_frame_of_no_columns_takes_the_other():
    for m in (pl, fz):
        empty, df = m.DataFrame(), m.DataFrame({"a": [1, None], "b": ["x", "y"]})
        assert empty.vstack(df).to_dict(as_series=False) == {"a": [1, None], "b": ["x", "y"]}
        assert m.concat([empty, empty, df]).shape == (2, 2)
        with pytest.raises(m.exceptions.ShapeError):
            df.vstack(empty)


def test_series_as_an_expression_keeps_its_name_and_dtype():
    def q(m):
        s = m.Series("a", [1, None, 3], dtype=m.Int8)
        return m.DataFrame({"x": [1, 2, 3]}).select(s, m.lit(s).alias("b"), m.col("x") + s,
                                                    m.select(s).to_series().alias("c"))
    assert q(fz).to_dict(as_series=False) == q(pl).to_dict(as_series=False)
    assert [str(t) for t in q(fz).dtypes] == [str(t) for t in q(pl).dtypes]
