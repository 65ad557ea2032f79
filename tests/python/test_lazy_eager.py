"""frazil's eager DataFrame methods mirror the lazy ones: each runs as
`df.lazy().<op>(...).collect()`, and matches Polars' eager method."""
import datetime as dt
import math

import polars as pl
import pytest

import frazil as fz
from fuzz.harness import assert_frames_match, assert_same, to_frames

DATA = pl.DataFrame(
    {
        "k": ["a", "b", "a", None, "b", "c"],
        "v": [3, 1, None, 4, 1, 5],
        "f": [0.5, math.nan, -0.0, None, math.inf, 2.0],
        "d": [dt.date(2024, 1, 31), dt.date(2023, 12, 1), None, dt.date(2000, 2, 29), dt.date(1969, 7, 20),
              dt.date(2024, 6, 15)],
    }
)
OTHER = pl.DataFrame({"k": ["a", "c", "x"], "w": [10, 30, 99]})

def _same_kind(pl, df, data):
    """A frame of `data` that is lazy when `df` is."""
    out = pl.DataFrame(data)
    return out.lazy() if isinstance(df, pl.LazyFrame) else out


# (name, eager call on a DataFrame module-agnostically, whether Polars' row order is defined)
EAGER = [
    ("select", lambda pl, df: df.select("k", (pl.col("v") * 2).alias("v2"), n=pl.len()), True),
    ("with_columns", lambda pl, df: df.with_columns(pl.col("v").fill_null(0), w=pl.col("f").abs()), True),
    ("filter", lambda pl, df: df.filter(pl.col("v") > 1, pl.col("k") != "c"), True),
    ("filter_keyword", lambda pl, df: df.filter(k="a"), True),
    ("sort", lambda pl, df: df.sort("k", "v", descending=[True, False], nulls_last=True), True),
    ("sort_maintain", lambda pl, df: df.sort("v", maintain_order=True), True),
    ("group_by_agg", lambda pl, df: df.group_by("k", maintain_order=True).agg(pl.col("v").sum(), pl.len()), True),
    ("group_by_len", lambda pl, df: df.group_by("k").len(), False),
    ("group_by_mean", lambda pl, df: df.select("k", "v").group_by("k", maintain_order=True).mean(), True),
    ("join_left", lambda pl, df: df.join(_same_kind(pl, df, {"k": ["a", "c", "x"], "w": [10, 30, 99]}), on="k",
                                         how="left"), False),
    ("join_semi", lambda pl, df: df.join(_same_kind(pl, df, {"k": ["a", "c"]}), on="k", how="semi"), True),
    ("unique", lambda pl, df: df.unique(subset=["k"], keep="first", maintain_order=True), True),
    ("rename", lambda pl, df: df.rename({"k": "key"}), True),
    ("drop", lambda pl, df: df.drop("f", "d"), True),
    ("with_row_index", lambda pl, df: df.with_row_index("i", offset=1), True),
    ("head", lambda pl, df: df.head(2), True),
    ("tail", lambda pl, df: df.tail(2), True),
    ("head_negative", lambda pl, df: df.head(-2), True),
    ("tail_negative", lambda pl, df: df.tail(-4), True),
    ("slice", lambda pl, df: df.slice(1, 3), True),
    ("slice_negative", lambda pl, df: df.slice(-2), True),
    ("limit", lambda pl, df: df.limit(3), True),
    ("vstack", lambda pl, df: df.vstack(df.head(2)), True),
    ("concat", lambda pl, df: pl.concat([df, df.tail(1)]), True),
    ("dt_year", lambda pl, df: df.select(pl.col("d").dt.year(), pl.col("d").dt.month().alias("m")), True),
]


@pytest.mark.parametrize("build, ordered", [(b, o) for _, b, o in EAGER], ids=[n for n, _, _ in EAGER])
def test_eager_matches_polars_eager(build, ordered):
    pdf, fdf = to_frames(DATA)
    expected = build(pl, pdf)
    got = build(fz, fdf)
    assert isinstance(got, fz.DataFrame)
    assert_frames_match(got, expected, check_row_order=ordered)


@pytest.mark.parametrize("build, ordered", [(b, o) for _, b, o in EAGER if not _.startswith(("head_neg", "tail_neg",
                                                                                                  "vstack", "concat"))],
                         ids=[n for n, _, _ in EAGER if not n.startswith(("head_neg", "tail_neg", "vstack", "concat"))])
def test_eager_equals_lazy(build, ordered):
    # The same call through LazyFrame gives the same frame (the eager method is a lazy query).
    _, fdf = to_frames(DATA)
    eager = build(fz, fdf)
    lazy = build(fz, fdf.lazy())
    lazy = lazy.collect() if isinstance(lazy, fz.LazyFrame) else lazy
    assert_frames_match(eager, lazy.to_polars(), check_row_order=True)


def test_eager_group_by_object_methods():
    pdf, fdf = to_frames(DATA.select("k", "v"))
    for method in ("sum", "min", "max", "first", "last", "n_unique"):
        expected = getattr(pdf.group_by("k", maintain_order=True), method)()
        got = getattr(fdf.group_by("k", maintain_order=True), method)()
        assert_frames_match(got, expected)


def test_eager_errors_match_lazy():
    _, fdf = to_frames(DATA)
    with pytest.raises(fz.ColumnNotFoundError):
        fdf.select("nope")
    with pytest.raises(fz.ColumnNotFoundError):
        fdf.lazy().select("nope").collect()
    with pytest.raises(pl.exceptions.ColumnNotFoundError):
        DATA.select("nope")


def test_eager_concat_errors_match_polars():
    a, fa = to_frames({"a": [1]})
    b, fb = to_frames({"b": [1]})
    c, fc = to_frames({"a": [1.5]})
    for (p1, p2), (f1, f2) in [((a, b), (fa, fb)), ((a, c), (fa, fc))]:
        with pytest.raises(Exception) as pe:
            pl.concat([p1, p2])
        with pytest.raises(Exception) as fe:
            fz.concat([f1, f2])
        assert type(fe.value).__name__ == type(pe.value).__name__


def test_lazy_frame_constructor_and_properties():
    lf = fz.LazyFrame({"a": [1, 2], "b": ["x", "y"]})
    plf = pl.LazyFrame({"a": [1, 2], "b": ["x", "y"]})
    assert lf.columns == plf.collect_schema().names()
    assert lf.width == plf.collect_schema().len()
    assert_same(lambda pl, lf: lf, {"a": [1, 2], "b": ["x", "y"]})
