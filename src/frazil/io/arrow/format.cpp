#include "frazil/io/arrow/format.hpp"

#include <charconv>
#include <cstring>
#include <string_view>

#include "frazil/core/error.hpp"

namespace frazil::io {

static const char* unit_letter(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::Nanoseconds: return "n";
    case TimeUnit::Microseconds: return "u";
    case TimeUnit::Milliseconds: return "m";
  }
  return "u";
}

std::string arrow_format(const DataType& t) {
  switch (t.id()) {
    case TypeId::Null: return "n";
    case TypeId::Boolean: return "b";
    case TypeId::Int8: return "c";
    case TypeId::Int16: return "s";
    case TypeId::Int32: return "i";
    case TypeId::Int64: return "l";
    case TypeId::UInt8: return "C";
    case TypeId::UInt16: return "S";
    case TypeId::UInt32: return "I";
    case TypeId::UInt64: return "L";
    case TypeId::Float32: return "f";
    case TypeId::Float64: return "g";
    case TypeId::String: return "vu";
    case TypeId::Binary: return "vz";
    case TypeId::Date: return "tdD";
    case TypeId::Time: return "ttn";
    case TypeId::Datetime:
      return std::string("ts") + unit_letter(t.time_unit()) + ":" + t.time_zone().value_or("");
    case TypeId::Duration: return std::string("tD") + unit_letter(t.time_unit());
    case TypeId::Decimal: return err_msg("d:", t.precision(), ",", t.scale());
    case TypeId::List: return "+L";
    case TypeId::Array: return err_msg("+w:", t.width());
    case TypeId::Struct: return "+s";
    case TypeId::Categorical:
    case TypeId::Enum: return "I";  // the codes; the categories are the dictionary
    case TypeId::Float16: return "e";
    // Arrow has no 128-bit integers: Polars' private formats, which Polars reads back
    // (pyarrow rejects them, as it rejects Polars' own export).
    case TypeId::Int128: return "_pli128";
    case TypeId::UInt128: return "_plu128";
  }
  FRAZIL_CHECK(false);
  return "";
}

[[noreturn]] static void unsupported(const std::string& column, std::string_view format,
                                     const char* what = nullptr) {
  throw InvalidOperationError(err_msg("cannot import column '", column, "': Arrow format '",
                                      format, "'", what ? std::string(" (") + what + ")" : "",
                                      " is not supported"));
}

static bool parse_int(std::string_view s, int64_t* out) {
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && p == s.data() + s.size();
}

static ArrowFormat fixed(DataType t) { return {ArrowLayout::Fixed, std::move(t)}; }

bool is_arrow_integer_format(const char* format, int* byte_width, bool* is_signed) {
  if (!format || !format[0] || format[1]) return false;
  switch (format[0]) {
    case 'c': *byte_width = 1; *is_signed = true; return true;
    case 'C': *byte_width = 1; *is_signed = false; return true;
    case 's': *byte_width = 2; *is_signed = true; return true;
    case 'S': *byte_width = 2; *is_signed = false; return true;
    case 'i': *byte_width = 4; *is_signed = true; return true;
    case 'I': *byte_width = 4; *is_signed = false; return true;
    case 'l': *byte_width = 8; *is_signed = true; return true;
    case 'L': *byte_width = 8; *is_signed = false; return true;
    default: return false;
  }
}

ArrowFormat parse_arrow_format(const char* format_c, const std::string& column) {
  if (!format_c) throw ComputeError(err_msg("cannot import column '", column, "': the Arrow schema has no format"));
  std::string_view f(format_c);
  if (f.size() == 1) {
    switch (f[0]) {
      case 'n': return {ArrowLayout::Null, DataType::null()};
      case 'b': return {ArrowLayout::Boolean, DataType::boolean()};
      case 'c': return fixed(DataType::int8());
      case 'C': return fixed(DataType::uint8());
      case 's': return fixed(DataType::int16());
      case 'S': return fixed(DataType::uint16());
      case 'i': return fixed(DataType::int32());
      case 'I': return fixed(DataType::uint32());
      case 'l': return fixed(DataType::int64());
      case 'L': return fixed(DataType::uint64());
      case 'f': return fixed(DataType::float32());
      case 'g': return fixed(DataType::float64());
      case 'u': return {ArrowLayout::Utf8, DataType::string()};
      case 'U': return {ArrowLayout::LargeUtf8, DataType::string()};
      case 'z': return {ArrowLayout::Utf8, DataType::binary()};
      case 'Z': return {ArrowLayout::LargeUtf8, DataType::binary()};
      case 'e': return fixed(DataType::float16());
      default: unsupported(column, f);
    }
  }
  if (f == "_pli128") return fixed(DataType::int128());
  if (f == "_plu128") return fixed(DataType::uint128());
  if (f == "vu") return {ArrowLayout::View, DataType::string()};
  if (f == "vz") return {ArrowLayout::View, DataType::binary()};
  if (f == "tdD") return fixed(DataType::date());
  // date64 (milliseconds) is a Datetime in milliseconds, as Polars reads it.
  if (f == "tdm") return fixed(DataType::datetime(TimeUnit::Milliseconds));
  if (f == "tts") return {ArrowLayout::ScaledInt32, DataType::time(), 0, 1000000000};
  if (f == "ttm") return {ArrowLayout::ScaledInt32, DataType::time(), 0, 1000000};
  if (f == "ttu") return {ArrowLayout::ScaledInt64, DataType::time(), 0, 1000};
  if (f == "ttn") return fixed(DataType::time());
  if (f.size() == 3 && f.substr(0, 2) == "tD") {
    switch (f[2]) {
      case 's': return {ArrowLayout::ScaledInt64, DataType::duration(TimeUnit::Milliseconds), 0, 1000};
      case 'm': return fixed(DataType::duration(TimeUnit::Milliseconds));
      case 'u': return fixed(DataType::duration(TimeUnit::Microseconds));
      case 'n': return fixed(DataType::duration(TimeUnit::Nanoseconds));
      default: unsupported(column, f);
    }
  }
  if (f.size() >= 4 && f.substr(0, 2) == "ts" && f[3] == ':') {
    std::optional<std::string> tz;
    if (f.size() > 4) tz = std::string(f.substr(4));
    switch (f[2]) {
      case 's':
        return {ArrowLayout::ScaledInt64, DataType::datetime(TimeUnit::Milliseconds, tz), 0, 1000};
      case 'm': return fixed(DataType::datetime(TimeUnit::Milliseconds, tz));
      case 'u': return fixed(DataType::datetime(TimeUnit::Microseconds, tz));
      case 'n': return fixed(DataType::datetime(TimeUnit::Nanoseconds, tz));
      default: unsupported(column, f);
    }
  }
  if (f.substr(0, 2) == "d:") {
    // d:precision,scale[,bitwidth]
    std::string_view rest = f.substr(2);
    int64_t parts[3] = {0, 0, 128};
    int n = 0;
    while (n < 3) {
      auto comma = rest.find(',');
      if (!parse_int(rest.substr(0, comma), &parts[n])) unsupported(column, f, "malformed decimal");
      ++n;
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
    if (n < 2) unsupported(column, f, "malformed decimal");
    if (parts[2] != 128) unsupported(column, f, "only 128-bit decimals");
    if (parts[0] < 1 || parts[0] > 38 || parts[1] < 0 || parts[1] > parts[0])
      unsupported(column, f, "decimal precision must be 1..38 and scale 0..precision");
    return fixed(DataType::decimal(static_cast<int>(parts[0]), static_cast<int>(parts[1])));
  }
  if (f.substr(0, 2) == "w:") {
    int64_t width = 0;
    if (!parse_int(f.substr(2), &width) || width < 0) unsupported(column, f, "malformed fixed-size binary");
    return {ArrowLayout::FixedSizeBinary, DataType::binary(), width};
  }
  if (f == "+l") return {ArrowLayout::List, DataType(TypeId::List)};
  if (f == "+L") return {ArrowLayout::LargeList, DataType(TypeId::List)};
  // A map is a list of struct<key, value> entries, as Polars reads it.
  if (f == "+m") return {ArrowLayout::List, DataType(TypeId::List)};
  if (f == "+s") return {ArrowLayout::Struct, DataType(TypeId::Struct)};
  if (f.substr(0, 3) == "+w:") {
    int64_t size = 0;
    if (!parse_int(f.substr(3), &size) || size < 0) unsupported(column, f, "malformed fixed-size list");
    return {ArrowLayout::FixedSizeList, DataType(TypeId::List), size};
  }
  if (f.substr(0, 2) == "ti") unsupported(column, f, "interval");
  if (f.substr(0, 2) == "+u") unsupported(column, f, "union");
  if (f == "+r") unsupported(column, f, "run-end encoded");
  if (f == "+vl" || f == "+vL") unsupported(column, f, "list view");
  unsupported(column, f);
}

}  // namespace frazil::io
