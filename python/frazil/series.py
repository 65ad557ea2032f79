"""Series: one named column (a chunked Arrow-layout array), as Polars' Series. Most methods
are the expressions of the same name run over the column (series_dispatch)."""
from __future__ import annotations

from frazil import _convert, _frazil
from frazil.series_dispatch import SeriesNameSpace, apply_expression
from frazil.datatypes import DataType, from_native
from frazil import datatypes as _dt


class Series:
    """A named column of one dtype, as Polars' Series.

    ``Series(name, values, dtype=None)``; ``Series(values)`` gets the name "".
    """

    def __init__(self, name=None, values=None, dtype=None, *, strict: bool = True, nan_to_null: bool = False):
        if values is None and name is not None and not isinstance(name, str):
            name, values = "", name
        name = "" if name is None else name
        values = [] if values is None else values
        if dtype is _dt.Unknown or isinstance(dtype, _dt.Unknown):
            dtype = None  # Polars: Unknown means infer
        dtype = _convert.zone_for_aware_datetimes(values, dtype)
        try:
            self._col = _convert.column_from_values(name, values, dtype)
        except Exception:
            if strict or dtype is None:
                raise
            # strict=False: values that do not fit the dtype become null (Polars).
            self._col = _convert.column_from_values(name, values, None)
            self._col = self.cast(dtype, strict=False)._col
        # Polars applies nan_to_null to NumPy input only.
        if nan_to_null and _convert.is_numpy_array(values) and self.dtype.is_float():
            self._col = self.fill_nan(None)._col

    def __getattr__(self, name: str):
        # Only reached for a name the class lacks: Polars' notice for one it removed.
        from frazil.removed_api import missing_attribute

        missing_attribute(self, "Series", name)

    @classmethod
    def _from_native(cls, col) -> Series:
        s = cls.__new__(cls)
        s._col = col
        return s

    @property
    def name(self) -> str:
        """The series' name."""
        return self._col.name

    @property
    def dtype(self) -> DataType:
        """The series' data type."""
        return from_native(self._col.dtype)

    @property
    def shape(self) -> tuple[int]:
        """(length,)."""
        return (len(self._col),)

    def __len__(self) -> int:
        return len(self._col)

    def len(self) -> int:
        """The number of values, nulls included."""
        return len(self._col)

    def null_count(self) -> int:
        """The number of null values."""
        return self._col.null_count()

    def n_chunks(self) -> int:
        """How many contiguous chunks hold the values."""
        return self._col.n_chunks()

    def to_list(self) -> list:
        """The values as a Python list (None for nulls)."""
        return self._col.to_list()

    def rename(self, name: str) -> Series:
        """The same values under another name."""
        return Series._from_native(self._col.rename(name))

    alias = rename

    def head(self, n: int = 10) -> Series:
        """The first n values."""
        n = max(0, min(n, len(self))) if n >= 0 else max(0, len(self) + n)
        return Series._from_native(self._col.slice(0, n))

    def tail(self, n: int = 10) -> Series:
        """The last n values (negative n: all but the first -n)."""
        h = len(self)
        n = max(0, min(n, h)) if n >= 0 else max(0, h + n)
        return Series._from_native(self._col.slice(h - n, n))

    def sort(self, *, descending: bool = False, nulls_last: bool = False, multithreaded: bool = True,
             in_place: bool = False) -> Series:
        """The values sorted (in_place=True sorts this series and returns it)."""
        out = apply_expression(self, lambda e: e.sort(descending=descending, nulls_last=nulls_last))
        if in_place:
            self._col = out._col
            return self
        return out

    def slice(self, offset: int, length: int | None = None) -> Series:
        """length values starting at offset."""
        h = len(self)
        if offset < 0:
            offset = max(0, h + offset)
        offset = min(offset, h)
        length = h - offset if length is None else max(0, min(length, h - offset))
        return Series._from_native(self._col.slice(offset, length))

    def item(self, index: int | None = None):
        """The one value of a series of length one, or the value at index."""
        if index is None:
            if len(self) != 1:
                raise ValueError(
                    f"can only call '.item()' if the Series is of length 1, or an explicit index "
                    f"is provided (Series is of length {len(self)})"
                )
            index = 0
        return self[index]

    def __getitem__(self, index):
        """A value for an int; a Series for a slice or positions (frazil.getitem)."""
        from frazil.getitem import series_item

        return series_item(self, index)

    def __iter__(self):
        if type(self.dtype).__name__ in ("List", "Array"):  # values as Series, as s[i] gives them
            from frazil.getitem import value_at

            return (value_at(self, i) for i in range(len(self)))
        return iter(self.to_list())

    def __bool__(self) -> bool:
        raise TypeError("the truth value of a Series is ambiguous\n\nHint: use '&' or '|' to chain Series boolean "
                        "results together, not and/or; to check if a Series contains any values, use `is_empty()`.")

    def __contains__(self, item) -> bool:
        if item is None:
            return self.null_count() > 0
        return bool(self.is_in([item]).any())

    def __array__(self, dtype=None, copy=None):
        return self.to_numpy() if dtype is None else self.to_numpy().astype(dtype)

    # ---- namespaces: the Expr namespaces over this series ----

    @property
    def str(self) -> SeriesNameSpace:
        """String functions: s.str.to_uppercase()."""
        return SeriesNameSpace(self, "str")

    @property
    def dt(self) -> SeriesNameSpace:
        """Date and time functions: s.dt.year()."""
        return SeriesNameSpace(self, "dt")

    @property
    def cat(self) -> SeriesNameSpace:
        """Categorical/Enum functions: s.cat.len_bytes()."""
        return SeriesNameSpace(self, "cat")

    @property
    def list(self) -> SeriesNameSpace:
        """List functions (where frazil's Expr has them)."""
        return SeriesNameSpace(self, "list")

    @property
    def arr(self) -> SeriesNameSpace:
        """Array functions (frazil's Expr.arr over the series)."""
        return SeriesNameSpace(self, "arr")

    def reshape(self, dimensions: tuple) -> Series:
        """The values cut into Arrays of `dimensions` (frazil/series_arr.py)."""
        from frazil.series_arr import reshape_series

        return reshape_series(self, dimensions)

    @property
    def struct(self) -> SeriesNameSpace:
        """Struct functions (where frazil's Expr has them), fields, schema and unnest."""
        from frazil.expr_struct import series_struct_namespace

        return series_struct_namespace(self)

    @property
    def bin(self) -> SeriesNameSpace:
        """Binary functions (frazil's Expr.bin over the series)."""
        return SeriesNameSpace(self, "bin")

    # ---- Series-only methods ----

    def _row_encode(self, *, unordered: bool = False, descending: bool | None = None,
                    nulls_last: bool | None = None) -> Series:
        """Order-preserving Binary keys of the values (frazil/row_encoding.py)."""
        from frazil.row_encoding import series_row_encode

        return series_row_encode(self, unordered=unordered, descending=descending, nulls_last=nulls_last)

    def _row_decode(self, names, dtypes, *, unordered: bool = False, descending=None, nulls_last=None) -> Series:
        """The Struct of columns that these _row_encode keys encode."""
        from frazil.row_encoding import series_row_decode

        return series_row_decode(self, names, dtypes, unordered=unordered, descending=descending,
                                 nulls_last=nulls_last)

    def clone(self) -> Series:
        """A copy (the buffers are shared: frazil's columns are immutable)."""
        return Series._from_native(self._col)

    def rechunk(self, *, in_place: bool = False) -> Series:
        """The values in one contiguous chunk."""
        out = self._col.rechunk()
        if in_place:
            self._col = out
            return self
        return Series._from_native(out)

    def shrink_to_fit(self, *, in_place: bool = False) -> Series:
        """This series (frazil allocates its buffers to size)."""
        return self if in_place else self.clone()

    def chunk_lengths(self) -> list[int]:
        """The length of each chunk."""
        return [len(c) for c in self.get_chunks()]

    def get_chunks(self) -> list[Series]:
        """One series per chunk."""
        out, offset = [], 0
        for n in self._col.chunk_lengths():
            out.append(Series._from_native(self._col.slice(offset, n)))
            offset += n
        return out

    def append(self, other: Series) -> Series:
        """Appends other's values (as chunks, without copying) and returns this series."""
        if not isinstance(other, Series):
            raise TypeError(f"expected `other` to be a 'Series', not {type(other).__name__!r}")
        if self.dtype != other.dtype:
            from frazil.exceptions import SchemaError

            raise SchemaError(f"cannot append series, data types don't match: {self.dtype} and {other.dtype}")
        frames = [self.to_frame(), other.to_frame(self.name)]
        from frazil.functions import concat

        self._col = concat(frames, rechunk=False).to_series(0)._col
        return self

    def extend(self, other: Series) -> Series:
        """Appends other's values in place (one chunk, as Polars' extend) and returns this series."""
        self.append(other)
        return self.rechunk(in_place=True)

    def clear(self, n: int = 0) -> Series:
        """A series of this name and dtype with n nulls (none by default)."""
        return self.to_frame().clear(n).to_series(0)

    def new_from_index(self, index: int, length: int) -> Series:
        """The value at index repeated length times."""
        if not -len(self) <= index < len(self):
            from frazil.exceptions import OutOfBoundsError

            raise OutOfBoundsError(f"index {index} is out of bounds for sequence of length {len(self)}")
        value = self[index]
        if length == 0 or isinstance(value, (list, dict)):
            return self[[index] * length]
        # The value once, then the same value appended in the engine (no Python list of length).
        return apply_expression(self, lambda e: e.slice(index, 1).extend_constant(value, length - 1)).alias(self.name)

    def zip_with(self, mask: Series, other: Series) -> Series:
        """This series' value where mask is true, other's elsewhere."""
        from frazil.functions import lit, when

        return apply_expression(self, lambda e: when(lit(mask)).then(e).otherwise(lit(other))).alias(self.name)

    def to_numpy(self, *, writable: bool = False, allow_copy: bool = True, use_pyarrow: bool = True,
                 zero_copy_only: bool = False):
        """The values as a NumPy array (through pyarrow; nulls in numeric columns become NaN)."""
        if self.dtype in (_dt.Int128, _dt.UInt128):
            from frazil.exceptions import InvalidOperationError

            short = "i128" if self.dtype == _dt.Int128 else "u128"
            raise InvalidOperationError(f"cannot convert {short} to NumPy, which has no 128-bit integer types")
        if type(self.dtype).__name__ == "Array":
            from frazil.series_arr import array_to_numpy

            out = array_to_numpy(self)
            if out is not None:
                return out
        arr = self.to_arrow()
        out = arr.to_numpy(zero_copy_only=zero_copy_only or not allow_copy)
        return out.copy() if writable and not out.flags.writeable else out

    def equals(self, other: Series) -> bool:
        """Whether both series hold the same values (nulls equal to nulls) and dtype."""
        from frazil.dataframe import DataFrame

        return (
            self.name == other.name
            and DataFrame._from_native(_frazil.PyDataFrame([self._col])).equals(
                DataFrame._from_native(_frazil.PyDataFrame([other._col]))
            )
        )

    def cast(self, dtype, *, strict: bool = True) -> Series:
        from frazil.functions import col

        frame = self.to_frame()
        return frame.select(col(self.name).cast(dtype, strict=strict)).get_column(self.name)

    def to_frame(self, name: str | None = None):
        """A one-column DataFrame of this series."""
        from frazil.dataframe import DataFrame

        col = self._col if name is None else self._col.rename(name)
        return DataFrame._from_native(_frazil.PyDataFrame([col]))

    def to_arrow(self, *, compat_level=None):
        """The series as one pyarrow Array (chunks are concatenated, as Polars does).

        Strings and binary become ``large_string`` / ``large_binary`` by default;
        ``compat_level=CompatLevel.newest()`` keeps them as views without copying.
        """
        import pyarrow as pa

        from frazil._convert import _ArrayCapsules
        from frazil.compat_level import string_layout

        capsules = self._col.rechunk().__arrow_c_array__(None, string_layout(compat_level))
        return pa.array(_ArrayCapsules(capsules))

    def to_polars(self):
        """The series as a Polars Series, sharing the memory where the layouts agree."""
        import polars as pl

        return pl.Series(self)

    def to_pandas(self, *, use_pyarrow_extension_array: bool = False, **kwargs):
        """The series as a pandas Series, converted by pyarrow (see DataFrame.to_pandas)."""
        from frazil._convert import arrow_to_pandas

        return arrow_to_pandas(self.to_arrow(), use_pyarrow_extension_array, kwargs).rename(self.name)

    def __arrow_c_array__(self, requested_schema=None):
        return self._col.rechunk().__arrow_c_array__(requested_schema)

    def __arrow_c_stream__(self, requested_schema=None):
        return self._col.__arrow_c_stream__(requested_schema)

    def __arrow_c_schema__(self):
        return self._col.__arrow_c_schema__()

    def __repr__(self) -> str:
        n = len(self)
        if n > 10:
            cells = self._col.format_values(0, 5) + ["…"] + self._col.format_values(n - 5, 5)
        else:
            cells = self._col.format_values(0, n)
        body = "".join(f"\t{c}\n" for c in cells)
        return f"shape: ({n},)\nSeries: '{self.name}' [{self._col.dtype_short_name}]\n[\n{body}]"

    __str__ = __repr__

    def _repr_html_(self) -> str:
        """The notebook table of the series (Polars': its one-column frame's, shape (n,))."""
        return self.to_frame()._repr_html_(_from_series=True)

    def sql(self, query: str, *, table_name: str = "self"):
        """Runs SQL over this series as a one-column frame named `table_name`."""
        from frazil.dataframe import DataFrame

        return DataFrame([self]).sql(query, table_name=table_name)


def _install() -> None:
    from frazil.expr import Expr
    from frazil.series_dispatch import install_derived_methods, install_operators

    install_derived_methods(Series, Expr)
    install_operators(Series)


_install()
