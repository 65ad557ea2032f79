// Type coercion of arithmetic on temporal dtypes, with Polars' rules: the coarser time unit
// wins (Datetime(us) - Datetime(ns) is Duration(us)), a Date meets a Datetime as that
// Datetime, a Duration is scaled by integers (floor division) and floats (truncated), and
// temporal-with-number sums are errors.
#pragma once

#include <optional>

#include "frazil/plan/aexpr.hpp"

namespace frazil::plan {

// The rewritten binary node (casts inserted), nullopt when it is fine as it is or not a
// temporal arithmetic. Raises InvalidOperationError / SchemaError as Polars for
// combinations it refuses. `l_dyn` / `r_dyn`: the operand is a Python number literal.
std::optional<AExpr> coerce_temporal_arithmetic(ExprArena& arena, Node node, Node l, Node r, const DataType& lt,
                                                const DataType& rt, bool l_dyn, bool r_dyn);

// Polars' coarser time unit of two (get_time_units): ms over us over ns.
TimeUnit coarser_unit(TimeUnit a, TimeUnit b);

}  // namespace frazil::plan
