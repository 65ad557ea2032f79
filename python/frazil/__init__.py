"""frazil: a lazy DataFrame query engine in C++ with a Polars-compatible API."""
from frazil import _frazil
from frazil import exceptions
from frazil.compat_level import CompatLevel
from frazil.config import Config, _apply_environment, thread_pool_size
from frazil.dataframe import DataFrame, from_arrow, from_dict, from_dicts
from frazil.constructors import from_dataframe, from_numpy, from_pandas, from_records
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
    Unknown,
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
    StructFieldNotFoundError,
    SQLInterfaceError,
    SQLSyntaxError,
)
from frazil.series import Series
# Categorical/Enum and the string cache (dtypes part of issue #18).
from frazil.datatypes import Categorical, Enum
# 128-bit integers and Float16 (issue #18 part 4, wideint).
from frazil.datatypes import Float16, Int128, UInt128
from frazil.string_cache import StringCache, disable_string_cache, enable_string_cache, using_string_cache
from frazil.expr import Expr
from frazil.functions import (
    all,
    any,
    coalesce,
    col,
    concat,
    corr,
    count,
    exclude,
    first,
    get_index_type,
    last,
    len,
    lit,
    max,
    mean,
    median,
    min,
    n_unique,
    nth,
    select,
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
    linear_spaces,
    max_horizontal,
    mean_horizontal,
    min_horizontal,
    quantile,
    rolling_corr,
    rolling_cov,
    reduce,
    sum_horizontal,
    tail,
)
from frazil.functions_string import concat_str, escape_regex, format
# list (issue #18): list constructors
from frazil.functions_list import concat_list
from frazil.functions_temporal import (
    business_day_count,
    date,
    date_range,
    date_ranges,
    datetime,
    datetime_range,
    datetime_ranges,
    duration,
    from_epoch,
    time,
    time_range,
    time_ranges,
)
from frazil.lazyframe import LazyFrame, QueryOptFlags
from frazil.dataframe import GroupBy
from frazil.sql import SQLContext, sql, sql_expr
from frazil.io import (
    FileProviderArgs,
    PartitionBy,
    ScanCastOptions,
    read_csv,
    collect_all,
    read_ipc,
    read_ipc_schema,
    read_ipc_stream,
    read_json,
    read_ndjson,
    read_parquet,
    read_parquet_schema,
    scan_csv,
    scan_ipc,
    scan_ndjson,
    scan_parquet,
    write_csv,
    write_parquet,
)

__version__ = _frazil.version()

# Struct, name and selectors (issue #18, struct part): pl.struct, pl.field, frame unnest.
from frazil.expr_struct import field, struct  # noqa: E402
from frazil import selectors  # noqa: E402
from frazil.datatype_expr import DataTypeExpr, dtype_of, self_dtype, struct_with_fields  # noqa: E402
from frazil.categories import Categories  # noqa: E402
from frazil import frame_struct as _frame_struct  # noqa: E402

_frame_struct.install(LazyFrame, DataFrame)

# The frame methods Polars composes from select/filter/sort (frame_methods).
from frazil import frame_methods as _frame_methods  # noqa: E402

_frame_methods.install(LazyFrame, DataFrame)
# DataFrame operators (+ - * / // % and comparisons) as Polars defines them.
from frazil import frame_arithmetic as _frame_arithmetic  # noqa: E402

_frame_arithmetic.install(DataFrame)
_frame_arithmetic.install_lazy(LazyFrame)

# frames (issue #19): join_asof, merge_sorted, group_by_dynamic, pivot, ... (frame_extras).
from frazil import frame_extras as _frame_extras  # noqa: E402

_frame_extras.install(LazyFrame, DataFrame)
from frazil.merge_sorted import merge_sorted_frames as merge_sorted  # noqa: E402
from frazil.frame_misc import set_random_seed  # noqa: E402
from frazil.udf import map_batches_function as map_batches  # noqa: E402
from frazil.functions_frames import (  # noqa: E402
    align_frames,
    build_info,
    collect_all_async,
    explain_all,
    ones,
    repeat,
    row_index,
    show_versions,
    union,
    zeros,
)

# Array dtype and the arr namespace (issue #18, array part).
from frazil.datatypes import Array  # noqa: E402
from frazil.expr_arr import concat_arr  # noqa: E402
# Expr.meta, binning, row encoding and the rest of the top-level API (issues #16/#19, meta part).
from frazil.from_repr import from_repr  # noqa: E402
from frazil.row_encoding import row_encode as _row_encode  # noqa: E402
from frazil.engine import Engine, GPUEngine, InMemoryEngine, StreamingEngine  # noqa: E402
from frazil.toplevel_extras import (  # noqa: E402
    cum_fold,
    cum_reduce,
    cum_sum_horizontal,
    defer,
    json_normalize,
    map_groups,
    read_lines,
    read_parquet_metadata,
    scan_lines,
    scan_pyarrow_dataset,
    wrap_df,
    wrap_s,
)

_apply_environment()


def _quiet_leak_check_if_threads_live() -> None:
    # Daemon threads still running at exit keep the frazil objects on their stacks, which
    # Python never frees; nanobind would report those as leaked. With no thread left (atexit
    # runs after the non-daemon threads are joined) its leak check stays on.
    import threading

    if threading.active_count() > 1:
        _frazil.set_leak_warnings(False)


import atexit as _atexit  # noqa: E402

_atexit.register(_quiet_leak_check_if_threads_live)

# Plan serialization (issue #24, serde): LazyFrame.serialize/deserialize, Expr.deserialize,
# pickling of LazyFrame and Expr (plan_serde).
from frazil import plan_serde as _plan_serde  # noqa: E402

_plan_serde.install(LazyFrame, Expr)

# The distributed engine (issue #24): collect(engine=frazil.RayEngine(...)); Ray itself is
# imported only when it runs.
from frazil.ray import RayEngine  # noqa: E402
