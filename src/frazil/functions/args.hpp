// The parameters of a function call: each registered function declares its own, by name
// and type (round's `decimals`, str.contains' `pattern` and `literal`), so a value means one
// thing for one function. A call's values are kept in declaration order; hashing,
// equality, printing and building from keyword arguments (Python, SQL) are generic.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "frazil/core/dtype.hpp"

namespace frazil::functions {

// One parameter value. std::monostate is "None" (a nullable parameter left unset).
using ArgValue = std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<int64_t>,
                              std::vector<double>, std::vector<std::string>, DataType>;

enum class ArgType : uint8_t { Bool, Int, Float, String, IntList, FloatList, StringList, Dtype };

const char* arg_type_name(ArgType type);

struct Param {
  std::string name;
  ArgType type = ArgType::Int;
  ArgValue default_value;             // used when the caller gives none
  bool nullable = false;              // None is a valid value
  std::vector<std::string> choices;   // String parameters: the accepted values (empty: any)
};

// Parameter declarations, read naturally: {int_param("n", 1), string_param("closed", "both",
// {"both", "left", "right", "none"})}.
Param bool_param(std::string name, bool default_value);
Param int_param(std::string name, int64_t default_value);
Param optional_int_param(std::string name);  // default None
Param float_param(std::string name, double default_value);
Param optional_float_param(std::string name);  // default None
Param string_param(std::string name, std::string default_value, std::vector<std::string> choices = {});
Param optional_string_param(std::string name);  // default None
Param int_list_param(std::string name);
Param float_list_param(std::string name);  // default []
Param string_list_param(std::string name);
Param dtype_param(std::string name);  // default None

// The values of one call, in the order of `params`.
class Args {
 public:
  Args() = default;
  Args(std::span<const Param> params, std::vector<ArgValue> values);

  // Every parameter at its default.
  static Args defaults(std::span<const Param> params);
  // From keyword arguments: unknown names, wrong types and values outside `choices` are
  // InvalidOperationErrors naming `function` and the parameter. Ints convert to floats.
  static Args from_keywords(std::string_view function, std::span<const Param> params,
                            std::vector<std::pair<std::string, ArgValue>> keywords);

  size_t size() const { return values_.size(); }
  const ArgValue& value(size_t i) const { return values_[i]; }
  const ArgValue& value(std::string_view name) const;
  const std::string& name(size_t i) const { return params_[i].name; }

  bool get_bool(std::string_view name) const;
  int64_t get_int(std::string_view name) const;
  std::optional<int64_t> get_optional_int(std::string_view name) const;
  double get_float(std::string_view name) const;
  std::optional<double> get_optional_float(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;
  std::optional<std::string> get_optional_string(std::string_view name) const;
  const std::vector<int64_t>& get_int_list(std::string_view name) const;
  const std::vector<double>& get_float_list(std::string_view name) const;
  const std::vector<std::string>& get_string_list(std::string_view name) const;
  std::optional<DataType> get_dtype(std::string_view name) const;
  bool is_none(std::string_view name) const;

  // A copy with one value replaced (checked against the parameter's type).
  Args with(std::string_view name, ArgValue value) const;

  size_t hash() const;
  bool operator==(const Args& other) const { return values_ == other.values_; }

 private:
  size_t index_of(std::string_view name) const;

  std::span<const Param> params_;
  std::vector<ArgValue> values_;
};

// Polars-style rendering of one value: 2, 1.5, "both", true, null, [1, 2], Int64.
std::string arg_to_string(const ArgValue& value);

}  // namespace frazil::functions
