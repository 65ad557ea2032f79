#include "frazil/core/supertype.hpp"

#include <algorithm>

namespace frazil {

namespace {

int int_bits(TypeId id) {
  switch (id) {
    case TypeId::Int8:
    case TypeId::UInt8: return 8;
    case TypeId::Int16:
    case TypeId::UInt16: return 16;
    case TypeId::Int32:
    case TypeId::UInt32: return 32;
    case TypeId::Int64:
    case TypeId::UInt64: return 64;
    case TypeId::Int128:
    case TypeId::UInt128: return 128;
    default: return 0;
  }
}

DataType signed_of_bits(int bits) {
  switch (bits) {
    case 8: return DataType::int8();
    case 16: return DataType::int16();
    case 32: return DataType::int32();
    case 64: return DataType::int64();
    default: return DataType::int128();
  }
}

std::optional<DataType> supertype_ordered(const DataType& a, const DataType& b) {
  const TypeId x = a.id(), y = b.id();
  if (x == TypeId::Null) return b;
  if (x == TypeId::Boolean && (b.is_numeric())) return b;
  if (a.is_integer() && b.is_integer()) {
    if (a.is_signed_integer() == b.is_signed_integer())
      return int_bits(x) >= int_bits(y) ? a : b;
    const DataType& s = a.is_signed_integer() ? a : b;
    const DataType& u = a.is_signed_integer() ? b : a;
    if (int_bits(s.id()) > int_bits(u.id())) return s;
    // Int64 x UInt64 and anything signed x UInt128 meet in Int128, as Polars 2.1.
    return signed_of_bits(std::min(128, int_bits(u.id()) * 2));
  }
  if (a.is_integer() && b.is_float()) {
    if (y == TypeId::Float16 && int_bits(x) <= 8) return DataType::float16();
    if ((y == TypeId::Float32 || y == TypeId::Float16) && int_bits(x) <= 16) return DataType::float32();
    return DataType::float64();
  }
  if (a.is_float() && b.is_float()) {
    // The wider float (Float16 < Float32 < Float64).
    if (x == TypeId::Float64 || y == TypeId::Float64) return DataType::float64();
    return DataType::float32();
  }
  if (x == TypeId::Decimal && b.is_float()) return DataType::float64();
  if (x == TypeId::Decimal && b.is_integer()) return DataType::decimal(38, a.scale());  // as Polars 2.1
  if (x == TypeId::Decimal && y == TypeId::Decimal) {
    int scale = std::max(a.scale(), b.scale());
    int ip = std::max(a.precision() - a.scale(), b.precision() - b.scale());
    return DataType::decimal(std::min(38, ip + scale), scale);
  }
  // Temporal dtypes, as Polars: the coarser time unit wins (a cast from finer to coarser
  // always fits); a time zone must agree; with numbers, the physical integers' supertype.
  auto coarser = [](TimeUnit p, TimeUnit q) {
    if (p == TimeUnit::Milliseconds || q == TimeUnit::Milliseconds) return TimeUnit::Milliseconds;
    if (p == TimeUnit::Microseconds || q == TimeUnit::Microseconds) return TimeUnit::Microseconds;
    return TimeUnit::Nanoseconds;
  };
  if (x == TypeId::Date && y == TypeId::Datetime) return b;
  if (x == TypeId::Datetime && y == TypeId::Datetime) {
    if (a.time_zone() != b.time_zone()) return std::nullopt;
    return DataType::datetime(coarser(a.time_unit(), b.time_unit()), a.time_zone());
  }
  if (x == TypeId::Duration && y == TypeId::Duration) return DataType::duration(coarser(a.time_unit(), b.time_unit()));
  if (x == TypeId::Duration && y == TypeId::Datetime)
    return DataType::datetime(coarser(a.time_unit(), b.time_unit()), b.time_zone());
  if (x == TypeId::Duration && y == TypeId::Date) return b;
  if (x == TypeId::Date) {
    if (y == TypeId::Int32 || y == TypeId::Float32 || y == TypeId::Float64) return b;
    if (y == TypeId::Int64 || y == TypeId::UInt32 || y == TypeId::UInt64) return DataType::int64();
  }
  if (x == TypeId::Datetime || x == TypeId::Duration || x == TypeId::Time) {
    const bool ints = y == TypeId::Int32 || y == TypeId::Int64 ||
                      (x != TypeId::Time && (y == TypeId::UInt32 || y == TypeId::UInt64));
    if (ints) return DataType::int64();
    if (b.is_float()) return DataType::float64();
  }
  if (x == TypeId::String && (b.is_numeric() || b.is_boolean() || b.is_temporal())) return a;
  // A string next to a Categorical/Enum (a comparison with a literal) takes its categories.
  if (a.is_categorical() && y == TypeId::String) return a;
  if (x == TypeId::List && y == TypeId::List) {
    auto inner = get_supertype(a.inner(), b.inner());
    if (!inner) return std::nullopt;
    return DataType::list(*inner);
  }
  // Structs of the same field names (in order) meet field by field. (Polars also unites
  // structs of other fields by name; frazil's casts cannot add fields yet.)
  if (x == TypeId::Struct && y == TypeId::Struct && a.fields().size() == b.fields().size()) {
    std::vector<Field> fields = a.fields();
    for (size_t i = 0; i < fields.size(); ++i) {
      if (fields[i].name != b.fields()[i].name) return std::nullopt;
      auto f = get_supertype(fields[i].dtype, b.fields()[i].dtype);
      if (!f) return std::nullopt;
      fields[i].dtype = *f;
    }
    return DataType::struct_(std::move(fields));
  }
  // Arrays of one width stay an Array; next to a List (or another width) they are a List.
  if (x == TypeId::Array && (y == TypeId::Array || y == TypeId::List)) {
    auto inner = get_supertype(a.inner(), b.inner());
    if (!inner) return std::nullopt;
    if (y == TypeId::Array && a.width() == b.width()) return DataType::array(*inner, a.width());
    return DataType::list(*inner);
  }
  return std::nullopt;
}

}  // namespace

std::optional<DataType> get_supertype(const DataType& a, const DataType& b) {
  if (a == b) return a;
  if (auto s = supertype_ordered(a, b)) return s;
  return supertype_ordered(b, a);
}

}  // namespace frazil
