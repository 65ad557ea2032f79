"""describe, sample, update, to_dummies, is_duplicated/is_unique, corr, glimpse, gather,
match_to_schema, rows_by_key, map_rows and the Series methods of frame_misc, against Polars
(nulls, duplicates, empty frames)."""
import datetime
import math

import polars as pl
import pytest

import frazil as fz

D = {"a": [1, 2, None, 2], "b": ["x", "y", "x", "y"], "c": [1.5, None, 2.0, -1.0],
     "d": [datetime.date(2024, 1, i) for i in (1, 2, 3, 4)], "t": [True, False, None, True]}


def plain(x):
    if hasattr(x, "rows"):
        rows = [tuple(round(v, 9) if isinstance(v, float) and not math.isnan(v) else v for v in r) for r in x.rows()]
        return x.columns, [str(t) for t in x.dtypes], rows
    if hasattr(x, "to_list"):
        return x.name, str(x.dtype), x.to_list()
    return x


CASES = [
    lambda m: m.DataFrame(D).describe(),
    lambda m: m.DataFrame(D).describe(percentiles=[0.1, 0.9], interpolation="linear"),
    lambda m: m.DataFrame(D).lazy().describe(),
    lambda m: m.Series("s", [1, 2, None]).describe(),
    lambda m: m.DataFrame(D).is_duplicated(),
    lambda m: m.DataFrame({"a": [1, 1, 2], "b": [1, 1, 3]}).is_unique(),
    lambda m: m.DataFrame(D).gather([3, 0]),
    lambda m: m.DataFrame(D).lazy().gather([1]).collect(),
    lambda m: m.DataFrame(D).to_dummies(["a", "b"]),
    lambda m: m.DataFrame(D).to_dummies("b", drop_first=True),
    lambda m: m.DataFrame(D).to_dummies("a", drop_nulls=True, separator=":"),
    lambda m: m.Series("s", [3, 1, None, 1]).to_dummies(),
    lambda m: m.DataFrame(D).glimpse(return_type="string"),
    lambda m: m.DataFrame({"a": [1.0, 2, 3], "b": [2.0, 4, 7], "c": [3, 1, 2]}).corr(),
    lambda m: m.DataFrame({"k": [1, 2, 3], "v": [1, 2, 3]}).update(m.DataFrame({"k": [2, 3, 4], "v": [20, None, 40]}),
                                                                   on="k"),
    lambda m: m.DataFrame({"k": [1, 2, 3], "v": [1, 2, 3]}).update(m.DataFrame({"k": [2, 3, 4], "v": [20, None, 40]}),
                                                                   on="k", include_nulls=True),
    lambda m: m.DataFrame({"k": [1, 2, 3], "v": [1, 2, 3]}).update(m.DataFrame({"v": [20, None]})),
    lambda m: m.DataFrame({"k": [1, 2, 3], "v": [1, 2, 3]}).update(m.DataFrame({"k": [2, 3, 4], "v": [20, None, 40]}),
                                                                   on="k", how="inner"),
    lambda m: m.Series("s", [3, 1, None, 1]).value_counts(sort=True),
    lambda m: m.Series("s", [3, 1, None, 1]).value_counts(sort=True, normalize=True, name="p"),
    lambda m: m.Series("s", [3, 1, None, 1]).scatter([0, 2], [9, 8]),
    lambda m: m.Series("s", [3, 1, None, 1]).scatter(1, None),
    lambda m: m.Series("s", [3, 1, 300, 1]).shrink_dtype(),
    lambda m: m.Series("s", [3, -1, 30000, 1]).shrink_dtype(),
    lambda m: m.Series("s", [1, None, 3]).map_elements(lambda v: v * 2, return_dtype=m.Int64),
    lambda m: m.DataFrame({"a": [1, 2], "b": [3, 4]}).map_rows(lambda r: r[0] * 10 + r[1]),
    lambda m: m.DataFrame({"a": [1, 2], "b": [3, 4]}).match_to_schema({"b": m.Int64, "a": m.Int64}),
    lambda m: m.DataFrame({"a": [1, 2], "b": [3, 4]}).match_to_schema({"b": m.Int64, "a": m.Int64, "c": m.String},
                                                                       missing_columns="insert"),
    lambda m: m.DataFrame({"a": [1, 2], "b": [3, 4]}).match_to_schema({"a": m.Int64}, extra_columns="ignore"),
    lambda m: m.DataFrame({"a": [1, 2], "b": [3, 4]}).match_to_schema({"a": m.Int64}),
    lambda m: dict(m.DataFrame(D).rows_by_key("b")),
    lambda m: m.DataFrame(D).rows_by_key(["b", "t"], unique=True, named=True),
    lambda m: m.DataFrame(D).sample(2, seed=1).height,
    lambda m: m.DataFrame(D).sample(fraction=1.0, shuffle=True, seed=3).sort("d").rows(),
    lambda m: m.DataFrame(D).sample(10, with_replacement=True, seed=3).height,
    lambda m: m.DataFrame(D).sample(10),
    lambda m: m.DataFrame(D).is_sorted("d"),
    lambda m: m.DataFrame(D).is_sorted("b", "a"),
    lambda m: m.DataFrame({"b": [1, 1, 2], "a": [3, 1, 0]}).is_sorted("b", "a", descending=[False, True]),
    lambda m: m.DataFrame(D).map_columns("a", lambda s: s * 2),
    lambda m: m.Series("s", [1, 2, None, 4, 5]).rolling_map(lambda w: w.sum(), 2),
    lambda m: m.Series("s", [1.0, 2, 3, 4, 5]).rolling_map(lambda w: w.max(), 3, center=True, min_samples=1),
]


@pytest.mark.filterwarnings("ignore::polars.exceptions.PolarsInefficientMapWarning")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_matches_polars(case):
    def run(m):
        try:
            return plain(CASES[case](m))
        except Exception as e:  # noqa: BLE001 - both must fail alike
            return type(e).__name__

    assert run(fz) == run(pl)


def test_hash_rows_equal_rows_hash_alike():
    h = fz.DataFrame({"a": [1, 2, 1, None], "b": ["x", "y", "x", None]}).hash_rows()
    assert str(h.dtype) == "UInt64" and h[0] == h[2] and h[0] != h[1]


def test_estimated_size_and_batches():
    df = fz.DataFrame({"a": list(range(1000)), "b": [1.5] * 1000})
    assert df.estimated_size() >= 16_000 and df.estimated_size("kb") == df.estimated_size() / 1024
    assert [b.height for b in df.lazy().collect_batches(chunk_size=300)] == [300, 300, 300, 100]
    seen = []
    df.lazy().sink_batches(lambda b: seen.append(b.height), chunk_size=600)
    assert seen == [600, 400]
    import asyncio

    assert asyncio.run(_await(df.lazy().collect_async())).height == 1000


async def _await(x):
    return await x


def test_series_item_assignment_as_polars():
    for m in (fz, pl):
        s = m.Series("a", [1, 2, 3])
        s[0] = 10
        s[[1, 2]] = [5, 6]
        s[s > 5] = 0
        assert s.to_list() == [0, 5, 0]
        t = m.Series("s", ["x", "y", "z"])
        assert t.scatter([0, 2], 0.5).to_list() == ["0.5", "y", "0.5"]
    with pytest.raises(fz.exceptions.ComputeError, match="index values should not be null"):
        s = fz.Series("s", [1, 2, 3])
        s[[1, None]] = 5
    assert s.to_list() == [1, 2, 3]


def test_describe_thousands_separator_and_empty():
    df = {"n": list(range(2000)), "s": ["a"] * 2000}
    with fz.Config(thousands_separator=","):
        got = fz.DataFrame(df).describe()
    with pl.Config(thousands_separator=","):
        want = pl.DataFrame(df).describe()
    assert got.rows() == want.rows()
    with pytest.raises(TypeError, match="cannot describe a LazyFrame that has no columns"):
        fz.LazyFrame().describe()


def _sample_orders(m):
    """Whether each way of sampling gives rows in frame order (a property both engines share,
    whatever their random generators draw)."""
    df = m.DataFrame({"i": list(range(200))})
    s = df["i"]

    def ordered(values):
        return values == sorted(values)

    return [
        ordered(df.sample(300, with_replacement=True, seed=0)["i"].to_list()),
        ordered(df.sample(300, with_replacement=True, shuffle=False, seed=1)["i"].to_list()),
        ordered(df.sample(50, shuffle=False, seed=2)["i"].to_list()),
        ordered(df.sample(50, shuffle=True, seed=2)["i"].to_list()),
        ordered(s.sample(300, with_replacement=True, seed=3).to_list()),
        ordered(df.select(m.col("i").sample(300, with_replacement=True, seed=4))["i"].to_list()),
        ordered(df.select(m.col("i").sample(50, shuffle=False, seed=4))["i"].to_list()),
        ordered(df.select(m.col("i").sample(50, seed=4))["i"].to_list()),
        ordered(df.select(m.col("i").sample(300, with_replacement=True, shuffle=False, seed=4))["i"].to_list()),
        ordered(m.Series([list(range(200))]).list.sample(300, with_replacement=True, shuffle=False,
                                                          seed=5).to_list()[0]),
        ordered(m.Series([list(range(200))]).list.sample(300, with_replacement=True, seed=5).to_list()[0]),
        m.DataFrame({"a": m.Series([], dtype=m.Int64)}).sample(3, with_replacement=True).height,
        m.Series([], dtype=m.Int64).sample(3, with_replacement=True).len(),
        m.Series([[]], dtype=m.List(m.Int64)).list.sample(3, with_replacement=True).to_list(),
    ]


def test_sample_with_replacement_keeps_drawn_order():
    # Polars gives frame order only for shuffle=False; with the default (None) two samples
    # drawn with replacement and paired row by row must not both come sorted.
    assert _sample_orders(fz) == _sample_orders(pl)
