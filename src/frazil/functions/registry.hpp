// The function registry: every function of the expression language, found by Polars' name.
// It is filled once, on first use, by the family files (functions/families.hpp); rows never
// move, so a FunctionSpec pointer stays valid for the life of the process.
#pragma once

#include <string_view>
#include <vector>

#include "frazil/functions/function_spec.hpp"

namespace frazil::functions {

// nullptr when no function has that name.
const FunctionSpec* find(std::string_view name);
// The function, or an InvalidOperationError naming it (with the closest names when any).
const FunctionSpec& get(std::string_view name);
// Every registered function, in registration order.
const std::vector<const FunctionSpec*>& all();

// Where the family files add their rows (functions/families.hpp).
class Registry {
 public:
  // Adds a row; a second row with the same name is an internal error.
  void add(FunctionSpec spec);
  // A row added before (a family derived from another: arr.* from list.*); InternalError if none.
  const FunctionSpec& added(std::string_view name) const;
};

}  // namespace frazil::functions
