// The family files of the registry, one per area of the expression language. A new family
// is a new file with its function declared here and called from registry.cpp.
#pragma once

#include "frazil/functions/registry.hpp"

namespace frazil::functions {

void register_null_functions(Registry& r);      // null_and_nan.cpp: is_null, fill_null, coalesce, ...
void register_logic_functions(Registry& r);     // logic.cpp: not, is_in, is_between
void register_math_functions(Registry& r);      // math.cpp: abs, round, sqrt, pow, ...
void register_order_functions(Registry& r);     // order.cpp: reverse, shift, unique, head, tail, ...
void register_list_functions(Registry& r);      // list.cpp: explode, list.*, concat_list
void register_string_functions(Registry& r);    // string.cpp: str.*
void register_temporal_functions(Registry& r);  // temporal.cpp: dt.*
// temporal_constructors.cpp: datetime, duration, date_range(s), datetime_range(s), time_range(s),
// business_day_count
void register_temporal_constructor_functions(Registry& r);
void register_cumulative_functions(Registry& r);  // cumulative.cpp: cum_*, diff, rank, fill strategies, ewm_*
void register_position_functions(Registry& r);    // positions.cpp: slice, gather, arg_*, search_sorted, ...
void register_rolling_functions(Registry& r);     // rolling.cpp: rolling_* and rolling_*_by
void register_statistics_functions(Registry& r);  // statistics.cpp: product, skew, arg_min, min_by, ...
void register_distinct_functions(Registry& r);    // distinct.cpp: is_duplicated, mode, value_counts, ...
void register_horizontal_functions(Registry& r);  // horizontal.cpp: *_horizontal, int_range, linear_space
void register_replace_functions(Registry& r);     // replace.cpp: replace, replace_strict
void register_inspect_functions(Registry& r);     // inspect.cpp: is_sorted, index_of, item, hist, ...
void register_categorical_functions(Registry& r);  // categorical.cpp: cat.*
void register_fused_functions(Registry& r);       // fused.cpp: fma, fms, fsm (made by the optimizer)
void register_struct_functions(Registry& r);      // struct.cpp: as_struct, struct.*, name.*_fields
void register_binary_functions(Registry& r);      // binary.cpp: bin.*
void register_array_functions(Registry& r);       // array.cpp: arr.*, list.to_array, reshape
void register_row_encoding_functions(Registry& r);  // row_encoding.cpp: _row_encode, _row_decode
void register_binning_functions(Registry& r);     // binning.cpp: cut, qcut, bin_intervals, bin_quantiles, bin_ranks

}  // namespace frazil::functions
