// The registry's knowledge about counts (non-negative integer reductions such as
// null_count): which Boolean reduction of the same input holds exactly when the count is
// above 0. The simplifier asks it to rewrite `null_count() > 0` into `has_nulls()`.
#pragma once

#include <string_view>

#include "frazil/functions/function_spec.hpp"

namespace frazil::functions {

// The name of `spec`'s nonzero test ("has_nulls" for null_count); empty when it has none.
std::string_view nonzero_test(const FunctionSpec& spec);

}  // namespace frazil::functions
