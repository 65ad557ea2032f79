#include "frazil/compute/string/convert.hpp"

#include "frazil/compute/cast_format.hpp"
#include "frazil/compute/string/string_util.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

enum class IntError { None, Empty, InvalidDigit, PosOverflow, NegOverflow };

const char* reason(IntError e) {
  switch (e) {
    case IntError::Empty: return "cannot parse integer from empty string";
    case IntError::InvalidDigit: return "invalid digit found in string";
    case IntError::PosOverflow: return "number too large to fit in target type";
    case IntError::NegOverflow: return "number too small to fit in target type";
    case IntError::None: break;
  }
  return "";
}

// Rust's from_str_radix into [lo, hi].
IntError parse_radix(std::string_view s, int base, __int128 lo, __int128 hi, __int128& out) {
  if (s.empty()) return IntError::Empty;
  size_t p = 0;
  bool neg = false;
  if (s[0] == '+' || s[0] == '-') {
    neg = s[0] == '-';
    p = 1;
    if (s.size() == 1) return IntError::InvalidDigit;
    if (neg && lo == 0) return IntError::InvalidDigit;  // unsigned types take no minus
  }
  __int128 v = 0;
  for (; p < s.size(); ++p) {
    const char c = s[p];
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
    if (d >= base) return IntError::InvalidDigit;
    v = v * base + (neg ? -d : d);
    if (v > hi) return IntError::PosOverflow;
    if (v < lo) return IntError::NegOverflow;
  }
  out = v;
  return IntError::None;
}

template <typename T>
ArrayRef to_integer_typed(const Array& values, const IntArg& base, int64_t n, const DataType& to, bool strict) {
  PrimitiveBuilder<T> b(to, n);
  std::vector<int64_t> failed;
  IntError first = IntError::None;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = root_row(values, i);
    if (values.dtype().is_null() || values.is_null(r) || base.is_null(i)) {
      b.push_null();
      continue;
    }
    const int64_t radix = base.at(i);
    if (radix < 2 || radix > 36) throw ComputeError(err_msg("`to_integer` called with invalid base '", radix, "'"));
    __int128 v;
    const IntError e = parse_radix(values.str_value(r), static_cast<int>(radix), std::numeric_limits<T>::min(),
                                   std::numeric_limits<T>::max(), v);
    if (e == IntError::None) {
      b.push(static_cast<T>(v));
    } else {
      if (failed.empty()) first = e;
      failed.push_back(r);
      b.push_null();
    }
  }
  if (strict && !failed.empty()) {
    std::string list;
    for (size_t k = 0; k < failed.size() && k < 10; ++k)
      list += (k ? ", " : "") + std::string("\"") + std::string(values.str_value(failed[k])) + "\"";
    throw ComputeError(err_msg("strict integer parsing failed for ", failed.size(), " value(s): [", list,
                               "]; error message for the first shown value: '", reason(first),
                               "' (consider non-strict parsing)"));
  }
  return b.finish();
}

const char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool decode_hex(std::string_view s, std::string& out) {
  if (s.size() % 2) return false;
  out.clear();
  for (size_t i = 0; i < s.size(); i += 2) {
    const int hi = hex_value(s[i]), lo = hex_value(s[i + 1]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return true;
}

bool decode_base64(std::string_view s, std::string& out) {
  if (s.size() % 4) return false;
  out.clear();
  for (size_t i = 0; i < s.size(); i += 4) {
    int v[4];
    int pad = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s[i + k];
      if (c == '=' && i + 4 == s.size() && k >= 2) {
        v[k] = 0;
        ++pad;
        continue;
      }
      if (pad) return false;  // data after padding
      v[k] = base64_value(c);
      if (v[k] < 0) return false;
    }
    const uint32_t w = (static_cast<uint32_t>(v[0]) << 18) | (static_cast<uint32_t>(v[1]) << 12) |
                       (static_cast<uint32_t>(v[2]) << 6) | static_cast<uint32_t>(v[3]);
    out.push_back(static_cast<char>(w >> 16));
    if (pad < 2) out.push_back(static_cast<char>((w >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(w & 0xFF));
  }
  return true;
}

}  // namespace

ArrayRef str_to_integer(const Array& values, const Array& base, const DataType& to, bool strict) {
  require_string(values, "str.to_integer");
  if (!to.is_integer()) throw InvalidOperationError(err_msg("`to_integer` needs an integer dtype, got ", to));
  const int64_t n = output_length(values, {&base}, "str.to_integer");
  IntArg b(base, n, "str.to_integer");
  return dispatch_integer(to.id(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return to_integer_typed<T>(values, b, n, to, strict);
  });
}

ArrayRef str_to_decimal(const Array& values, int scale) {
  require_string(values, "str.to_decimal");
  if (scale < 0 || scale > 38) throw InvalidOperationError(err_msg("decimal scale must be in 0..=38, got ", scale));
  const DataType to = DataType::decimal(38, scale);
  const int64_t n = values.length();
  PrimitiveBuilder<__int128> b(to, n);
  for (int64_t i = 0; i < n; ++i) {
    __int128 v;
    if (values.dtype().is_null() || values.is_null(i) || !parse_decimal(values.str_value(i), 38, scale, v))
      b.push_null();
    else
      b.push(v);
  }
  return b.finish();
}

ArrayRef str_encode(const Array& values, const std::string& encoding) {
  require_string(values, "str.encode");
  if (encoding != "hex" && encoding != "base64")
    throw InvalidOperationError(err_msg("`encoding` must be one of {'hex', 'base64'}, got '", encoding, "'"));
  std::string buf;
  return map_strings(values, [&](int64_t, std::string_view s, ViewWriter& w) {
    buf.clear();
    if (encoding == "hex") {
      static const char digits[] = "0123456789abcdef";
      for (unsigned char c : s) buf.push_back(digits[c >> 4]), buf.push_back(digits[c & 15]);
    } else {
      for (size_t i = 0; i < s.size(); i += 3) {
        const uint32_t a = static_cast<unsigned char>(s[i]);
        const uint32_t b = i + 1 < s.size() ? static_cast<unsigned char>(s[i + 1]) : 0;
        const uint32_t c = i + 2 < s.size() ? static_cast<unsigned char>(s[i + 2]) : 0;
        const uint32_t w3 = (a << 16) | (b << 8) | c;
        buf.push_back(kBase64[(w3 >> 18) & 63]);
        buf.push_back(kBase64[(w3 >> 12) & 63]);
        buf.push_back(i + 1 < s.size() ? kBase64[(w3 >> 6) & 63] : '=');
        buf.push_back(i + 2 < s.size() ? kBase64[w3 & 63] : '=');
      }
    }
    w.push_new(buf);
  });
}

ArrayRef str_decode(const Array& values, const std::string& encoding, bool strict) {
  require_string(values, "str.decode");
  if (encoding != "hex" && encoding != "base64")
    throw InvalidOperationError(err_msg("`encoding` must be one of {'hex', 'base64'}, got '", encoding, "'"));
  const int64_t n = values.length();
  ViewBuilder b(DataType::binary(), n);
  std::string buf;
  for (int64_t i = 0; i < n; ++i) {
    if (values.dtype().is_null() || values.is_null(i)) {
      b.push_null();
      continue;
    }
    const bool ok = encoding == "hex" ? decode_hex(values.str_value(i), buf) : decode_base64(values.str_value(i), buf);
    if (ok) {
      b.push(buf);
    } else {
      if (strict)
        throw ComputeError(err_msg("invalid `", encoding, "` encoding found; try setting `strict=false` to ignore"));
      b.push_null();
    }
  }
  return b.finish();
}

}  // namespace frazil::compute
