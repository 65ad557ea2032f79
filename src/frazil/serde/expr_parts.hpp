// The parts of expression nodes the DSL and the IR both have: function calls (by registry
// name and parameter names; a UDF's callable through the host's codec), aggregation options,
// sort flags and window options.
#pragma once

#include "frazil/compute/aggregate.hpp"
#include "frazil/dsl/expr.hpp"
#include "frazil/functions/function_call.hpp"
#include "frazil/serde/byte_io.hpp"

namespace frazil::serde {

void write_function(ByteWriter& w, const functions::FunctionCall& call);
functions::FunctionCall read_function(ByteReader& r);
void write_agg_options(ByteWriter& w, const compute::AggOptions& o);
compute::AggOptions read_agg_options(ByteReader& r);
void write_sort_flags(ByteWriter& w, const dsl::SortFlags& s);
dsl::SortFlags read_sort_flags(ByteReader& r);
void write_window(ByteWriter& w, const dsl::WindowOptions& o);
dsl::WindowOptions read_window(ByteReader& r);

}  // namespace frazil::serde
