// User-defined functions: callables the host registers (the Python bindings register Python
// functions; a C++ program may register its own) and the registry rows "map_batches" and
// "map_elements" call with the evaluated inputs. An expression holds only the callable's id,
// so plans, hashing and equality stay plain data; two registrations are two functions.
// The rows are opaque to the optimizer: nondeterministic (no common subexpressions),
// order-sensitive, not elementwise (nothing is pushed below them), fallible.
#pragma once

#include <cstdint>
#include <functional>
#include <span>

#include "frazil/core/array.hpp"

namespace frazil::functions {

class Registry;
struct FunctionSpec;

// Inputs as evaluated (the root first); the result's dtype is cast to the planned one.
using UdfCallable = std::function<ArrayRef(std::span<const ArrayRef> inputs)>;

// The id of a newly registered callable (kept until clear_udfs).
int64_t register_udf(UdfCallable fn);
// Drops every registered callable (the Python bindings do it at interpreter exit, while
// Python objects can still be released).
void clear_udfs();
// Calls callable `id`; a ComputeError for an unknown id.
ArrayRef call_udf(int64_t id, std::span<const ArrayRef> inputs);

// The registry rows that call a registered callable (map_batches, map_elements, and
// name.map_fields, whose callable maps a String array of field names), and the parameter
// holding its id (a plan serializer replaces the id by the callable's own bytes).
bool is_udf(const FunctionSpec& spec);
inline constexpr const char* kUdfIdParam = "function";

void register_udf_functions(Registry& r);  // udf.cpp: map_batches, map_elements

}  // namespace frazil::functions
