#include "frazil/core/dtype.hpp"

#include <ostream>

#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil {

const char* time_unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Nanoseconds: return "ns";
    case TimeUnit::Microseconds: return "us";
    case TimeUnit::Milliseconds: return "ms";
  }
  return "?";
}

static const char* short_unit_name(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Nanoseconds: return "ns";
    case TimeUnit::Microseconds: return "μs";
    case TimeUnit::Milliseconds: return "ms";
  }
  return "?";
}

DataType DataType::datetime(TimeUnit unit, std::optional<std::string> tz) {
  DataType t(TypeId::Datetime);
  t.unit_ = unit;
  t.tz_ = std::move(tz);
  return t;
}

DataType DataType::duration(TimeUnit unit) {
  DataType t(TypeId::Duration);
  t.unit_ = unit;
  return t;
}

DataType DataType::decimal(int precision, int scale) {
  DataType t(TypeId::Decimal);
  t.precision_ = precision;
  t.scale_ = scale;
  return t;
}

DataType DataType::list(DataType inner) {
  DataType t(TypeId::List);
  t.inner_ = std::make_shared<const DataType>(std::move(inner));
  return t;
}

DataType DataType::array(DataType inner, int64_t width) {
  DataType t(TypeId::Array);
  t.inner_ = std::make_shared<const DataType>(std::move(inner));
  t.width_ = width;
  return t;
}

DataType DataType::struct_(std::vector<Field> fields) {
  DataType t(TypeId::Struct);
  t.fields_ = std::make_shared<const std::vector<Field>>(std::move(fields));
  return t;
}

DataType DataType::categorical() {
  DataType t(TypeId::Categorical);
  t.categories_ = Categories::global();
  return t;
}

DataType DataType::enum_(std::shared_ptr<const Categories> categories) {
  DataType t(TypeId::Enum);
  t.categories_ = std::move(categories);
  return t;
}

const Categories& DataType::categories() const {
  FRAZIL_CHECK(is_categorical());
  if (!categories_) {
    FRAZIL_CHECK(id_ == TypeId::Categorical);
    return *Categories::global();
  }
  return *categories_;
}

const DataType& DataType::inner() const {
  FRAZIL_CHECK((id_ == TypeId::List || id_ == TypeId::Array) && inner_);
  return *inner_;
}

const std::vector<Field>& DataType::fields() const {
  FRAZIL_CHECK(id_ == TypeId::Struct && fields_);
  return *fields_;
}

bool DataType::is_fixed_width() const {
  return is_primitive_numeric() || is_temporal() || id_ == TypeId::Decimal || is_categorical();
}

int DataType::byte_width() const {
  switch (id_) {
    case TypeId::Int8:
    case TypeId::UInt8: return 1;
    case TypeId::Int16:
    case TypeId::UInt16: return 2;
    case TypeId::Int32:
    case TypeId::UInt32:
    case TypeId::Float32:
    case TypeId::Categorical:
    case TypeId::Enum:
    case TypeId::Date: return 4;
    case TypeId::Int64:
    case TypeId::UInt64:
    case TypeId::Float64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return 8;
    case TypeId::Decimal:
    case TypeId::Int128:
    case TypeId::UInt128: return 16;
    case TypeId::Float16: return 2;
    case TypeId::String:
    case TypeId::Binary: return 16;  // the view
    default: return 0;
  }
}

DataType DataType::physical() const {
  switch (id_) {
    case TypeId::Date: return int32();
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return int64();
    case TypeId::Categorical:
    case TypeId::Enum: return uint32();
    default: return *this;
  }
}

std::string DataType::to_string() const {
  switch (id_) {
    case TypeId::Null: return "Null";
    case TypeId::Boolean: return "Boolean";
    case TypeId::Int8: return "Int8";
    case TypeId::Int16: return "Int16";
    case TypeId::Int32: return "Int32";
    case TypeId::Int64: return "Int64";
    case TypeId::UInt8: return "UInt8";
    case TypeId::UInt16: return "UInt16";
    case TypeId::UInt32: return "UInt32";
    case TypeId::UInt64: return "UInt64";
    case TypeId::Float32: return "Float32";
    case TypeId::Float64: return "Float64";
    case TypeId::String: return "String";
    case TypeId::Binary: return "Binary";
    case TypeId::Date: return "Date";
    case TypeId::Time: return "Time";
    case TypeId::Datetime:
      return err_msg("Datetime(time_unit='", time_unit_name(unit_), "', time_zone=",
                     tz_ ? "'" + *tz_ + "'" : std::string("None"), ")");
    case TypeId::Duration: return err_msg("Duration(time_unit='", time_unit_name(unit_), "')");
    case TypeId::Decimal: return err_msg("Decimal(precision=", precision_, ", scale=", scale_, ")");
    case TypeId::List: return "List(" + inner_->to_string() + ")";
    case TypeId::Array: {
      // Polars prints the innermost non-array type with the whole shape: Array(Int64, shape=(2, 3)).
      const DataType* t = this;
      std::string shape;
      while (t->id_ == TypeId::Array) {
        shape += (shape.empty() ? "" : ", ") + std::to_string(t->width_);
        t = t->inner_.get();
      }
      if (shape.find(',') == std::string::npos) shape += ",";
      return "Array(" + t->to_string() + ", shape=(" + shape + "))";
    }
    case TypeId::Struct: {
      std::string s = "Struct({";
      for (size_t i = 0; i < fields_->size(); ++i) {
        if (i) s += ", ";
        s += "'" + (*fields_)[i].name + "': " + (*fields_)[i].dtype.to_string();
      }
      return s + "})";
    }
    case TypeId::Int128: return "Int128";
    case TypeId::UInt128: return "UInt128";
    case TypeId::Float16: return "Float16";
    case TypeId::Categorical: return "Categorical";
    case TypeId::Enum: {
      std::string s = "Enum(categories=[";
      auto cats = categories_->strings();
      for (size_t i = 0; i < cats.size(); ++i) s += (i ? ", '" : "'") + cats[i] + "'";
      return s + "])";
    }
  }
  return "?";
}

std::string DataType::short_name() const {
  switch (id_) {
    case TypeId::Null: return "null";
    case TypeId::Boolean: return "bool";
    case TypeId::Int8: return "i8";
    case TypeId::Int16: return "i16";
    case TypeId::Int32: return "i32";
    case TypeId::Int64: return "i64";
    case TypeId::UInt8: return "u8";
    case TypeId::UInt16: return "u16";
    case TypeId::UInt32: return "u32";
    case TypeId::UInt64: return "u64";
    case TypeId::Float32: return "f32";
    case TypeId::Float64: return "f64";
    case TypeId::String: return "str";
    case TypeId::Binary: return "binary";
    case TypeId::Date: return "date";
    case TypeId::Time: return "time";
    case TypeId::Datetime:
      return err_msg("datetime[", short_unit_name(unit_), tz_ ? ", " + *tz_ : std::string(), "]");
    case TypeId::Duration: return err_msg("duration[", short_unit_name(unit_), "]");
    case TypeId::Decimal: return err_msg("decimal[", precision_, ",", scale_, "]");
    case TypeId::List: return "list[" + inner_->short_name() + "]";
    case TypeId::Array: {
      const DataType* t = this;
      std::vector<int64_t> shape;
      while (t->id_ == TypeId::Array) {
        shape.push_back(t->width_);
        t = t->inner_.get();
      }
      std::string dims;
      for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
      return "array[" + t->short_name() + ", " + (shape.size() > 1 ? "(" + dims + ")" : dims) + "]";
    }
    case TypeId::Struct: return err_msg("struct[", fields_->size(), "]");
    case TypeId::Categorical: return "cat";
    case TypeId::Enum: return "enum";
    case TypeId::Int128: return "i128";
    case TypeId::UInt128: return "u128";
    case TypeId::Float16: return "f16";
  }
  return "?";
}

bool DataType::operator==(const DataType& o) const {
  if (id_ != o.id_) return false;
  switch (id_) {
    case TypeId::Datetime: return unit_ == o.unit_ && tz_ == o.tz_;
    case TypeId::Duration: return unit_ == o.unit_;
    case TypeId::Decimal: return precision_ == o.precision_ && scale_ == o.scale_;
    case TypeId::List: return *inner_ == *o.inner_;
    case TypeId::Array: return width_ == o.width_ && *inner_ == *o.inner_;
    case TypeId::Struct: return *fields_ == *o.fields_;
    case TypeId::Enum: return categories_->same_categories(*o.categories_);
    default: return true;
  }
}

size_t DataType::hash() const {
  size_t h = static_cast<size_t>(id_) * 0x9E3779B97F4A7C15ULL;
  auto mix = [&h](size_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  switch (id_) {
    case TypeId::Datetime:
      mix(static_cast<size_t>(unit_));
      if (tz_) mix(std::hash<std::string>()(*tz_));
      break;
    case TypeId::Duration: mix(static_cast<size_t>(unit_)); break;
    case TypeId::Decimal: mix(precision_ * 131 + scale_); break;
    case TypeId::List: mix(inner_->hash()); break;
    case TypeId::Array:
      mix(inner_->hash());
      mix(static_cast<size_t>(width_));
      break;
    case TypeId::Struct:
      for (const auto& f : *fields_) {
        mix(std::hash<std::string>()(f.name));
        mix(f.dtype.hash());
      }
      break;
    case TypeId::Enum:
      for (const auto& c : categories_->strings()) mix(std::hash<std::string>()(c));
      break;
    default: break;
  }
  return h;
}

std::ostream& operator<<(std::ostream& os, const DataType& dtype) { return os << dtype.to_string(); }

static std::optional<TimeUnit> parse_unit(const std::string& s) {
  if (s == "ns") return TimeUnit::Nanoseconds;
  if (s == "us") return TimeUnit::Microseconds;
  if (s == "ms") return TimeUnit::Milliseconds;
  return std::nullopt;
}

namespace {

constexpr int kMaxParseDepth = 64;  // nesting a dtype text may declare (the parse recurses)

std::optional<DataType> parse_dtype_at(const std::string& name, int depth);

// Struct({'a': Int64, 'b': List(String)}), as to_string writes it. A field's dtype text ends
// at the first ", '" or "})" outside brackets and quotes.
std::optional<DataType> parse_struct(const std::string& name, int depth) {
  const std::string open = "Struct({", close = "})";
  if (name.rfind(open, 0) != 0 || name.size() < open.size() + close.size() ||
      name.compare(name.size() - close.size(), close.size(), close) != 0)
    return std::nullopt;
  const size_t end = name.size() - close.size();
  std::vector<Field> fields;
  size_t p = open.size();
  while (p < end) {
    if (name[p] != '\'') return std::nullopt;
    const size_t q = name.find('\'', p + 1);
    if (q == std::string::npos || q >= end || name.compare(q + 1, 2, ": ") != 0) return std::nullopt;
    std::string field = name.substr(p + 1, q - p - 1);
    size_t t = q + 3, level = 0;
    bool quoted = false;
    for (; t < end; ++t) {
      const char c = name[t];
      if (c == '\'') quoted = !quoted;
      else if (quoted) continue;
      else if (c == '(' || c == '[' || c == '{') ++level;
      else if (c == ')' || c == ']' || c == '}') {
        if (level == 0) return std::nullopt;
        --level;
      } else if (level == 0 && name.compare(t, 3, ", '") == 0) break;
    }
    auto dtype = parse_dtype_at(name.substr(q + 3, t - q - 3), depth + 1);
    if (!dtype) return std::nullopt;
    fields.push_back(Field{std::move(field), *dtype});
    p = t < end ? t + 2 : end;
  }
  return DataType::struct_(std::move(fields));
}

std::optional<DataType> parse_dtype_at(const std::string& name, int depth) {
  if (depth > kMaxParseDepth) return std::nullopt;
  static const std::pair<const char*, TypeId> simple[] = {
      {"Null", TypeId::Null},       {"Boolean", TypeId::Boolean}, {"Int8", TypeId::Int8},
      {"Int16", TypeId::Int16},     {"Int32", TypeId::Int32},     {"Int64", TypeId::Int64},
      {"UInt8", TypeId::UInt8},     {"UInt16", TypeId::UInt16},   {"UInt32", TypeId::UInt32},
      {"UInt64", TypeId::UInt64},   {"Float32", TypeId::Float32}, {"Float64", TypeId::Float64},
      {"String", TypeId::String},   {"Utf8", TypeId::String},     {"Binary", TypeId::Binary},
      {"Date", TypeId::Date},       {"Time", TypeId::Time},       {"Int128", TypeId::Int128},
      {"UInt128", TypeId::UInt128}, {"Float16", TypeId::Float16},
  };
  for (const auto& [n, id] : simple)
    if (name == n) return DataType(id);
  if (name == "Categorical") return DataType::categorical();
  // Datetime(time_unit='us', time_zone=None) / Duration(time_unit='ms')
  auto quoted_after = [&](const std::string& key) -> std::optional<std::string> {
    auto p = name.find(key + "='");
    if (p == std::string::npos) return std::nullopt;
    p += key.size() + 2;
    auto e = name.find('\'', p);
    if (e == std::string::npos) return std::nullopt;
    return name.substr(p, e - p);
  };
  if (name.rfind("Datetime", 0) == 0) {
    auto unit = parse_unit(quoted_after("time_unit").value_or("us"));
    if (!unit) return std::nullopt;
    return DataType::datetime(*unit, quoted_after("time_zone"));
  }
  if (name.rfind("Duration", 0) == 0) {
    auto unit = parse_unit(quoted_after("time_unit").value_or("us"));
    if (!unit) return std::nullopt;
    return DataType::duration(*unit);
  }
  // Enum(categories=['a', 'b']) (as to_string writes it; categories without quotes).
  if (name.rfind("Enum(categories=[", 0) == 0 && name.size() >= 19 && name.compare(name.size() - 2, 2, "])") == 0) {
    std::vector<std::string> cats;
    size_t p = 17;
    const size_t end = name.size() - 2;
    while (p < end) {
      if (name[p] != '\'') return std::nullopt;
      size_t q = name.find('\'', p + 1);
      if (q == std::string::npos || q > end) return std::nullopt;
      cats.push_back(name.substr(p + 1, q - p - 1));
      p = q + 1;
      if (p < end && name.compare(p, 2, ", ") == 0) p += 2;
    }
    try {
      return DataType::enum_(Categories::fixed(std::move(cats)));
    } catch (const Error&) {
      return std::nullopt;
    }
  }
  if (name.rfind("List(", 0) == 0 && name.back() == ')') {
    auto inner = parse_dtype_at(name.substr(5, name.size() - 6), depth + 1);
    if (!inner) return std::nullopt;
    return DataType::list(*inner);
  }
  if (name.rfind("Struct(", 0) == 0) return parse_struct(name, depth);
  // Array(Int64, shape=(2, 3)) (as to_string writes it).
  if (name.rfind("Array(", 0) == 0 && name.back() == ')') {
    auto p = name.rfind(", shape=(");
    if (p == std::string::npos) return std::nullopt;
    auto inner = parse_dtype_at(name.substr(6, p - 6), depth + 1);
    if (!inner) return std::nullopt;
    std::vector<int64_t> shape;
    std::string dims = name.substr(p + 9, name.size() - p - 11);
    size_t i = 0;
    while (i < dims.size()) {
      size_t j = dims.find(',', i);
      if (j == std::string::npos) j = dims.size();
      std::string d = dims.substr(i, j - i);
      while (!d.empty() && d.front() == ' ') d.erase(0, 1);
      if (!d.empty()) {
        if (d.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
        shape.push_back(std::stoll(d));
      }
      i = j + 1;
    }
    if (shape.empty()) return std::nullopt;
    DataType t = *inner;
    for (size_t k = shape.size(); k-- > 0;) t = DataType::array(t, shape[k]);
    return t;
  }
  return std::nullopt;
}

}  // namespace

std::optional<DataType> parse_dtype(const std::string& name) { return parse_dtype_at(name, 0); }

}  // namespace frazil
