"""Bad input raises the named frazil exception, with the column in the message."""
import polars as pl
import pyarrow as pa
import pytest

import frazil as fz
from frazil import exceptions as exc


def test_exception_hierarchy_mirrors_polars():
    names = ["ColumnNotFoundError", "SchemaError", "SchemaFieldNotFoundError", "InvalidOperationError",
             "ComputeError", "ShapeError", "DuplicateError", "OutOfBoundsError"]
    for name in names:
        ours = getattr(exc, name)
        theirs = getattr(pl.exceptions, name)
        assert [c.__name__ for c in ours.__mro__][1:] == ["FrazilError", "Exception", "BaseException", "object"]
        assert [c.__name__ for c in theirs.__mro__][1:] == ["PolarsError", "Exception", "BaseException", "object"]
        assert getattr(fz, name) is ours
    assert exc.PolarsError is exc.FrazilError


@pytest.mark.parametrize(
    "arr, fmt",
    [
        (pa.array([pa.scalar((1, 2, 3), pa.month_day_nano_interval())] * 2), "tin"),
        (pa.UnionArray.from_sparse(pa.array([0, 1], pa.int8()), [pa.array([1, 2]), pa.array(["a", "b"])]), "+us:0,1"),
        (pa.array([1, 2], pa.decimal256(40, 2)), "d:40,2,256"),
        (pa.RunEndEncodedArray.from_arrays([2], [7]), "+r"),
        (pa.array([[1], [2]], pa.list_view(pa.int64())), "+vl"),
    ],
)
def test_unsupported_arrow_types_raise_invalid_operation(arr, fmt):
    t = pa.table({"bad_col": arr, "ok": [1, 2]})
    with pytest.raises(fz.InvalidOperationError) as info:
        fz.from_arrow(t)
    msg = str(info.value)
    assert "'bad_col'" in msg
    assert f"'{fmt}'" in msg


def test_mismatched_lengths_raise_shape_error():
    with pytest.raises(fz.ShapeError, match="'b'"):
        fz.DataFrame({"a": [1, 2], "b": [1]})
    with pytest.raises(fz.ShapeError):
        fz.DataFrame([fz.Series("a", [1]), fz.Series("b", [1, 2])])
    # Polars says the same.
    with pytest.raises(pl.exceptions.ShapeError):
        pl.DataFrame({"a": [1, 2], "b": [1]})


def test_duplicate_names_raise_duplicate_error():
    with pytest.raises(fz.DuplicateError, match="'a'"):
        fz.DataFrame([fz.Series("a", [1]), fz.Series("a", [2])])
    t = pa.Table.from_arrays([pa.array([1]), pa.array([2])], names=["dup", "dup"])
    with pytest.raises(fz.DuplicateError, match="dup"):
        fz.from_arrow(t)


def _utf8_array(data: bytes, offsets):
    offsets_buf = pa.py_buffer(pa.array(offsets, pa.int32()).buffers()[1])
    return pa.Array.from_buffers(pa.string(), len(offsets) - 1, [None, offsets_buf, pa.py_buffer(data)])


def test_non_utf8_strings_raise_compute_error():
    bad = _utf8_array(b"ok\xc3\x28zz", [0, 2, 4, 6])
    with pytest.raises(fz.ComputeError, match="'name'"):
        fz.from_arrow(pa.table({"name": bad}))
    large = pa.Array.from_buffers(
        pa.large_string(), 1, [None, pa.py_buffer(pa.array([0, 2], pa.int64()).buffers()[1]), pa.py_buffer(b"\xff\xfe")]
    )
    with pytest.raises(fz.ComputeError, match="'big'"):
        fz.from_arrow(pa.table({"big": large}))
    # A binary column may hold any bytes.
    ok = pa.Array.from_buffers(pa.binary(), 1, [None, pa.py_buffer(pa.array([0, 2], pa.int32()).buffers()[1]), pa.py_buffer(b"\xff\xfe")])
    assert fz.from_arrow(pa.table({"b": ok}))["b"].to_list() == [b"\xff\xfe"]


def test_malformed_arrow_input_is_an_error_not_a_crash():
    # Offsets that decrease.
    bad = _utf8_array(b"abcdef", [0, 4, 2, 6])
    with pytest.raises(fz.ComputeError, match="'s'"):
        fz.from_arrow(pa.table({"s": bad}))
    # The same array on its own (as a Series) fails the same way.
    with pytest.raises(fz.ComputeError, match="offsets decrease"):
        fz.from_arrow(bad)


def test_missing_column_raises_column_not_found():
    df = fz.DataFrame({"a": [1]})
    with pytest.raises(fz.ColumnNotFoundError, match="nope"):
        df["nope"]
    with pytest.raises(fz.ColumnNotFoundError):
        df.get_column("nope")


def test_out_of_bounds():
    s = fz.Series("a", [1, 2])
    with pytest.raises(IndexError, match="index 5 is out of bounds for sequence of length 2"):
        s[5]  # Polars raises IndexError here
    with pytest.raises(ValueError, match="shape"):
        fz.DataFrame({"a": [1, 2]}).item()
