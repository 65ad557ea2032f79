#include "frazil/functions/count_tests.hpp"

namespace frazil::functions {

std::string_view nonzero_test(const FunctionSpec& spec) {
  if (spec.name == "null_count") return "has_nulls";
  return {};
}

}  // namespace frazil::functions
