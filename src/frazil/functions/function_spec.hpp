// FunctionSpec: one row of the function registry, describing a function once for every
// layer. The DSL finds it by Polars' name and checks arity and parameters; the plan derives
// output dtypes and coerces inputs from it; the optimizer asks its properties (never the
// function's identity); the physical layer takes its kernel. Adding a function is one row
// (in the family file it belongs to), one kernel in compute/ with its test, and the Python
// method.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/array.hpp"
#include "frazil/functions/args.hpp"

namespace frazil::functions {

// How the output's rows relate to the input's.
enum class Shape : uint8_t {
  Elementwise,       // row i from row i of each row input (one-row inputs broadcast)
  Reduction,         // one row, whatever the input (null_count, product, arg_max)
  LengthPreserving,  // the input's height, but row i may depend on other rows (shift, cum_sum, rank)
  Other,             // a length of its own (unique, drop_nulls, head, explode)
};

// What an input is to the function.
enum class InputRole : uint8_t {
  Row,  // row-aligned with the root (or a one-row value that broadcasts)
  Set,  // a whole column read as a set of values (is_in's values), never row-aligned
  // An expression over the elements of the List root (list.eval's pl.element() expression):
  // not an input over the frame; the plan keeps it aside (AExprPayload::element_exprs) and the
  // physical layer evaluates it per list. Element inputs come after every other input.
  Element,
};

// How type coercion makes the inputs agree (plan/conversion/type_coercion.cpp does it).
enum class Coercion : uint8_t {
  None,
  Supertype,     // every input cast to their supertype (fill_null, coalesce)
  Between,       // the bounds cast to the supertype with the value; string vs numeric is an error
  SetMembers,    // the set cast to the value's dtype (integers of other widths non-strictly)
  FloatOperand,  // a Boolean or String root read as Float64 (sqrt(true) = 1.0)
  Power,         // integer base with float exponent -> Float64; float base: exponent cast to it
};

// A set of dtype ids: the dtypes a function accepts at its root.
class TypeSet {
 public:
  constexpr TypeSet() = default;
  constexpr explicit TypeSet(uint64_t bits) : bits_(bits) {}
  static constexpr TypeSet of(std::initializer_list<TypeId> ids) {
    uint64_t b = 0;
    for (TypeId id : ids) b |= uint64_t{1} << static_cast<unsigned>(id);
    return TypeSet(b);
  }
  static constexpr TypeSet any() { return TypeSet(~uint64_t{0}); }
  constexpr bool contains(TypeId id) const { return (bits_ >> static_cast<unsigned>(id)) & 1; }
  constexpr TypeSet operator|(TypeSet o) const { return TypeSet(bits_ | o.bits_); }
  constexpr TypeSet operator-(TypeSet o) const { return TypeSet(bits_ & ~o.bits_); }
  constexpr bool is_any() const { return bits_ == ~uint64_t{0}; }

 private:
  uint64_t bits_ = ~uint64_t{0};
};

namespace types {
inline constexpr TypeSet null = TypeSet::of({TypeId::Null});
inline constexpr TypeSet boolean = TypeSet::of({TypeId::Boolean});
inline constexpr TypeSet signed_int = TypeSet::of({TypeId::Int8, TypeId::Int16, TypeId::Int32, TypeId::Int64});
inline constexpr TypeSet unsigned_int = TypeSet::of({TypeId::UInt8, TypeId::UInt16, TypeId::UInt32, TypeId::UInt64});
inline constexpr TypeSet integer = signed_int | unsigned_int;
inline constexpr TypeSet floating = TypeSet::of({TypeId::Float32, TypeId::Float64});
inline constexpr TypeSet decimal = TypeSet::of({TypeId::Decimal});
inline constexpr TypeSet numeric = integer | floating | decimal;
inline constexpr TypeSet string = TypeSet::of({TypeId::String});
inline constexpr TypeSet date_like = TypeSet::of({TypeId::Date, TypeId::Datetime});
inline constexpr TypeSet duration = TypeSet::of({TypeId::Duration});
}  // namespace types

// How a root dtype outside `input_types` is reported (Polars differs by function).
enum class TypeErrorStyle : uint8_t {
  NotSupported,    // InvalidOperationError: "`abs` operation not supported for dtype `str`"
  ExpectedString,  // SchemaError: "invalid series dtype: expected `String`, got `i64`"
};

// The dtypes of a call's inputs (the root first) and its parameters.
struct CallTypes {
  std::span<const DataType> inputs;
  const Args& args;
};

// A kernel over the evaluated inputs (input 0 is the root; one-row row inputs after the
// first broadcast). Built once per plan from the call's parameters.
using Kernel = std::function<ArrayRef(std::span<const ArrayRef> inputs)>;
// A reduction per group: one value per group of `groups`, over the inputs' values (row inputs
// row-aligned with the root; a one-row input broadcasts).
using GroupedKernel = std::function<ArrayRef(std::span<const ArrayRef> inputs, const compute::Groups& groups)>;
// A length-preserving kernel over inputs whose rows are cut into contiguous segments: segment
// k is rows [offsets[k], offsets[k + 1]) of every row input (one-row inputs broadcast), and is
// computed as if it were the whole input. The output is aligned with the input.
using SegmentedKernel =
    std::function<ArrayRef(std::span<const ArrayRef> inputs, std::span<const int64_t> offsets)>;

struct FunctionSpec {
  std::string name;  // as Polars spells the method: "abs", "str.contains", "dt.year"
  size_t min_inputs = 1;  // the root included
  size_t max_inputs = 1;
  std::vector<Param> params;

  // --- properties the optimizer asks ---
  Shape shape = Shape::Elementwise;
  std::vector<InputRole> roles;  // per input; inputs past the end are Row
  // Inputs (bit i = input i) whose null makes the output null on that row.
  uint32_t null_if_null = 0;
  // Inputs whose null makes a Boolean output null or false on that row (for filters).
  uint32_t null_or_false_if_null = 0;
  // Gives equal results for -0.0 and 0.0 (and any two NaNs): may be computed per group of
  // float keys that compare equal.
  bool zero_sign_insensitive = false;
  bool fallible = false;          // may raise on some rows' values
  bool nondeterministic = false;  // two evaluations may differ (sample, shuffle)
  // The output depends on the order of the rows (beyond row alignment): shift, cum_sum, head.
  bool order_sensitive = false;

  // --- types ---
  TypeSet input_types = TypeSet::any();  // accepted root dtypes (Null always is)
  TypeErrorStyle type_error = TypeErrorStyle::NotSupported;
  Coercion coercion = Coercion::None;
  std::function<DataType(const CallTypes&)> output_dtype;
  // Extra checks beyond input_types (a message without the expression, which is appended).
  std::function<void(const CallTypes&)> check;

  // --- execution ---
  std::function<Kernel(const Args&)> kernel;
  // Optional, for reductions: one value per group without gathering the groups' rows.
  std::function<GroupedKernel(const Args&)> grouped_kernel;
  // Optional, for length-preserving functions (cum_sum, rank, rolling_mean, diff): the kernel
  // over many groups at once, their rows gathered group after group. Inside agg() and over()
  // it runs once for all groups instead of once per group. When `kernel` is not given, the
  // registry derives it (the whole input as one segment).
  std::function<SegmentedKernel(const Args&)> segmented_kernel;

  // Optional: the parameters that depend on the inputs' output names (value_counts' struct
  // field is named after its input), bound when the expression is converted to the plan.
  std::function<Args(const Args& args, std::span<const std::string> input_names)> bind_names;

  // Multi-column selections among the inputs become several inputs (pl.struct(pl.all())),
  // instead of several copies of the call.
  bool expand_inputs = false;

  // --- cost: the fraction of rows a predicate of this function keeps, from its row inputs'
  // selectivities (nullptr: one half). A Set input's size is taken into account by the caller.
  std::function<double(std::span<const double> input_selectivity)> selectivity;

  // --- display: the text inside the parentheses of `root.name(...)` (nullptr: the
  // inputs after the root, then the parameters that differ from their defaults).
  std::function<std::string(std::span<const std::string> inputs, const Args& args)> format_args;
  // Printed as `name([input, ...])` instead of a method of the root (coalesce).
  bool display_as_global = false;

  InputRole role(size_t i) const { return i < roles.size() ? roles[i] : InputRole::Row; }
  bool is_elementwise() const { return shape == Shape::Elementwise; }
  bool is_reduction() const { return shape == Shape::Reduction; }
  bool has_set_input() const;
};

}  // namespace frazil::functions
