"""LazyFrame input handling against Polars: `in` (with Polars' PerformanceWarning), filter
with iterators and generators of predicates or booleans, and the TypeError of a join with
something other than a LazyFrame."""
import warnings

import polars as pl
import pytest

import frazil as fz


def frame(m):
    return m.LazyFrame({"a": [1, 1, 1], "b": [1, 1, 2], "c": [3, 1, 2]})


PREDICATES = [
    lambda m: [m.lit(True)], lambda m: iter([m.lit(True)]), lambda m: [True, False, True],
    lambda m: iter([True, True, False]), lambda m: (p for p in (m.col("c") < 3,)),
    lambda m: (p for p in (m.col("a") > 0, m.col("b") > 1)),
]


@pytest.mark.parametrize("case", range(len(PREDICATES)))
def test_filter_with_iterables(case):
    assert frame(fz).filter(PREDICATES[case](fz)).collect().rows() == frame(pl).filter(PREDICATES[case](pl)).collect().rows()


def test_membership_warns_as_polars():
    def check(m):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            found = ("a" in frame(m), "zz" in frame(m))
        return found, [(type(w.message).__name__, str(w.message)) for w in caught]

    assert check(fz) == check(pl)
    assert issubclass(fz.exceptions.PerformanceWarning, fz.exceptions.PolarsWarning)


JOINS = {
    "join": lambda m, lf, other: lf.join(other, on="a"),
    "join_where": lambda m, lf, other: lf.join_where(other, m.col("a") > 1),
    "join_asof": lambda m, lf, other: lf.join_asof(other, on="a"),
}


@pytest.mark.parametrize("kind", list(JOINS))
def test_join_with_a_dataframe_is_polars_type_error(kind):
    def message(m):
        with pytest.raises(TypeError) as e:
            JOINS[kind](m, frame(m), frame(m).collect())
        return str(e.value)

    assert message(fz) == message(pl)


EDGES = [
    lambda m: m.DataFrame({"a": [1, 2], "b": [3, 4]}).select([]),
    lambda m: m.DataFrame({"a": [1, 2]}).lazy().select().collect(),
    lambda m: m.DataFrame({"a": [1, 2]}).select(m.lit(1)),
    lambda m: m.DataFrame({"a": [1, 2]}).with_columns(),
    lambda m: m.DataFrame({"a": [1, 2]}).lazy().select(m.len()).collect(),
    lambda m: m.DataFrame({"x": list("bab"), "y": range(3)}).group_by("x", maintain_order=True).len(name=""),
    lambda m: m.DataFrame({"x": list("bab")}).lazy().group_by("x").len(name="n").sort("x").collect(),
    lambda m: m.DataFrame({"x": list("bab")}).group_by("x", maintain_order=True).len(),
]


@pytest.mark.parametrize("case", range(len(EDGES)))
def test_empty_selection_and_len_names(case):
    def run(m):
        out = EDGES[case](m)
        return out.columns, [str(t) for t in out.dtypes], out.rows(), out.shape

    assert run(fz) == run(pl)


MAP_GROUPS = [
    (lambda m: (lambda d: d.select(m.col("v").sum(), m.col("g").first())), {"v": "Int64", "g": "Int64"}),
    (lambda m: (lambda d: d.tail(1)), None),
    (lambda m: (lambda d: d.head(1)), {"g": "Int64", "v": "Int64"}),
    (lambda m: (lambda d: d.with_columns((m.col("v") * 2).alias("w"))), {"g": "Int64", "v": "Int64", "w": "Int64"}),
]


@pytest.mark.parametrize("case", range(len(MAP_GROUPS)))
@pytest.mark.parametrize("rows", [0, 1, 5])
def test_lazy_group_by_map_groups(case, rows):
    def run(m):
        build, schema = MAP_GROUPS[case]
        schema = None if schema is None else {k: getattr(m, v) for k, v in schema.items()}
        lf = m.LazyFrame({"g": [1, 2, 1, None, 2][:rows], "v": [1, 2, 3, 4, None][:rows]},
                         schema={"g": m.Int64, "v": m.Int64})
        out = lf.group_by("g", maintain_order=True).map_groups(build(m), schema=schema)
        df = out.collect()
        return df.columns, [str(t) for t in df.dtypes], df.rows()

    assert run(fz) == run(pl)
