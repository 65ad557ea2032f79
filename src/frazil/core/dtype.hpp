// DataType: the logical type of a column, with Polars' names and supertype rules' inputs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace frazil {

enum class TypeId : uint8_t {
  Null,
  Boolean,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float32,
  Float64,
  String,
  Binary,
  Date,      // int32 days since the epoch
  Datetime,  // int64 in `unit` since the epoch, optional time zone
  Duration,  // int64 in `unit`
  Time,      // int64 nanoseconds since midnight
  Decimal,   // 128-bit integers scaled by 10^scale
  List,      // int64 offsets + one child
  Struct,    // one child per field
  Categorical,  // uint32 codes into the global Categories (Polars 2's pl.Categorical)
  Enum,         // uint32 codes into fixed Categories: code order is the enum's order
  Int128,       // 16-byte two's complement (stored as Decimal's 128-bit words)
  UInt128,
  Float16,      // IEEE half, 2 bytes
  // Fixed-size list (Polars' pl.Array): List's layout (int64 offsets + one child) with the
  // promise that every valid row holds width() values, so the list kernels serve it as is.
  // Appended last: no persisted id is renumbered.
  Array,
};

enum class TimeUnit : uint8_t { Nanoseconds, Microseconds, Milliseconds };

const char* time_unit_name(TimeUnit unit);  // "ns", "us", "ms"

struct Field;
class Categories;

class DataType {
 public:
  DataType() : id_(TypeId::Null) {}
  DataType(TypeId id) : id_(id) {}  // NOLINT: implicit from a parameterless id is convenient

  static DataType null() { return DataType(TypeId::Null); }
  static DataType boolean() { return DataType(TypeId::Boolean); }
  static DataType int8() { return DataType(TypeId::Int8); }
  static DataType int16() { return DataType(TypeId::Int16); }
  static DataType int32() { return DataType(TypeId::Int32); }
  static DataType int64() { return DataType(TypeId::Int64); }
  static DataType uint8() { return DataType(TypeId::UInt8); }
  static DataType uint16() { return DataType(TypeId::UInt16); }
  static DataType uint32() { return DataType(TypeId::UInt32); }
  static DataType uint64() { return DataType(TypeId::UInt64); }
  static DataType float32() { return DataType(TypeId::Float32); }
  static DataType float64() { return DataType(TypeId::Float64); }
  static DataType string() { return DataType(TypeId::String); }
  static DataType binary() { return DataType(TypeId::Binary); }
  static DataType date() { return DataType(TypeId::Date); }
  static DataType time() { return DataType(TypeId::Time); }
  static DataType datetime(TimeUnit unit, std::optional<std::string> tz = std::nullopt);
  static DataType duration(TimeUnit unit);
  static DataType decimal(int precision, int scale);
  static DataType list(DataType inner);
  // pl.Array(inner, width); a shape (2, 3) is array(array(inner, 3), 2).
  static DataType array(DataType inner, int64_t width);
  static DataType struct_(std::vector<Field> fields);
  static DataType int128() { return DataType(TypeId::Int128); }
  static DataType uint128() { return DataType(TypeId::UInt128); }
  static DataType float16() { return DataType(TypeId::Float16); }
  static DataType categorical();  // over Categories::global()
  static DataType enum_(std::shared_ptr<const Categories> categories);

  TypeId id() const { return id_; }
  TimeUnit time_unit() const { return unit_; }
  const std::optional<std::string>& time_zone() const { return tz_; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  const DataType& inner() const;             // List and Array only
  int64_t width() const { return width_; }   // Array only
  const std::vector<Field>& fields() const;  // Struct only
  const Categories& categories() const;      // Categorical and Enum only
  const std::shared_ptr<const Categories>& categories_ptr() const { return categories_; }

  bool is_null() const { return id_ == TypeId::Null; }
  bool is_boolean() const { return id_ == TypeId::Boolean; }
  // Listed explicitly: the 128-bit ids come after the nested ones.
  bool is_signed_integer() const {
    return (id_ >= TypeId::Int8 && id_ <= TypeId::Int64) || id_ == TypeId::Int128;
  }
  bool is_unsigned_integer() const {
    return (id_ >= TypeId::UInt8 && id_ <= TypeId::UInt64) || id_ == TypeId::UInt128;
  }
  bool is_integer() const { return is_signed_integer() || is_unsigned_integer(); }
  bool is_128_bit_integer() const { return id_ == TypeId::Int128 || id_ == TypeId::UInt128; }
  bool is_float() const {
    return id_ == TypeId::Float32 || id_ == TypeId::Float64 || id_ == TypeId::Float16;
  }
  bool is_numeric() const { return is_integer() || is_float() || id_ == TypeId::Decimal; }
  bool is_primitive_numeric() const { return is_integer() || is_float(); }
  bool is_temporal() const {
    return id_ == TypeId::Date || id_ == TypeId::Datetime || id_ == TypeId::Duration ||
           id_ == TypeId::Time;
  }
  bool is_string() const { return id_ == TypeId::String; }
  bool is_view() const { return id_ == TypeId::String || id_ == TypeId::Binary; }
  bool is_nested() const {
    return id_ == TypeId::List || id_ == TypeId::Struct || id_ == TypeId::Array;
  }
  // List or Array: int64 offsets + one child (the list kernels read both).
  bool is_list_like() const { return id_ == TypeId::List || id_ == TypeId::Array; }
  // Categorical or Enum: dictionary codes (uint32) over a Categories mapping.
  bool is_categorical() const { return id_ == TypeId::Categorical || id_ == TypeId::Enum; }
  // Stored as fixed-width values in one buffer (numbers, temporals, decimals).
  bool is_fixed_width() const;
  // Bytes per value for fixed-width types (Boolean counts as 0: it is bit-packed).
  int byte_width() const;
  // The physical integer/float type a temporal is stored as (Date -> Int32, ... -> Int64).
  DataType physical() const;

  // Polars' long name: "Int64", "Datetime(time_unit='us', time_zone='UTC')", "List(Int64)".
  std::string to_string() const;
  // Polars' short repr name used in table headers: "i64", "datetime[μs, UTC]", "list[str]".
  std::string short_name() const;

  bool operator==(const DataType& other) const;
  bool operator!=(const DataType& other) const { return !(*this == other); }
  size_t hash() const;

 private:
  TypeId id_;
  TimeUnit unit_ = TimeUnit::Microseconds;
  int precision_ = 0;
  int scale_ = 0;
  int64_t width_ = 0;
  std::optional<std::string> tz_;
  std::shared_ptr<const DataType> inner_;
  std::shared_ptr<const std::vector<Field>> fields_;
  std::shared_ptr<const Categories> categories_;
};

struct Field {
  std::string name;
  DataType dtype;
  bool operator==(const Field& o) const { return name == o.name && dtype == o.dtype; }
};

std::ostream& operator<<(std::ostream& os, const DataType& dtype);

// Parses Polars' long names back ("Int64", "Datetime(time_unit='ns', time_zone=None)").
// Returns nullopt for an unknown name.
std::optional<DataType> parse_dtype(const std::string& name);

}  // namespace frazil
