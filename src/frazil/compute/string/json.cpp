#include "frazil/compute/string/json.hpp"

#include <simdjson.h>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/cast_format.hpp"
#include "frazil/compute/string/string_util.hpp"
#include "frazil/compute/temporal/strptime.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/json_string.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::compute {

using namespace detail;
using simdjson::dom::element;
using simdjson::dom::element_type;

namespace {

[[noreturn]] void deserialize_error(const std::string& what) {
  throw ComputeError("error deserializing JSON: " + what);
}

// The value as Polars names it in errors ("String(\"x\")", "Array([...])").
std::string describe(const element& e) {
  switch (e.type()) {
    case element_type::STRING: return "String(\"" + std::string(e.get_string().value()) + "\")";
    case element_type::ARRAY: return "Array([...])";
    case element_type::OBJECT: return "Object({...})";
    case element_type::BOOL: return e.get_bool().value() ? "Static(Bool(true))" : "Static(Bool(false))";
    default: return simdjson::to_string(e);
  }
}

// ---- serialization (serde_json's compact form) -----------------------------------------

void serialize(const element& e, std::string& out) {
  switch (e.type()) {
    case element_type::NULL_VALUE: out += "null"; break;
    case element_type::BOOL: out += e.get_bool().value() ? "true" : "false"; break;
    case element_type::INT64: out += std::to_string(e.get_int64().value()); break;
    case element_type::UINT64: out += std::to_string(e.get_uint64().value()); break;
    case element_type::DOUBLE: out += format_float(e.get_double().value()); break;
    case element_type::STRING: append_json_string(out, e.get_string().value()); break;
    case element_type::ARRAY: {
      out.push_back('[');
      bool first = true;
      const simdjson::dom::array arr = e.get_array().value();  // (a copy: value() of a temporary dangles)
      for (element x : arr) {
        if (!first) out.push_back(',');
        first = false;
        serialize(x, out);
      }
      out.push_back(']');
      break;
    }
    case element_type::OBJECT: {
      out.push_back('{');
      bool first = true;
      const simdjson::dom::object obj = e.get_object().value();
      for (auto field : obj) {
        if (!first) out.push_back(',');
        first = false;
        append_json_string(out, field.key);
        out.push_back(':');
        serialize(field.value, out);
      }
      out.push_back('}');
      break;
    }
  }
}

// ---- decoding into a dtype --------------------------------------------------------------

class Decoder {
 public:
  virtual ~Decoder() = default;
  virtual void append(const element* e) = 0;  // nullptr: null
  virtual ArrayRef finish() = 0;
};

std::unique_ptr<Decoder> make_decoder(const DataType& t);

class NullDecoder final : public Decoder {
 public:
  void append(const element*) override { ++n_; }
  ArrayRef finish() override { return make_null_array(DataType::null(), n_); }

 private:
  int64_t n_ = 0;
};

class BoolDecoder final : public Decoder {
 public:
  void append(const element* e) override {
    if (!e || e->is_null()) return b_.push_null();
    if (e->type() != element_type::BOOL) deserialize_error("error deserializing value \"" + describe(*e) + "\" as bool.");
    b_.push(e->get_bool().value());
  }
  ArrayRef finish() override { return b_.finish(); }

 private:
  BooleanBuilder b_;
};

template <typename T>
class NumberDecoder final : public Decoder {
 public:
  explicit NumberDecoder(DataType t) : b_(std::move(t)) {}
  void append(const element* e) override {
    if (!e || e->is_null()) return b_.push_null();
    double d = 0;
    int64_t i = 0;
    uint64_t u = 0;
    switch (e->type()) {
      case element_type::INT64: i = e->get_int64().value(); return push_int(static_cast<__int128>(i));
      case element_type::UINT64: u = e->get_uint64().value(); return push_int(static_cast<__int128>(u));
      case element_type::DOUBLE: d = e->get_double().value(); break;
      case element_type::BOOL: return push_int(e->get_bool().value() ? 1 : 0);
      default: deserialize_error("error deserializing value \"" + describe(*e) + "\" as numeric.");
    }
    if constexpr (std::is_floating_point_v<T>) {
      b_.push(static_cast<T>(d));
    } else {
      // A float read as an integer is truncated; out of range gives null.
      if (!std::isfinite(d) || d < static_cast<double>(std::numeric_limits<T>::min()) ||
          d >= static_cast<double>(std::numeric_limits<T>::max()) + 1.0)
        return b_.push_null();
      b_.push(static_cast<T>(d));
    }
  }
  ArrayRef finish() override { return b_.finish(); }

 private:
  void push_int(__int128 v) {
    if constexpr (std::is_floating_point_v<T>) {
      b_.push(static_cast<T>(v));
    } else {
      if (v < static_cast<__int128>(std::numeric_limits<T>::min()) || v > static_cast<__int128>(std::numeric_limits<T>::max()))
        return b_.push_null();
      b_.push(static_cast<T>(v));
    }
  }
  PrimitiveBuilder<T> b_;
};

class StringDecoder final : public Decoder {
 public:
  void append(const element* e) override {
    if (!e || e->is_null()) return b_.push_null();
    switch (e->type()) {
      case element_type::STRING: return b_.push(e->get_string().value());
      case element_type::ARRAY:
      case element_type::OBJECT:
        deserialize_error("error deserializing value \"" + describe(*e) + "\" as string.");
      default: {
        std::string s;
        serialize(*e, s);
        b_.push(s);
      }
    }
  }
  ArrayRef finish() override { return b_.finish(); }

 private:
  ViewBuilder b_{DataType::string()};
};

// Dates and datetimes from JSON strings, parsed as str.to_date / to_datetime would. Polars
// also reads a Date from a number of days and a Time from nanoseconds since midnight (null
// outside the day); a Datetime takes strings only.
class TemporalDecoder final : public Decoder {
 public:
  explicit TemporalDecoder(DataType t) : t_(std::move(t)) {}
  void append(const element* e) override {
    numbers_.emplace_back();
    if (!e || e->is_null()) return texts_.push_null();
    if (e->type() == element_type::STRING) return texts_.push(e->get_string().value());
    const bool number =
        e->type() == element_type::INT64 || e->type() == element_type::UINT64 || e->type() == element_type::DOUBLE;
    if (!number || t_.id() == TypeId::Datetime)
      deserialize_error("error deserializing value \"" + describe(*e) + "\" as " +
                        (t_.id() == TypeId::Datetime ? std::string("timestamp") : t_.to_string()) + ".");
    texts_.push_null();
    const double d = e->type() == element_type::DOUBLE ? e->get_double().value()
                     : e->type() == element_type::INT64 ? static_cast<double>(e->get_int64().value())
                                                        : static_cast<double>(e->get_uint64().value());
    int64_t v = e->type() == element_type::INT64 ? e->get_int64().value() : static_cast<int64_t>(d);
    constexpr int64_t kDayNs = 86'400'000'000'000;
    if (t_.id() == TypeId::Time && (v < 0 || v >= kDayNs)) return;  // null
    if (t_.id() == TypeId::Date && (v < INT32_MIN || v > INT32_MAX)) return;
    numbers_.back() = v;
    any_number_ = true;
  }
  ArrayRef finish() override {
    ArrayRef s = texts_.finish();
    StrptimeOptions o;
    o.strict = false;
    ArrayRef parsed;
    if (t_.id() == TypeId::Date) parsed = str_to_date(*s, o);
    else if (t_.id() == TypeId::Time) parsed = str_to_time(*s, o);
    else return str_to_datetime(*s, t_.time_unit(), t_.time_zone(), o, *scalar_to_array(Scalar::string("raise"), 1));
    if (!any_number_) return parsed;
    // Splice the numbers in.
    if (t_.id() == TypeId::Date) {
      PrimitiveBuilder<int32_t> b(t_);
      for (int64_t i = 0; i < parsed->length(); ++i) {
        if (numbers_[i]) b.push(static_cast<int32_t>(*numbers_[i]));
        else if (parsed->is_null(i)) b.push_null();
        else b.push(parsed->values<int32_t>()[i]);
      }
      return b.finish();
    }
    PrimitiveBuilder<int64_t> b(t_);
    for (int64_t i = 0; i < parsed->length(); ++i) {
      if (numbers_[i]) b.push(*numbers_[i]);
      else if (parsed->is_null(i)) b.push_null();
      else b.push(parsed->values<int64_t>()[i]);
    }
    return b.finish();
  }

 private:
  DataType t_;
  ViewBuilder texts_{DataType::string()};
  std::vector<std::optional<int64_t>> numbers_;
  bool any_number_ = false;
};

class ListDecoder final : public Decoder {
 public:
  explicit ListDecoder(const DataType& t) : t_(t), inner_(make_decoder(t.inner())) { offsets_.push_back(0); }
  void append(const element* e) override {
    if (!e || e->is_null()) {
      validity_.push(false);
    } else {
      if (e->type() == element_type::OBJECT)
        deserialize_error("error deserializing value \"" + describe(*e) + "\" as list.");
      if (e->type() == element_type::ARRAY) {
        const simdjson::dom::array arr = e->get_array().value();
        for (element x : arr) {
          inner_->append(&x);
          ++count_;
        }
      } else {  // Polars reads a lone value as a list of it
        inner_->append(e);
        ++count_;
      }
      validity_.push(true);
    }
    offsets_.push_back(count_);
  }
  ArrayRef finish() override {
    const int64_t n = static_cast<int64_t>(offsets_.size()) - 1;
    Buffer off = Buffer::allocate(offsets_.size() * sizeof(int64_t));
    std::memcpy(off.mutable_data(), offsets_.data(), offsets_.size() * sizeof(int64_t));
    const int64_t nulls = validity_.null_count();
    return Array::make(t_, n, validity_.finish(), {off}, {inner_->finish()}, 0, nulls);
  }

 private:
  DataType t_;
  std::unique_ptr<Decoder> inner_;
  std::vector<int64_t> offsets_;
  int64_t count_ = 0;
  ValidityBuilder validity_;
};

class StructDecoder final : public Decoder {
 public:
  explicit StructDecoder(const DataType& t) : t_(t) {
    for (const Field& f : t.fields()) fields_.push_back(make_decoder(f.dtype));
  }
  void append(const element* e) override {
    if (!e || e->is_null()) {
      // Polars: a null object gives a null struct.
      for (auto& f : fields_) f->append(nullptr);
      validity_.push(false);
      ++n_;
      return;
    }
    if (e->type() != element_type::OBJECT)
      deserialize_error("error deserializing value \"" + describe(*e) + "\" as struct.");
    const auto obj = e->get_object().value();
    for (size_t k = 0; k < fields_.size(); ++k) {
      auto v = obj[t_.fields()[k].name];
      if (v.error()) fields_[k]->append(nullptr);
      else {
        element x = v.value();
        fields_[k]->append(&x);
      }
    }
    validity_.push(true);
    ++n_;
  }
  ArrayRef finish() override {
    std::vector<ArrayRef> children;
    for (auto& f : fields_) children.push_back(f->finish());
    const int64_t nulls = validity_.null_count();
    return Array::make(t_, n_, validity_.finish(), {}, std::move(children), 0, nulls);
  }

 private:
  DataType t_;
  std::vector<std::unique_ptr<Decoder>> fields_;
  ValidityBuilder validity_;
  int64_t n_ = 0;
};

// Int128/UInt128/Float16: decoded through the nearest 64-bit (32 for Float16) type, then
// cast, so values beyond 64 bits are not read (simdjson's numbers stop there).
class WideningDecoder final : public Decoder {
 public:
  WideningDecoder(const DataType& via, DataType to) : via_(make_decoder(via)), to_(std::move(to)) {}
  void append(const element* e) override { via_->append(e); }
  ArrayRef finish() override { return cast(*via_->finish(), to_, /*strict=*/true, "json_decode"); }

 private:
  std::unique_ptr<Decoder> via_;
  DataType to_;
};

std::unique_ptr<Decoder> make_decoder(const DataType& t) {
  switch (t.id()) {
    case TypeId::Int128: return std::make_unique<WideningDecoder>(DataType::int64(), t);
    case TypeId::UInt128: return std::make_unique<WideningDecoder>(DataType::uint64(), t);
    case TypeId::Float16: return std::make_unique<WideningDecoder>(DataType::float32(), t);
    case TypeId::Null: return std::make_unique<NullDecoder>();
    case TypeId::Boolean: return std::make_unique<BoolDecoder>();
    case TypeId::String: return std::make_unique<StringDecoder>();
    case TypeId::Date:
    case TypeId::Datetime:
    case TypeId::Time: return std::make_unique<TemporalDecoder>(t);
    case TypeId::List: return std::make_unique<ListDecoder>(t);
    case TypeId::Struct: return std::make_unique<StructDecoder>(t);
    default:
      if (t.is_primitive_numeric())
        return dispatch_numeric(t.id(), [&](auto tag) -> std::unique_ptr<Decoder> {
          using T = typename decltype(tag)::type;
          return std::make_unique<NumberDecoder<T>>(t);
        });
  }
  throw InvalidOperationError(err_msg("`json_decode` does not support dtype ", t));
}

// ---- JSONPath ----------------------------------------------------------------------------

struct Step {
  enum Kind { Key, Index, Wildcard } kind;
  std::string key;
  int64_t index = 0;
};

std::vector<Step> parse_path(std::string_view p) {
  auto bad = [&]() -> void { throw ComputeError(err_msg("error compiling JSONpath expression: invalid path '", p, "'")); };
  std::vector<Step> steps;
  size_t i = 0;
  if (p.empty() || p[0] != '$') bad();
  ++i;
  while (i < p.size()) {
    if (p[i] == '.') {
      ++i;
      if (i < p.size() && p[i] == '*') {
        steps.push_back({Step::Wildcard, "", 0});
        ++i;
        continue;
      }
      size_t j = i;
      while (j < p.size() && p[j] != '.' && p[j] != '[') ++j;
      if (j == i) bad();
      steps.push_back({Step::Key, std::string(p.substr(i, j - i)), 0});
      i = j;
    } else if (p[i] == '[') {
      ++i;
      if (i < p.size() && (p[i] == '\'' || p[i] == '"')) {
        const char q = p[i++];
        const size_t close = p.find(q, i);
        if (close == std::string_view::npos) bad();
        steps.push_back({Step::Key, std::string(p.substr(i, close - i)), 0});
        i = close + 1;
      } else if (i < p.size() && p[i] == '*') {
        steps.push_back({Step::Wildcard, "", 0});
        ++i;
      } else {
        size_t j = i;
        if (j < p.size() && p[j] == '-') ++j;
        while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
        if (j == i) bad();
        steps.push_back({Step::Index, "", std::stoll(std::string(p.substr(i, j - i)))});
        i = j;
      }
      if (i >= p.size() || p[i] != ']') bad();
      ++i;
    } else {
      bad();
    }
  }
  return steps;
}

// The first element the steps reach from `e` (depth first, in document order).
bool first_match(const element& e, const std::vector<Step>& steps, size_t k, element& out) {
  if (k == steps.size()) {
    out = e;
    return true;
  }
  const Step& s = steps[k];
  if (s.kind == Step::Key) {
    if (e.type() != element_type::OBJECT) return false;
    auto v = e.get_object().value()[s.key];
    return !v.error() && first_match(v.value(), steps, k + 1, out);
  }
  if (s.kind == Step::Index) {
    if (e.type() != element_type::ARRAY) return false;
    const auto arr = e.get_array().value();
    int64_t idx = s.index < 0 ? static_cast<int64_t>(arr.size()) + s.index : s.index;
    if (idx < 0) return false;
    auto v = arr.at(static_cast<size_t>(idx));
    return !v.error() && first_match(v.value(), steps, k + 1, out);
  }
  if (e.type() == element_type::ARRAY) {
    const simdjson::dom::array arr = e.get_array().value();
    for (element x : arr)
      if (first_match(x, steps, k + 1, out)) return true;
  } else if (e.type() == element_type::OBJECT) {
    const simdjson::dom::object obj = e.get_object().value();
    for (auto f : obj)
      if (first_match(f.value, steps, k + 1, out)) return true;
  }
  return false;
}

}  // namespace

ArrayRef str_json_decode(const Array& values, const DataType& dtype) {
  require_string(values, "str.json_decode");
  auto decoder = make_decoder(dtype);
  simdjson::dom::parser parser;
  for (int64_t i = 0; i < values.length(); ++i) {
    if (values.dtype().is_null() || values.is_null(i)) {
      decoder->append(nullptr);
      continue;
    }
    const std::string_view s = values.str_value(i);
    auto doc = parser.parse(s.data(), s.size());
    if (doc.error())
      deserialize_error(err_msg("json parsing error: '", simdjson::error_message(doc.error()), "' in row ", i));
    element e = doc.value();
    decoder->append(&e);
  }
  return decoder->finish();
}

ArrayRef str_json_path_match(const Array& values, const Array& path) {
  require_string(values, "str.json_path_match");
  const int64_t n = output_length(values, {&path}, "str.json_path_match");
  StrArg p(path, n, "str.json_path_match");
  if (values.dtype().is_null()) return make_null_array(DataType::string(), n);
  simdjson::dom::parser parser;
  std::unordered_map<std::string, std::vector<Step>> compiled;
  ViewBuilder b(DataType::string(), n);
  std::string out;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.is_null(r) || p.is_null(i)) {
      b.push_null();
      continue;
    }
    const std::string key(p.at(i));
    auto it = compiled.find(key);
    if (it == compiled.end()) it = compiled.emplace(key, parse_path(key)).first;
    const std::string_view s = values.str_value(r);
    auto doc = parser.parse(s.data(), s.size());
    element m;
    if (doc.error() || !first_match(doc.value(), it->second, 0, m) || m.is_null()) {
      b.push_null();
      continue;
    }
    out.clear();
    if (m.type() == element_type::STRING) out.assign(m.get_string().value());
    else serialize(m, out);
    b.push(out);
  }
  return b.finish();
}

}  // namespace frazil::compute
