"""collect(engine=...): Polars' engine names are accepted (one executor serves them all), others refused."""
import pytest

import frazil as fz


@pytest.mark.parametrize("engine", ["auto", "in-memory", "streaming"])
def test_collect_engines_give_the_same_answer(engine):
    lf = fz.LazyFrame({"a": [3, 1, 2]}).sort("a")
    assert lf.collect(engine=engine).to_dict(as_series=False) == {"a": [1, 2, 3]}


def test_unknown_engine_is_an_error():
    with pytest.raises(ValueError, match="Invalid engine argument engine='nope'"):
        fz.LazyFrame({"a": [1]}).collect(engine="nope")
