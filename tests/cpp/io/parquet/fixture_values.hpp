// The values of the fixtures written by tests/data/parquet/make_fixtures.py, recomputed
// from the same formulas of the row index i (keep the two in sync).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil::test_parquet {

inline std::string fixture_dir() {
  return (std::filesystem::path(__FILE__).parent_path() / ".." / ".." / ".." / "data" / "parquet")
      .lexically_normal()
      .string();
}
inline std::string fixture(const std::string& name) { return fixture_dir() + "/" + name; }

inline std::string s_val(int64_t i) {
  return "v" + std::to_string((i * 7919) % 50) + std::string(static_cast<size_t>(i % 17), 'x');
}
inline std::string b_val(int64_t i) { return "b" + std::to_string(i) + std::string(static_cast<size_t>(i % 15), 'y'); }

inline int128_t pow10_128(int n) {
  int128_t v = 1;
  for (int k = 0; k < n; ++k) v *= 10;
  return v;
}

inline ArrayRef array_of(const DataType& dtype, const std::vector<Scalar>& values) {
  if (values.empty()) return make_empty_array(dtype);
  std::vector<ArrayRef> parts;
  for (const auto& v : values) parts.push_back(v.is_null() ? make_null_array(dtype, 1) : scalar_to_array(v, 1));
  return concat_arrays(parts);
}
inline Scalar list_of(const DataType& inner, const std::vector<Scalar>& values) {
  return Scalar(DataType::list(inner), array_of(inner, values));
}
inline Scalar struct_of(const DataType& dtype, std::vector<Scalar> values) {
  return Scalar(dtype, Scalar::StructValues(std::make_shared<std::vector<Scalar>>(std::move(values))));
}

inline const std::vector<std::string>& flat_names() {
  static const std::vector<std::string> names = {
      "i8",    "i16",   "i32",     "i64",     "u8",      "u16",  "u32",   "u64",   "f32",   "f64",
      "bool",  "str",   "bin",     "date",    "ts_ms",   "ts_us", "ts_ns", "time_ms", "time_us", "time_ns",
      "dec9",  "dec18", "dec38",   "fixed",   "null",    "req_i64", "req_str"};
  return names;
}

inline DataType flat_dtype(const std::string& c) {
  if (c == "i8") return DataType::int8();
  if (c == "i16") return DataType::int16();
  if (c == "i32") return DataType::int32();
  if (c == "i64" || c == "req_i64") return DataType::int64();
  if (c == "u8") return DataType::uint8();
  if (c == "u16") return DataType::uint16();
  if (c == "u32") return DataType::uint32();
  if (c == "u64") return DataType::uint64();
  if (c == "f32") return DataType::float32();
  if (c == "f64") return DataType::float64();
  if (c == "bool") return DataType::boolean();
  if (c == "str" || c == "req_str") return DataType::string();
  if (c == "bin" || c == "fixed") return DataType::binary();
  if (c == "date") return DataType::date();
  if (c == "ts_ms") return DataType::datetime(TimeUnit::Milliseconds);
  if (c == "ts_us") return DataType::datetime(TimeUnit::Microseconds, "UTC");
  if (c == "ts_ns") return DataType::datetime(TimeUnit::Nanoseconds);
  if (c.rfind("time", 0) == 0) return DataType::time();
  if (c == "dec9") return DataType::decimal(9, 2);
  if (c == "dec18") return DataType::decimal(18, 4);
  if (c == "dec38") return DataType::decimal(38, 10);
  return DataType::null();
}

inline Scalar flat_value(const std::string& c, int64_t i) {
  const DataType t = flat_dtype(c);
  if (c == "req_i64") return Scalar(t, i * 3);
  if (c == "req_str") return Scalar(t, "r" + std::to_string(i % 7));
  if (c == "null" || i % 5 == 2) return Scalar::null(t);
  if (c == "i8") return Scalar(t, (i * 37) % 256 - 128);
  if (c == "i16") return Scalar(t, (i * 1237) % 65536 - 32768);
  if (c == "i32") return Scalar(t, i * 104729 - 10000000);
  if (c == "i64") return Scalar(t, i * 1000000007 * (i % 2 ? 1 : -1));
  if (c == "u8") return Scalar(t, uint64_t((i * 37) % 256));
  if (c == "u16") return Scalar(t, uint64_t((i * 1237) % 65536));
  if (c == "u32") return Scalar(t, uint64_t(uint32_t(uint64_t(i) * 2654435761ull)));
  if (c == "u64") return Scalar(t, uint64_t(uint64_t(i) * 11400714819323198485ull));
  if (c == "f32") return Scalar(t, i * 0.25 - 20.0);
  if (c == "f64") return Scalar(t, i * 0.125 - 12.5);
  if (c == "bool") return Scalar(t, i % 3 == 0);
  if (c == "str") return Scalar(t, s_val(i));
  if (c == "bin") return Scalar(t, b_val(i));
  if (c == "date") return Scalar(t, i * 3 - 300);
  if (c == "ts_ms") return Scalar(t, int64_t(i * 86400123 - 10000000000ll));
  if (c == "ts_us") return Scalar(t, int64_t(i * 3600000001ll));
  if (c == "ts_ns") return Scalar(t, int64_t(i * 1000000007123ll));
  if (c == "time_ms") return Scalar(t, ((i * 1234567) % 86400000) * 1000000);
  if (c == "time_us") return Scalar(t, int64_t(((i * 987654321ll) % 86400000000ll) * 1000));
  if (c == "time_ns") return Scalar(t, int64_t((i * 987654321123ll) % 86400000000000ll));
  if (c == "dec9") return Scalar(t, int128_t((i * 12345 - 1000000) * (i % 2 ? -1 : 1)));
  if (c == "dec18") return Scalar(t, int128_t(i * int64_t(123456789012) - int64_t(5000000000000)));
  if (c == "dec38") return Scalar(t, int128_t(i) * pow10_128(25) + 12345 * (i % 2 ? 1 : -1));
  if (c == "fixed") {
    uint32_t v = uint32_t(uint64_t(i) * 16777619ull);
    std::string s = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
    return Scalar(t, s);
  }
  return Scalar::null(t);
}

// Nested fixture (nested_v1/v2.parquet).
inline DataType nested_dtype(const std::string& c) {
  if (c == "id") return DataType::int64();
  if (c == "lst") return DataType::list(DataType::int64());
  if (c == "lstr") return DataType::list(DataType::string());
  if (c == "ll") return DataType::list(DataType::list(DataType::int32()));
  if (c == "st") return DataType::struct_({{"a", DataType::int32()}, {"b", DataType::string()}});
  if (c == "sl") return DataType::struct_({{"x", DataType::list(DataType::string())}, {"y", DataType::float64()}});
  if (c == "ls") return DataType::list(DataType::struct_({{"p", DataType::int16()}, {"q", DataType::boolean()}}));
  if (c == "mp") return DataType::list(DataType::struct_({{"key", DataType::string()}, {"value", DataType::int32()}}));
  return DataType::null();
}

inline Scalar nested_value(const std::string& c, int64_t i) {
  const DataType t = nested_dtype(c);
  if (c == "id") return Scalar(t, i);
  if (c == "lst") {
    if (i % 7 == 3) return Scalar::null(t);
    std::vector<Scalar> v;
    for (int64_t j = 0; j < i % 4; ++j)
      v.push_back((i + j) % 5 == 1 ? Scalar::null(DataType::int64()) : Scalar(DataType::int64(), i * 10 + j));
    return list_of(DataType::int64(), v);
  }
  if (c == "lstr") {
    if (i % 6 == 4) return Scalar::null(t);
    std::vector<Scalar> v;
    for (int64_t j = 0; j < i % 3; ++j)
      v.push_back(Scalar::string("e" + std::to_string(i) + "_" + std::to_string(j) + std::string(size_t(j * 5), 'z')));
    return list_of(DataType::string(), v);
  }
  if (c == "ll") {
    if (i % 6 == 1) return Scalar::null(t);
    DataType inner = DataType::list(DataType::int32());
    std::vector<Scalar> outer;
    for (int64_t k = 0; k < i % 3; ++k) {
      if ((i + k) % 4 == 2) {
        outer.push_back(Scalar::null(inner));
        continue;
      }
      std::vector<Scalar> v;
      for (int64_t m = 0; m < (i + k) % 3; ++m) v.push_back(Scalar(DataType::int32(), i * 100 + k * 10 + m));
      outer.push_back(list_of(DataType::int32(), v));
    }
    return list_of(inner, outer);
  }
  if (c == "st") {
    if (i % 9 == 4) return Scalar::null(t);
    return struct_of(t, {i % 4 == 1 ? Scalar::null(DataType::int32()) : Scalar(DataType::int32(), i * 2),
                         Scalar::string("s" + std::to_string(i))});
  }
  if (c == "sl") {
    if (i % 8 == 5) return Scalar::null(t);
    Scalar x = Scalar::null(DataType::list(DataType::string()));
    if (i % 3 != 2) {
      std::vector<Scalar> v;
      for (int64_t m = 0; m < i % 3; ++m) v.push_back(Scalar::string("x" + std::to_string(i) + std::to_string(m)));
      x = list_of(DataType::string(), v);
    }
    return struct_of(t, {x, Scalar(DataType::float64(), i * 0.5)});
  }
  if (c == "ls") {
    if (i % 10 == 7) return Scalar::null(t);
    const DataType& st = t.inner();
    std::vector<Scalar> v;
    for (int64_t k = 0; k < i % 3; ++k)
      v.push_back(struct_of(st, {Scalar(DataType::int16(), i + k),
                                 k == 1 ? Scalar::null(DataType::boolean()) : Scalar(DataType::boolean(), (i + k) % 2 == 0)}));
    return list_of(st, v);
  }
  if (c == "mp") {
    if (i % 6 == 0) return Scalar::null(t);
    const DataType& st = t.inner();
    std::vector<Scalar> v;
    for (int64_t m = 0; m < i % 3; ++m)
      v.push_back(struct_of(st, {Scalar::string("k" + std::to_string(m)), Scalar(DataType::int32(), i * m)}));
    return list_of(st, v);
  }
  return Scalar::null(t);
}

inline const std::vector<std::string>& nested_names() {
  static const std::vector<std::string> names = {"id", "lst", "lstr", "ll", "st", "sl", "ls", "mp"};
  return names;
}

}  // namespace frazil::test_parquet
