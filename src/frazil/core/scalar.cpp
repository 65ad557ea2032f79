#include "frazil/core/scalar.hpp"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "frazil/core/builder.hpp"
#include "frazil/core/calendar.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/half.hpp"
#include "frazil/core/tz.hpp"
#include "frazil/core/error.hpp"

namespace frazil {

double Scalar::to_double() const {
  return std::visit(
      [](const auto& v) -> double {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                      std::is_same_v<T, uint64_t> || std::is_same_v<T, double>)
          return static_cast<double>(v);
        else if constexpr (std::is_same_v<T, int128_t>)
          return static_cast<double>(v);
        else
          throw InvalidOperationError("scalar is not numeric");
      },
      value_);
}

static uint64_t canonical_float_bits(double d) {
  if (std::isnan(d)) return 0x7ff8000000000000ULL;
  if (d == 0.0) return 0;  // -0.0 == 0.0
  return std::bit_cast<uint64_t>(d);
}

bool Scalar::operator==(const Scalar& o) const {
  if (dtype_ != o.dtype_ || value_.index() != o.value_.index()) return false;
  if (auto* d = std::get_if<double>(&value_))
    return canonical_float_bits(*d) == canonical_float_bits(std::get<double>(o.value_));
  if (auto* a = std::get_if<ArrayRef>(&value_)) {
    const auto& b = std::get<ArrayRef>(o.value_);
    if ((*a)->length() != b->length()) return false;
    for (int64_t i = 0; i < b->length(); ++i)
      if (!(array_get(**a, i) == array_get(*b, i))) return false;
    return true;
  }
  if (auto* s = std::get_if<StructValues>(&value_)) return **s == *std::get<StructValues>(o.value_);
  return value_ == o.value_;
}

size_t Scalar::hash() const {
  size_t h = dtype_.hash();
  auto mix = [&h](size_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) mix(0x1234);
        else if constexpr (std::is_same_v<T, double>) mix(canonical_float_bits(v));
        else if constexpr (std::is_same_v<T, std::string>) mix(std::hash<std::string>()(v));
        else if constexpr (std::is_same_v<T, int128_t>) {
          mix(static_cast<uint64_t>(v));
          mix(static_cast<uint64_t>(v >> 64));
        } else if constexpr (std::is_same_v<T, ArrayRef>) {
          mix(v->length());
          for (int64_t i = 0; i < v->length(); ++i) mix(array_get(*v, i).hash());
        } else if constexpr (std::is_same_v<T, StructValues>) {
          for (const auto& s : *v) mix(s.hash());
        } else mix(static_cast<size_t>(v));
      },
      value_);
  return h;
}

// Polars' float display: integral values below 999999 as "1.0"; values whose shortest
// decimal form is longer than 9 characters in scientific notation with 4 digits
// ("1.2346e8") when very large or small, else with up to 6 decimals; everything else as
// the shortest decimal form.
static std::string format_float(double d, bool is32) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[512];
  if (d == std::trunc(d) && std::fabs(d) < 999999.0) {
    std::snprintf(buf, sizeof buf, "%.1f", d);
    return buf;
  }
  auto res = is32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(d), std::chars_format::fixed)
                  : std::to_chars(buf, buf + sizeof buf, d, std::chars_format::fixed);
  std::string shortest(buf, res.ptr);
  if (shortest.size() <= 9) return shortest;
  const double a = std::fabs(d);
  if (a < 0.000001 || a > 999999.0) {
    std::snprintf(buf, sizeof buf, "%.4e", d);
    // C prints "1.0000e+20"; Polars (Rust) prints "1.0000e20".
    std::string s(buf);
    auto e = s.find('e');
    std::string mant = s.substr(0, e), exp = s.substr(e + 1);
    bool neg = exp[0] == '-';
    exp.erase(0, 1);
    while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
    return mant + "e" + (neg ? "-" : "") + exp;
  }
  std::snprintf(buf, sizeof buf, "%.6f", d);
  std::string s(buf);
  while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

static std::string int128_to_string(int128_t v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  unsigned __int128 u = neg ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  while (u) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (neg) s.push_back('-');
  return std::string(s.rbegin(), s.rend());
}

static std::string uint128_to_string(unsigned __int128 u) {
  if (u == 0) return "0";
  std::string s;
  while (u) {
    s.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  return std::string(s.rbegin(), s.rend());
}

std::string Scalar::to_string() const {
  if (is_null()) return "null";
  switch (dtype_.id()) {
    case TypeId::Boolean: return as_bool() ? "true" : "false";
    case TypeId::Float32: return format_float(as_double(), true);
    case TypeId::Float64: return format_float(as_double(), false);
    case TypeId::Float16: return format_float(as_double(), true);
    // A 128-bit integer scalar holds its bits as int128 (UInt128 reinterpreted).
    case TypeId::Int128: return int128_to_string(as_int128());
    case TypeId::UInt128: return uint128_to_string(static_cast<unsigned __int128>(as_int128()));
    case TypeId::String:
    case TypeId::Categorical:
    case TypeId::Enum: return as_string();
    case TypeId::Binary: {
      std::string s = "b\"";
      for (unsigned char c : as_string()) {
        if (c >= 32 && c < 127 && c != '"' && c != '\\') s.push_back(static_cast<char>(c));
        else {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          s += buf;
        }
      }
      return s + "\"";
    }
    case TypeId::Date: return format_date(static_cast<int32_t>(as_int64()));
    case TypeId::Datetime:
      if (dtype_.time_zone()) return tz::format_display(as_int64(), dtype_.time_unit(), *dtype_.time_zone());
      return format_datetime(as_int64(), dtype_.time_unit());
    case TypeId::Duration: return format_duration(as_int64(), dtype_.time_unit());
    case TypeId::Time: return format_time(as_int64());
    case TypeId::Decimal: {
      std::string digits = int128_to_string(as_int128());
      int scale = dtype_.scale();
      if (scale <= 0) return digits;
      bool neg = digits[0] == '-';
      if (neg) digits.erase(0, 1);
      while (static_cast<int>(digits.size()) <= scale) digits.insert(0, "0");
      digits.insert(digits.size() - scale, ".");
      return (neg ? "-" : "") + digits;
    }
    case TypeId::Array:
    case TypeId::List: {
      const auto& a = as_list();
      std::string s = "[";
      for (int64_t i = 0; i < a->length(); ++i) {
        if (i) s += ", ";
        Scalar e = array_get(*a, i);
        s += e.dtype().is_string() && !e.is_null() ? "\"" + e.to_string() + "\"" : e.to_string();
      }
      return s + "]";
    }
    case TypeId::Struct: {
      std::string s = "{";
      const auto& vals = as_struct();
      for (size_t i = 0; i < vals.size(); ++i) {
        if (i) s += ",";
        s += vals[i].dtype().is_string() && !vals[i].is_null() ? "\"" + vals[i].to_string() + "\""
                                                             : vals[i].to_string();
      }
      return s + "}";
    }
    default:
      if (dtype_.is_unsigned_integer()) return std::to_string(as_uint64());
      return std::to_string(as_int64());
  }
}

Scalar array_get(const Array& a, int64_t i) {
  FRAZIL_CHECK(i >= 0 && i < a.length());
  const DataType& t = a.dtype();
  if (!a.is_valid(i)) return Scalar::null(t);
  switch (t.id()) {
    case TypeId::Boolean: return Scalar(t, a.bool_value(i));
    case TypeId::Int8: return Scalar(t, int64_t(a.values<int8_t>()[i]));
    case TypeId::Int16: return Scalar(t, int64_t(a.values<int16_t>()[i]));
    case TypeId::Int32:
    case TypeId::Date: return Scalar(t, int64_t(a.values<int32_t>()[i]));
    case TypeId::Int64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return Scalar(t, a.values<int64_t>()[i]);
    case TypeId::UInt8: return Scalar(t, uint64_t(a.values<uint8_t>()[i]));
    case TypeId::UInt16: return Scalar(t, uint64_t(a.values<uint16_t>()[i]));
    case TypeId::UInt32: return Scalar(t, uint64_t(a.values<uint32_t>()[i]));
    case TypeId::UInt64: return Scalar(t, a.values<uint64_t>()[i]);
    case TypeId::Float32: return Scalar(t, double(a.values<float>()[i]));
    case TypeId::Float64: return Scalar(t, a.values<double>()[i]);
    case TypeId::String:
    case TypeId::Binary: return Scalar(t, std::string(a.str_value(i)));
    // A Categorical/Enum scalar holds its string (codes are only meaningful in arrays).
    case TypeId::Categorical:
    case TypeId::Enum: return Scalar(t, t.categories().get(a.values<uint32_t>()[i]));
    case TypeId::Int128:
    case TypeId::UInt128: {
      int128_t v;
      std::memcpy(&v, a.buffer(0).data() + (a.offset() + i) * 16, 16);
      return Scalar(t, v);
    }
    case TypeId::Float16: return Scalar(t, double(half_to_float(a.values<uint16_t>()[i])));
    case TypeId::Decimal: {
      int128_t v;
      std::memcpy(&v, a.buffer(0).data() + (a.offset() + i) * 16, 16);
      return Scalar(t, v);
    }
    case TypeId::Array:
    case TypeId::List: {
      const int64_t* o = a.list_offsets();
      return Scalar(t, a.child(0)->slice(o[i], o[i + 1] - o[i]));
    }
    case TypeId::Struct: {
      auto vals = std::make_shared<std::vector<Scalar>>();
      for (size_t f = 0; f < a.children().size(); ++f)
        vals->push_back(array_get(*a.child(f), a.offset() + i));
      return Scalar(t, Scalar::StructValues(std::move(vals)));
    }
    case TypeId::Null: break;
  }
  return Scalar::null(t);
}

template <typename T>
static ArrayRef repeat_fixed(const DataType& t, T v, int64_t n) {
  Buffer b = Buffer::allocate(n * sizeof(T));
  T* p = b.mutable_as<T>();
  for (int64_t i = 0; i < n; ++i) p[i] = v;
  return Array::make(t, n, Buffer(), {b});
}

ArrayRef scalar_to_array(const Scalar& s, int64_t n) {
  const DataType& t = s.dtype();
  if (s.is_null()) return make_null_array(t, n);
  switch (t.id()) {
    case TypeId::Boolean: {
      Buffer b = Buffer::allocate(bitmap_bytes(n));
      std::memset(b.mutable_data(), s.as_bool() ? 0xff : 0, bitmap_bytes(n));
      return Array::make(t, n, Buffer(), {b});
    }
    case TypeId::Int8: return repeat_fixed<int8_t>(t, static_cast<int8_t>(s.as_int64()), n);
    case TypeId::Int16: return repeat_fixed<int16_t>(t, static_cast<int16_t>(s.as_int64()), n);
    case TypeId::Int32:
    case TypeId::Date: return repeat_fixed<int32_t>(t, static_cast<int32_t>(s.as_int64()), n);
    case TypeId::Int64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return repeat_fixed<int64_t>(t, s.as_int64(), n);
    case TypeId::UInt8: return repeat_fixed<uint8_t>(t, static_cast<uint8_t>(s.as_uint64()), n);
    case TypeId::UInt16: return repeat_fixed<uint16_t>(t, static_cast<uint16_t>(s.as_uint64()), n);
    case TypeId::UInt32: return repeat_fixed<uint32_t>(t, static_cast<uint32_t>(s.as_uint64()), n);
    case TypeId::UInt64: return repeat_fixed<uint64_t>(t, s.as_uint64(), n);
    case TypeId::Float32: return repeat_fixed<float>(t, static_cast<float>(s.as_double()), n);
    case TypeId::Float64: return repeat_fixed<double>(t, s.as_double(), n);
    case TypeId::Decimal:
    case TypeId::Int128:
    case TypeId::UInt128: return repeat_fixed<int128_t>(t, s.as_int128(), n);
    case TypeId::Float16: return repeat_fixed<uint16_t>(t, double_to_half(s.as_double()), n);
    case TypeId::Categorical:
    case TypeId::Enum: {
      auto& cats = const_cast<Categories&>(t.categories());
      std::optional<uint32_t> code = cats.is_fixed() ? cats.find(s.as_string()) : cats.get_or_insert(s.as_string());
      if (!code)
        throw InvalidOperationError("value '" + s.as_string() + "' is not a category of " + t.to_string());
      return repeat_fixed<uint32_t>(t, *code, n);
    }
    case TypeId::String:
    case TypeId::Binary: {
      // One copy of the bytes, n views pointing at it.
      ViewBuilder b(t, 1);
      b.push(s.as_string());
      ArrayRef one = b.finish();
      Buffer views = Buffer::allocate(n * sizeof(View));
      View v = one->views()[0];
      for (int64_t i = 0; i < n; ++i) views.mutable_as<View>()[i] = v;
      std::vector<Buffer> bufs{views};
      for (size_t i = 1; i < one->buffers().size(); ++i) bufs.push_back(one->buffer(i));
      return Array::make(t, n, Buffer(), std::move(bufs));
    }
    case TypeId::Array:
    case TypeId::List: {
      const ArrayRef& values = s.as_list();
      int64_t m = values->length();
      Buffer offsets = Buffer::allocate((n + 1) * sizeof(int64_t));
      std::vector<ArrayRef> parts(n, values);
      for (int64_t i = 0; i <= n; ++i) offsets.mutable_as<int64_t>()[i] = i * m;
      ArrayRef child = n == 0 ? make_empty_array(t.inner()) : concat_arrays(parts);
      return Array::make(t, n, Buffer(), {offsets}, {child});
    }
    case TypeId::Struct: {
      std::vector<ArrayRef> children;
      for (const auto& v : s.as_struct()) children.push_back(scalar_to_array(v, n));
      return Array::make(t, n, Buffer(), {}, std::move(children));
    }
    case TypeId::Null: break;
  }
  return make_null_array(t, n);
}

}  // namespace frazil
