"""DataFrame.serialize/deserialize (binary and JSON, bytes/str, file objects, paths),
pickling of frames and Series, and to_init_repr as Polars prints it."""
import datetime
import io
import pickle

import polars as pl
import pytest

import frazil as fz

DATA = {"a": [1, None, 3], "f": [1.5, float("nan"), None], "s": ["x", None, "z"], "b": [True, None, False],
        "d": [datetime.date(2020, 1, 1), None, datetime.date(1969, 12, 31)],
        "t": [datetime.datetime(2020, 1, 1, 12), None, datetime.datetime(1, 1, 1)]}


@pytest.mark.parametrize("fmt", ["binary", "json"])
def test_round_trips(fmt, tmp_path):
    df = fz.DataFrame(DATA)
    out = df.serialize(format=fmt)
    assert isinstance(out, bytes if fmt == "binary" else str)
    source = io.BytesIO(out) if fmt == "binary" else io.StringIO(out)
    assert fz.DataFrame.deserialize(source, format=fmt).equals(df)
    buf = io.BytesIO()
    df.serialize(buf, format=fmt)
    buf.seek(0)
    assert fz.DataFrame.deserialize(buf, format=fmt).equals(df)
    path = tmp_path / "frame.bin"
    df.serialize(path, format=fmt)
    assert fz.DataFrame.deserialize(path, format=fmt).equals(df)
    empty = fz.DataFrame({"a": []}, schema={"a": fz.Int32})
    assert fz.DataFrame.deserialize(empty.serialize(format=fmt), format=fmt).schema == empty.schema


def test_pickle_and_errors():
    df = fz.DataFrame(DATA)
    assert pickle.loads(pickle.dumps(df)).equals(df)
    s = pickle.loads(pickle.dumps(df["s"]))
    assert s.name == "s" and s.to_list() == ["x", None, "z"]
    with pytest.raises(fz.exceptions.ComputeError):
        fz.DataFrame.deserialize(io.StringIO('{"x": 1}'), format="json")
    with pytest.raises(ValueError):
        df.serialize(format="xml")


def test_to_init_repr_as_polars():
    data = {k: v for k, v in DATA.items() if k != "f"}
    assert fz.DataFrame(data).to_init_repr() == pl.DataFrame(data).to_init_repr()
    assert fz.Series("x", [1.5, None]).to_init_repr() == pl.Series("x", [1.5, None]).to_init_repr()
