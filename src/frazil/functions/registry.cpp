#include "frazil/functions/registry.hpp"

#include <deque>
#include <string>
#include <unordered_map>

#include "frazil/core/error.hpp"
#include "frazil/core/suggest.hpp"
#include "frazil/functions/families.hpp"
#include "frazil/functions/udf.hpp"

namespace frazil::functions {

namespace {

struct Table {
  std::deque<FunctionSpec> rows;  // a deque: rows never move once added
  std::unordered_map<std::string_view, const FunctionSpec*> by_name;
  std::vector<const FunctionSpec*> in_order;
};

Table& table_being_filled();

const Table& table() {
  // Filled once, on first use, by every family (thread-safe: a function-local static).
  static const Table& t = [] () -> const Table& {
    Table& fill = table_being_filled();
    Registry r;
    register_null_functions(r);
    register_logic_functions(r);
    register_math_functions(r);
    register_order_functions(r);
    register_list_functions(r);
    register_string_functions(r);
    register_temporal_functions(r);
    register_temporal_constructor_functions(r);
    register_cumulative_functions(r);
    register_position_functions(r);
    register_rolling_functions(r);
    register_statistics_functions(r);
    register_distinct_functions(r);
    register_horizontal_functions(r);
    register_replace_functions(r);
    register_inspect_functions(r);
    register_categorical_functions(r);
    register_fused_functions(r);
    register_udf_functions(r);
    register_struct_functions(r);
    register_binary_functions(r);
    register_array_functions(r);  // after list: arr.* rows derive from list.* rows
    register_row_encoding_functions(r);
    register_binning_functions(r);
    return fill;
  }();
  return t;
}

Table& table_being_filled() {
  static Table t;
  return t;
}

}  // namespace

void Registry::add(FunctionSpec spec) {
  Table& t = table_being_filled();
  FRAZIL_CHECK(!spec.name.empty());
  FRAZIL_CHECK(spec.output_dtype != nullptr);
  if (!spec.kernel && spec.segmented_kernel) {
    // The whole input is one segment.
    spec.kernel = [make = spec.segmented_kernel](const Args& a) -> Kernel {
      return [k = make(a)](std::span<const ArrayRef> in) {
        const int64_t offsets[2] = {0, in.empty() ? 0 : in[0]->length()};
        return k(in, offsets);
      };
    };
  }
  FRAZIL_CHECK(spec.kernel != nullptr);
  FRAZIL_CHECK(!spec.segmented_kernel || spec.shape == Shape::LengthPreserving);
  FRAZIL_CHECK_OP(spec.min_inputs, <=, spec.max_inputs);
  if (t.by_name.count(spec.name)) throw InternalError("function '" + spec.name + "' is registered twice");
  const FunctionSpec& row = t.rows.emplace_back(std::move(spec));
  t.by_name.emplace(row.name, &row);
  t.in_order.push_back(&row);
}

const FunctionSpec& Registry::added(std::string_view name) const {
  const Table& t = table_being_filled();
  auto it = t.by_name.find(name);
  if (it == t.by_name.end()) throw InternalError(err_msg("function '", name, "' is not registered yet"));
  return *it->second;
}

const FunctionSpec* find(std::string_view name) {
  const Table& t = table();
  auto it = t.by_name.find(name);
  return it == t.by_name.end() ? nullptr : it->second;
}

const FunctionSpec& get(std::string_view name) {
  if (const FunctionSpec* s = find(name)) return *s;
  std::vector<std::string> names;
  for (const FunctionSpec* s : all()) names.push_back(s->name);
  throw InvalidOperationError(err_msg("unknown function '", name, "'", did_you_mean(name, names)));
}

const std::vector<const FunctionSpec*>& all() { return table().in_order; }

}  // namespace frazil::functions
