// FunctionCall: what an expression node holds for a function: the registry row and the
// call's parameter values. Two calls are equal when they name the same row with equal values.
#pragma once

#include <string_view>

#include "frazil/functions/function_spec.hpp"

namespace frazil::functions {

struct FunctionCall {
  const FunctionSpec* spec = nullptr;
  Args args;

  FunctionCall() = default;
  FunctionCall(const FunctionSpec& s, Args a) : spec(&s), args(std::move(a)) {}
  // The function named `name` with every parameter at its default.
  explicit FunctionCall(std::string_view name);

  const std::string& name() const { return spec->name; }
  bool is(std::string_view function_name) const { return spec && spec->name == function_name; }
  // Polars-style text of the call given its inputs' texts (the root first):
  // `col("a").round(2)`, `coalesce([col("a"), 0])`.
  std::string to_string(std::span<const std::string> inputs) const;
  size_t hash() const;
  bool operator==(const FunctionCall& o) const { return spec == o.spec && args == o.args; }
};

}  // namespace frazil::functions
