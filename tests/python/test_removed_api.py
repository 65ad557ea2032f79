"""Names Polars 2.0 removed (frazil.removed_api): the same error type and message as Polars,
and a plain AttributeError for names that never existed."""
import polars as pl
import pytest

import frazil as fz
from frazil.removed_api import REMOVED

OBJECTS = {
    "DataFrame": lambda m: m.DataFrame({"a": [1]}),
    "LazyFrame": lambda m: m.LazyFrame({"a": [1]}),
    "Series": lambda m: m.Series("a", [1]),
    "Expr": lambda m: m.col("a"),
}


def _error(m, kind, name):
    try:
        getattr(OBJECTS[kind](m), name)
    except AttributeError as e:
        return type(e).__name__, str(e), isinstance(e, AttributeError)
    return None


@pytest.mark.parametrize("kind, name", [(k, n) for k, names in REMOVED.items() for n in names]
                         + [(k, "no_such_method") for k in OBJECTS] + [("LazyFrame", "profile")])
def test_removed_attribute_matches_polars(kind, name):
    if (kind, name) == ("LazyFrame", "profile"):  # frazil keeps profile(); Polars removed it
        assert callable(getattr(OBJECTS[kind](fz), name))
        return
    assert _error(fz, kind, name) == _error(pl, kind, name)


def test_removed_error_is_catchable_as_polars_names_it():
    with pytest.raises(fz.exceptions.AttributeRemovedError, match="use `filter` instead"):
        fz.col("a").where(True)
    assert not hasattr(fz.DataFrame(), "with_row_count")
