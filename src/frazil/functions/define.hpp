// Helpers for the family files: the common output-dtype rules and kernel adapters, so a
// registry row reads as what is particular to its function.
#pragma once

#include <utility>

#include "frazil/core/error.hpp"
#include "frazil/core/supertype.hpp"
#include "frazil/functions/registry.hpp"

namespace frazil::functions::define {

// --- output dtype rules ---
inline DataType same_as_root(const CallTypes& c) { return c.inputs[0]; }
inline DataType boolean(const CallTypes&) { return DataType::boolean(); }
inline auto fixed(DataType t) {
  return [t](const CallTypes&) { return t; };
}
// The supertype of every input (SchemaError naming `what` when there is none).
inline DataType supertype_of_inputs(const CallTypes& c, const char* what) {
  DataType t = c.inputs[0];
  for (size_t i = 1; i < c.inputs.size(); ++i) {
    auto s = get_supertype(t, c.inputs[i]);
    if (!s) throw SchemaError(err_msg("failed to determine supertype of ", t, " and ", c.inputs[i], " in ", what));
    t = *s;
  }
  return t;
}
// Float32 (and Float16) stays; every other root becomes Float64.
inline DataType float_of_root(const CallTypes& c) {
  const TypeId id = c.inputs[0].id();
  return id == TypeId::Float32 || id == TypeId::Float16 ? c.inputs[0] : DataType::float64();
}

// --- kernel adapters: a kernel from a function of the evaluated arrays ---
// f(root) for functions without parameters.
template <typename F>
auto unary(F f) {
  return [f](const Args&) -> Kernel { return [f](std::span<const ArrayRef> in) { return f(*in[0]); }; };
}
// f(root, input 1) for functions without parameters.
template <typename F>
auto binary(F f) {
  return [f](const Args&) -> Kernel { return [f](std::span<const ArrayRef> in) { return f(*in[0], *in[1]); }; };
}

// Bit masks of inputs for null_if_null / null_or_false_if_null.
constexpr uint32_t input(unsigned i) { return uint32_t{1} << i; }
constexpr uint32_t all_inputs = ~uint32_t{0};

}  // namespace frazil::functions::define
