"""pl.Categories, differential against Polars for the global categories (the only ones frazil
has): lookups both ways, iteration, equality, hashing, pickling, and Categorical(Categories());
named and random categories can be built and used in a Categorical (its strings go to the
global mapping), but reading their own mapping is a clear InvalidOperationError in frazil."""
import pickle

import polars as pl
import pytest

import frazil as fz

VALUES = ["nested_cats_foo", "nested_cats_bar", None, "nested_cats_moo", "nested_cats_bar"]


@pytest.mark.parametrize("chunks", [1, 2])
def test_global_lookups_match_the_codes(chunks):
    for m in (pl, fz):
        cats = m.Categories()
        s = m.Series("x", VALUES, dtype=m.Categorical(cats))
        if chunks == 2:
            s = s.head(2).append(s.tail(3))
        codes = s.cat.physical().to_list()
        assert [None if v is None else cats[v] for v in VALUES] == codes
        assert [None if c is None else cats[c] for c in codes] == VALUES
        assert set(VALUES[:2]) <= set(cats) and "nested_cats_moo" in cats and cats.to_dict()["nested_cats_moo"] == codes[3]


def test_attributes_equality_and_pickle():
    for m in (pl, fz):
        c = m.Categories()
        assert (c.name(), c.namespace(), c.physical(), c.is_global()) == ("", "", m.UInt32, True)
        assert c == m.Categories(None) and hash(c) == hash(m.Categories())
        assert pickle.loads(pickle.dumps(c)) == c
        assert m.Categorical(c) == m.Categorical and m.Categorical().categories == c
        assert repr(c) == "Categories()"


def test_lookup_errors_match_polars():
    for key, error in [("nested_cats_never_seen", KeyError), (10**9, IndexError), (1.5, TypeError)]:
        for m in (pl, fz):
            with pytest.raises(error):
                m.Categories()[key]
    for m in (pl, fz):
        with pytest.raises(AssertionError):
            m.Categories("", "ns")


def test_named_categories_are_built_but_their_mapping_is_refused():
    for m in (pl, fz):
        named, rand = m.Categories("fruit", "ns"), m.Categories.random()
        assert (named.name(), named.namespace(), named.is_global()) == ("fruit", "ns", False)
        assert not rand.is_global() and rand != m.Categories.random() and rand == pickle.loads(pickle.dumps(rand))
        assert named == m.Categories("fruit", "ns") and named != m.Categories("fruit")
        # Values cast to a Categorical over them are the same strings.
        s = m.Series("x", VALUES).cast(m.Categorical(rand))
        assert s.to_list() == VALUES
    with pytest.raises(fz.exceptions.InvalidOperationError, match="only the global categories"):
        fz.Categories("fruit")["apple"]
    with pytest.raises(fz.exceptions.InvalidOperationError, match="only the global categories"):
        list(fz.Categories.random())



def test_narrow_codes_are_built_and_compared_but_not_used_for_data():
    for m in (pl, fz):
        narrow = m.Categories("fruit", "ns", m.UInt8)
        assert narrow.physical() == m.UInt8 and m.Categories("fruit").physical() == m.UInt32
        assert narrow == m.Categories("fruit", "ns", m.UInt8) and narrow != m.Categories("fruit", "ns")
        assert hash(narrow) == hash(m.Categories("fruit", "ns", m.UInt8))
        again = pickle.loads(pickle.dumps(narrow))
        assert (again.name(), again.namespace(), again.physical()) == ("fruit", "ns", m.UInt8)
        with pytest.raises(TypeError, match=r"must be one of pl.UInt\(8\|16\|32\)"):
            m.Categories("fruit", physical=m.Int64)
    # frazil's codes are UInt32: a Categorical over narrower ones is refused, not narrowed.
    with pytest.raises(fz.exceptions.InvalidOperationError, match="UInt32 codes"):
        fz.Categorical(fz.Categories("fruit", physical=fz.UInt8))
