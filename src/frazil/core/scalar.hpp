// Scalar: one typed value or a typed null. Literals, aggregation results and
// broadcast columns hold one.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/dtype.hpp"

namespace frazil {

using int128_t = __int128;

class Scalar {
 public:
  // The payload by physical kind: Boolean -> bool; signed ints, Date, Datetime, Duration,
  // Time -> int64_t; unsigned -> uint64_t; floats -> double; String/Binary -> std::string;
  // Decimal -> int128_t; List -> ArrayRef (the list's values); Struct -> field scalars.
  using StructValues = std::shared_ptr<const std::vector<Scalar>>;
  using Value = std::variant<std::monostate, bool, int64_t, uint64_t, double, std::string,
                             int128_t, ArrayRef, StructValues>;

  Scalar() = default;  // a Null-typed null
  Scalar(DataType dtype, Value value) : dtype_(std::move(dtype)), value_(std::move(value)) {}

  static Scalar null(DataType dtype) { return Scalar(std::move(dtype), std::monostate{}); }
  static Scalar boolean(bool v) { return Scalar(DataType::boolean(), v); }
  static Scalar int32(int64_t v) { return Scalar(DataType::int32(), v); }
  static Scalar int64(int64_t v) { return Scalar(DataType::int64(), v); }
  static Scalar uint32(uint64_t v) { return Scalar(DataType::uint32(), v); }
  static Scalar uint64(uint64_t v) { return Scalar(DataType::uint64(), v); }
  static Scalar float64(double v) { return Scalar(DataType::float64(), v); }
  static Scalar float32(double v) { return Scalar(DataType::float32(), v); }
  static Scalar string(std::string v) { return Scalar(DataType::string(), std::move(v)); }

  const DataType& dtype() const { return dtype_; }
  const Value& value() const { return value_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(value_); }

  bool as_bool() const { return std::get<bool>(value_); }
  int64_t as_int64() const { return std::get<int64_t>(value_); }
  uint64_t as_uint64() const { return std::get<uint64_t>(value_); }
  double as_double() const { return std::get<double>(value_); }
  const std::string& as_string() const { return std::get<std::string>(value_); }
  int128_t as_int128() const { return std::get<int128_t>(value_); }
  const ArrayRef& as_list() const { return std::get<ArrayRef>(value_); }
  const std::vector<Scalar>& as_struct() const { return *std::get<StructValues>(value_); }
  // Numeric value as double for any numeric dtype (not for null).
  double to_double() const;

  // Same value, another dtype of the same payload kind (Int64 -> Datetime, ...).
  Scalar with_dtype(DataType dtype) const { return Scalar(std::move(dtype), value_); }

  // Exact equality of dtype and value; floats compare bitwise-canonical (NaN == NaN).
  bool operator==(const Scalar& other) const;
  size_t hash() const;
  // A Polars-style rendering of the value: 1, 2.5, "abc", null, 2024-01-31, true.
  std::string to_string() const;

 private:
  DataType dtype_;
  Value value_;
};

// Reads element i of an array as a Scalar.
Scalar array_get(const Array& array, int64_t i);
// An array holding `value` repeated `length` times.
ArrayRef scalar_to_array(const Scalar& value, int64_t length);

}  // namespace frazil
