"""Exceptions raised by frazil, named as Polars names them.

Every frazil error derives from :class:`FrazilError` (also exported as ``PolarsError``
so that code written for Polars catches it), which derives from ``Exception`` only, as
in Polars.
"""


class FrazilError(Exception):
    """Base class of all frazil errors."""


PolarsError = FrazilError


class ColumnNotFoundError(FrazilError):
    """A column that does not exist was referred to."""


class SchemaError(FrazilError):
    """Data types or schemas do not match."""


class SchemaFieldNotFoundError(FrazilError):
    """A field that does not exist in a schema was referred to."""


class StructFieldNotFoundError(FrazilError):
    """A struct has no field of the name given."""


class InvalidOperationError(FrazilError):
    """An operation is not supported for the data types involved."""


class ComputeError(FrazilError):
    """A computation failed, or input data is malformed."""


class NoDataError(FrazilError):
    """A source holds no data where some is needed (an empty CSV)."""


class ShapeError(FrazilError):
    """Lengths or shapes do not match."""


class DuplicateError(FrazilError):
    """A name that must be unique occurs more than once."""


class OutOfBoundsError(FrazilError):
    """An index is out of bounds."""


class QueryCancelledError(FrazilError):
    """A query was cancelled (its CancelToken was set, or it ran past its timeout)."""


class SQLInterfaceError(FrazilError):
    """SQL that names an unknown table, column or function, or uses an unsupported construct."""


class SQLSyntaxError(FrazilError):
    """SQL that does not parse."""


class PanicException(FrazilError):
    """An internal invariant of frazil failed: a bug in frazil, please report it."""


class RowsError(FrazilError):
    """DataFrame.row(by_predicate=...) found other than one row."""


class NoRowsReturnedError(RowsError):
    """The predicate matched no row."""


class TooManyRowsReturnedError(RowsError):
    """The predicate matched several rows."""


class PolarsWarning(Warning):
    """Base class of the warnings frazil shares with Polars."""


class PerformanceWarning(PolarsWarning):
    """An operation that is correct but possibly slow (e.g. `in` on a LazyFrame)."""


class UnstableWarning(PolarsWarning):
    """Functionality Polars marks unstable was used (shown with Config.warn_unstable())."""


class AttributeRemovedError(AttributeError):
    """An attribute Polars removed (frazil.removed_api); the message says what replaces it."""


class ArgumentRemovedError(TypeError):
    """A function argument Polars removed."""


__all__ = [
    "UnstableWarning",
    "PolarsWarning",
    "PerformanceWarning",
    "RowsError",
    "NoRowsReturnedError",
    "TooManyRowsReturnedError",
    "AttributeRemovedError",
    "ArgumentRemovedError",
    "FrazilError",
    "PolarsError",
    "ColumnNotFoundError",
    "SchemaError",
    "SchemaFieldNotFoundError",
    "StructFieldNotFoundError",
    "InvalidOperationError",
    "ComputeError",
    "NoDataError",
    "ShapeError",
    "DuplicateError",
    "OutOfBoundsError",
    "QueryCancelledError",
    "SQLInterfaceError",
    "SQLSyntaxError",
    "PanicException",
]
