#include "frazil/functions/args.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "frazil/core/error.hpp"

namespace frazil::functions {

const char* arg_type_name(ArgType type) {
  switch (type) {
    case ArgType::Bool: return "bool";
    case ArgType::Int: return "int";
    case ArgType::Float: return "float";
    case ArgType::String: return "str";
    case ArgType::IntList: return "list[int]";
    case ArgType::FloatList: return "list[float]";
    case ArgType::StringList: return "list[str]";
    case ArgType::Dtype: return "DataType";
  }
  return "?";
}

namespace {
Param make_param(std::string name, ArgType type, ArgValue default_value, bool nullable = false,
                 std::vector<std::string> choices = {}) {
  Param p;
  p.name = std::move(name);
  p.type = type;
  p.default_value = std::move(default_value);
  p.nullable = nullable;
  p.choices = std::move(choices);
  return p;
}
}  // namespace

Param bool_param(std::string name, bool default_value) { return make_param(std::move(name), ArgType::Bool, default_value); }
Param int_param(std::string name, int64_t default_value) {
  return make_param(std::move(name), ArgType::Int, default_value);
}
Param optional_int_param(std::string name) { return make_param(std::move(name), ArgType::Int, std::monostate{}, true); }
Param float_param(std::string name, double default_value) {
  return make_param(std::move(name), ArgType::Float, default_value);
}
Param optional_float_param(std::string name) {
  return make_param(std::move(name), ArgType::Float, std::monostate{}, true);
}
Param string_param(std::string name, std::string default_value, std::vector<std::string> choices) {
  return make_param(std::move(name), ArgType::String, std::move(default_value), false, std::move(choices));
}
Param optional_string_param(std::string name) {
  return make_param(std::move(name), ArgType::String, std::monostate{}, true);
}
Param int_list_param(std::string name) { return make_param(std::move(name), ArgType::IntList, std::vector<int64_t>{}); }
Param string_list_param(std::string name) {
  return make_param(std::move(name), ArgType::StringList, std::vector<std::string>{});
}
Param dtype_param(std::string name) { return make_param(std::move(name), ArgType::Dtype, std::monostate{}, true); }

namespace {

bool has_type(const ArgValue& v, ArgType t) {
  switch (t) {
    case ArgType::Bool: return std::holds_alternative<bool>(v);
    case ArgType::Int: return std::holds_alternative<int64_t>(v);
    case ArgType::Float: return std::holds_alternative<double>(v);
    case ArgType::String: return std::holds_alternative<std::string>(v);
    case ArgType::IntList: return std::holds_alternative<std::vector<int64_t>>(v);
    case ArgType::FloatList: return std::holds_alternative<std::vector<double>>(v);
    case ArgType::StringList: return std::holds_alternative<std::vector<std::string>>(v);
    case ArgType::Dtype: return std::holds_alternative<DataType>(v);
  }
  return false;
}

// The value as the parameter wants it: ints widen to floats, int lists to float lists.
ArgValue conform(std::string_view function, const Param& p, ArgValue v) {
  if (std::holds_alternative<std::monostate>(v)) {
    if (!p.nullable)
      throw InvalidOperationError(err_msg("`", function, "`: parameter '", p.name, "' must not be None"));
    return v;
  }
  if (p.type == ArgType::Float)
    if (const auto* i = std::get_if<int64_t>(&v)) v = static_cast<double>(*i);
  if (p.type == ArgType::FloatList)
    if (const auto* l = std::get_if<std::vector<int64_t>>(&v)) v = std::vector<double>(l->begin(), l->end());
  // A dtype given by its name ("Int64", as the Python module passes simple dtypes).
  if (p.type == ArgType::Dtype)
    if (const auto* name = std::get_if<std::string>(&v))
      if (auto t = parse_dtype(*name)) v = *t;
  if (!has_type(v, p.type))
    throw InvalidOperationError(err_msg("`", function, "`: parameter '", p.name, "' must be of type ",
                                        arg_type_name(p.type), ", got ", arg_to_string(v)));
  if (!p.choices.empty()) {
    const auto& s = std::get<std::string>(v);
    if (std::find(p.choices.begin(), p.choices.end(), s) == p.choices.end()) {
      std::string allowed;
      for (const auto& c : p.choices) allowed += (allowed.empty() ? "'" : ", '") + c + "'";
      throw InvalidOperationError(err_msg("`", function, "`: parameter '", p.name, "' must be one of {", allowed,
                                          "}, got '", s, "'"));
    }
  }
  return v;
}

size_t mix(size_t h, size_t v) { return h ^ (v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2)); }

size_t hash_value(const ArgValue& v) {
  size_t h = v.index();
  std::visit(
      [&](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
        } else if constexpr (std::is_same_v<T, DataType>) {
          h = mix(h, x.hash());
        } else if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<double>> ||
                             std::is_same_v<T, std::vector<std::string>>) {
          for (const auto& e : x) h = mix(h, std::hash<typename T::value_type>()(e));
        } else {
          h = mix(h, std::hash<T>()(x));
        }
      },
      v);
  return h;
}

}  // namespace

Args::Args(std::span<const Param> params, std::vector<ArgValue> values)
    : params_(params), values_(std::move(values)) {
  FRAZIL_CHECK_OP(params_.size(), ==, values_.size());
}

Args Args::defaults(std::span<const Param> params) {
  std::vector<ArgValue> values;
  values.reserve(params.size());
  for (const auto& p : params) values.push_back(p.default_value);
  return Args(params, std::move(values));
}

Args Args::from_keywords(std::string_view function, std::span<const Param> params,
                         std::vector<std::pair<std::string, ArgValue>> keywords) {
  Args out = defaults(params);
  for (auto& [name, value] : keywords) {
    auto it = std::find_if(params.begin(), params.end(), [&](const Param& p) { return p.name == name; });
    if (it == params.end()) {
      std::string known;
      for (const auto& p : params) known += (known.empty() ? "'" : ", '") + p.name + "'";
      throw InvalidOperationError(err_msg("`", function, "` has no parameter '", name, "'",
                                          known.empty() ? std::string(" (it takes none)") : " (it takes " + known + ")"));
    }
    out.values_[static_cast<size_t>(it - params.begin())] = conform(function, *it, std::move(value));
  }
  return out;
}

size_t Args::index_of(std::string_view name) const {
  for (size_t i = 0; i < params_.size(); ++i)
    if (params_[i].name == name) return i;
  throw InternalError(err_msg("function parameter '", name, "' is not declared"));
}

const ArgValue& Args::value(std::string_view name) const { return values_[index_of(name)]; }

namespace {
template <typename T>
const T& get_as(const ArgValue& v, std::string_view name) {
  if (const T* x = std::get_if<T>(&v)) return *x;
  throw InternalError(err_msg("function parameter '", name, "' read as the wrong type"));
}
}  // namespace

bool Args::get_bool(std::string_view name) const { return get_as<bool>(value(name), name); }
int64_t Args::get_int(std::string_view name) const { return get_as<int64_t>(value(name), name); }
double Args::get_float(std::string_view name) const { return get_as<double>(value(name), name); }
const std::string& Args::get_string(std::string_view name) const { return get_as<std::string>(value(name), name); }
const std::vector<int64_t>& Args::get_int_list(std::string_view name) const {
  return get_as<std::vector<int64_t>>(value(name), name);
}
const std::vector<std::string>& Args::get_string_list(std::string_view name) const {
  return get_as<std::vector<std::string>>(value(name), name);
}
bool Args::is_none(std::string_view name) const { return std::holds_alternative<std::monostate>(value(name)); }

std::optional<int64_t> Args::get_optional_int(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_int(name);
}
std::optional<double> Args::get_optional_float(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_float(name);
}
std::optional<std::string> Args::get_optional_string(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_string(name);
}
std::optional<DataType> Args::get_dtype(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return get_as<DataType>(value(name), name);
}

Args Args::with(std::string_view name, ArgValue value) const {
  Args out = *this;
  const size_t i = index_of(name);
  out.values_[i] = conform("?", params_[i], std::move(value));
  return out;
}

size_t Args::hash() const {
  size_t h = values_.size();
  for (const auto& v : values_) h = mix(h, hash_value(v));
  return h;
}

std::string arg_to_string(const ArgValue& value) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return "null";
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          return err_msg(x);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return "\"" + x + "\"";
        } else if constexpr (std::is_same_v<T, DataType>) {
          return x.to_string();
        } else {
          std::string s = "[";
          for (size_t i = 0; i < x.size(); ++i) s += (i ? ", " : "") + arg_to_string(ArgValue(x[i]));
          return s + "]";
        }
      },
      value);
}

}  // namespace frazil::functions
