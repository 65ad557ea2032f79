"""frazil: a lazy DataFrame query engine in C++ with a Polars-compatible API."""
from frazil import _frazil
from frazil import exceptions
from frazil.compat_level import CompatLevel
from frazil.config import Config, _apply_environment, thread_pool_size
from frazil.dataframe import DataFrame, from_arrow
from frazil.datatypes import (
    Binary,
    Boolean,
    DataType,
    Date,
    Datetime,
    Decimal,
    Duration,
    Field,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    List,
    Null,
    Schema,
    String,
    Struct,
    Time,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Utf8,
)
from frazil.exceptions import (
    ColumnNotFoundError,
    ComputeError,
    DuplicateError,
    FrazilError,
    InvalidOperationError,
    OutOfBoundsError,
    SchemaError,
    SchemaFieldNotFoundError,
    ShapeError,
)
from frazil.series import Series
from frazil.expr import Expr
from frazil.functions import (
    all,
    coalesce,
    col,
    concat,
    corr,
    count,
    exclude,
    first,
    last,
    len,
    lit,
    max,
    mean,
    median,
    min,
    n_unique,
    nth,
    std,
    sum,
    var,
    when,
)
# Numeric, cumulative, window and horizontal functions (issue #16).
from frazil.functions import (
    all_horizontal,
    any_horizontal,
    approx_n_unique,
    arange,
    arctan2,
    arg_sort_by,
    arg_where,
    cov,
    cum_count,
    cum_sum,
    element,
    fold,
    head,
    implode,
    int_range,
    int_ranges,
    linear_space,
    max_horizontal,
    mean_horizontal,
    min_horizontal,
    quantile,
    reduce,
    select,
    sum_horizontal,
    tail,
)
from frazil.lazyframe import LazyFrame, QueryOptFlags
from frazil.dataframe import GroupBy
from frazil.io import read_csv, read_parquet, scan_csv, scan_parquet, write_csv, write_parquet

__version__ = _frazil.version()

_apply_environment()
