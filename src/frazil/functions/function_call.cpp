#include "frazil/functions/function_call.hpp"

#include <functional>

#include "frazil/functions/registry.hpp"

namespace frazil::functions {

FunctionCall::FunctionCall(std::string_view name) : spec(&get(name)), args(Args::defaults(spec->params)) {}

size_t FunctionCall::hash() const {
  size_t h = std::hash<const void*>()(spec);
  return h ^ (args.hash() + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2));
}

std::string FunctionCall::to_string(std::span<const std::string> inputs) const {
  if (spec->display_as_global) {
    std::string s = spec->name + "([";
    for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ", " : "") + inputs[i];
    return s + "])";
  }
  std::string args;
  if (spec->format_args) {
    args = spec->format_args(inputs.subspan(1), this->args);
  } else {
    for (size_t i = 1; i < inputs.size(); ++i) args += (args.empty() ? "" : ", ") + inputs[i];
    for (size_t i = 0; i < spec->params.size(); ++i)
      if (this->args.value(i) != spec->params[i].default_value)
        args += (args.empty() ? "" : ", ") + spec->params[i].name + "=" + arg_to_string(this->args.value(i));
  }
  return inputs[0] + "." + spec->name + "(" + args + ")";
}

bool FunctionSpec::has_set_input() const {
  for (InputRole r : roles)
    if (r == InputRole::Set) return true;
  return false;
}

}  // namespace frazil::functions
