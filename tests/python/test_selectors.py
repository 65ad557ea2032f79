"""frazil.selectors against polars.selectors: every selector, set operations, selectors in
select/with_columns/group_by/sort/drop, expand_selector and is_selector."""
import datetime as dt

import polars as pl_
import polars.selectors as pcs
import pytest

import frazil
import frazil.selectors as fcs
from fuzz.harness import assert_same

DATA = {
    "i": [1, 2, 3], "u8": [1, 2, 3], "f": [1.0, None, 3.5], "s": ["x", "y", None], "b": [True, None, False],
    "d": [dt.date(2020, 1, 1), None, dt.date(2021, 1, 1)],
    "t": [dt.datetime(2020, 1, 1), None, dt.datetime(2021, 1, 1)],
    "dur": [dt.timedelta(1), None, dt.timedelta(2)],
    "abc": [1, 2, 3], "a1": ["p", "q", "r"], "123": [1, 1, 1], "x y": [0, 0, 0],
}
SCHEMA = {"u8": pl_.UInt8}

SELECTORS = [
    lambda cs: cs.numeric(), lambda cs: cs.integer(), lambda cs: cs.signed_integer(),
    lambda cs: cs.unsigned_integer(), lambda cs: cs.float(), lambda cs: cs.string(), lambda cs: cs.boolean(),
    lambda cs: cs.temporal(), lambda cs: cs.date(), lambda cs: cs.datetime(), lambda cs: cs.duration(),
    lambda cs: cs.by_name("s", "i"), lambda cs: cs.by_index(0, -1), lambda cs: cs.by_index(range(2)),
    lambda cs: cs.starts_with("a"), lambda cs: cs.ends_with("1", "c"), lambda cs: cs.contains("b"),
    lambda cs: cs.matches("^[a-z]$"), lambda cs: cs.first(), lambda cs: cs.last(), lambda cs: cs.all(),
    lambda cs: cs.alpha(), lambda cs: cs.alphanumeric(), lambda cs: cs.digit(),
    lambda cs: cs.alpha(ignore_spaces=True),
    lambda cs: cs.exclude("i", "s"), lambda cs: cs.by_dtype(pl_.Int64 if cs is pcs else frazil.Int64, frazil.String if cs is fcs else pl_.String),
    lambda cs: cs.numeric() | cs.string(), lambda cs: cs.numeric() & cs.starts_with("a"),
    lambda cs: cs.numeric() - cs.by_name("i"), lambda cs: ~cs.numeric(), lambda cs: cs.integer() ^ cs.starts_with("a"),
    lambda cs: cs.numeric().exclude("abc"),
]


def frames():
    pdf = pl_.DataFrame(DATA, schema_overrides=SCHEMA)
    return pdf, frazil.from_arrow(pdf.to_arrow())


@pytest.mark.parametrize("k", range(len(SELECTORS)))
def test_select(k):
    pdf, fdf = frames()
    exp = pdf.select(SELECTORS[k](pcs))
    got = fdf.select(SELECTORS[k](fcs))
    assert got.columns == exp.columns
    assert got.to_arrow().equals(exp.to_arrow())
    assert fcs.expand_selector(fdf, SELECTORS[k](fcs)) == pcs.expand_selector(pdf, SELECTORS[k](pcs))


def test_selector_expressions():
    sel = lambda pl: pl.selectors  # noqa: E731
    assert_same(lambda pl, lf: lf.select(cs_of(pl).numeric().sum()), DATA)
    assert_same(lambda pl, lf: lf.with_columns(cs_of(pl).numeric() * 2), DATA)
    assert_same(lambda pl, lf: lf.group_by(cs_of(pl).string()).agg(cs_of(pl).integer().sum()).sort("s"), DATA)
    assert_same(lambda pl, lf: lf.select(cs_of(pl).float().name.suffix("_f")), DATA)
    assert_same(lambda pl, lf: lf.sort(cs_of(pl).by_name("s"), nulls_last=True), DATA)
    del sel


def cs_of(pl):
    return pcs if pl is pl_ else fcs


def test_drop_and_struct_with_selector():
    pdf, fdf = frames()
    assert fdf.drop(fcs.numeric()).columns == pdf.drop(pcs.numeric()).columns
    assert fdf.select(frazil.struct(fcs.integer())).schema["i"].fields == \
        [frazil.Field(n, frazil.Int64 if n != "u8" else frazil.UInt8) for n in ("i", "u8", "abc", "123", "x y")]


def test_is_selector_and_repr():
    assert fcs.is_selector(fcs.numeric()) and not fcs.is_selector(frazil.col("a"))
    for k in (0, 27, 30):
        assert repr(SELECTORS[k](fcs)) == repr(SELECTORS[k](pcs))


def test_by_name_missing():
    _, fdf = frames()
    with pytest.raises(frazil.exceptions.ColumnNotFoundError):
        fdf.select(fcs.by_name("nope"))
    assert fdf.select(fcs.by_name("nope", "i", require_all=False)).columns == ["i"]
