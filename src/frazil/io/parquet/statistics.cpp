#include "frazil/io/parquet/statistics.hpp"

#include <cmath>
#include <cstring>

namespace frazil::io::parquet {

const ColumnStatistics* RowGroupStats::get(const std::string& name) const {
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return &columns[i];
  return nullptr;
}

namespace {

template <typename T>
bool load(const std::string& b, T& v) {
  if (b.size() != sizeof(T)) return false;
  std::memcpy(&v, b.data(), sizeof(T));
  return true;
}

std::optional<Scalar> decimal_scalar(const DataType& dt, const uint8_t* p, size_t len) {
  if (len == 0 || len > 16) return std::nullopt;
  unsigned __int128 v = (p[0] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (size_t i = 0; i < len; ++i) v = (v << 8) | p[i];
  return Scalar(dt, static_cast<int128_t>(v));
}

// Whether the deprecated (signed-comparison) min/max are meaningful for this leaf.
bool signed_order(const LeafColumn& leaf) {
  switch (leaf.physical) {
    case PhysicalType::Boolean:
    case PhysicalType::Float:
    case PhysicalType::Double: return true;
    case PhysicalType::Int32:
    case PhysicalType::Int64: return !leaf.dtype.is_unsigned_integer();
    default: return false;
  }
}

}  // namespace

std::optional<Scalar> decode_stat_value(const LeafColumn& leaf, const std::string& b) {
  const DataType& dt = leaf.dtype;
  switch (leaf.conversion) {
    case Conversion::Null:
    case Conversion::Int96: return std::nullopt;
    case Conversion::Boolean:
      if (b.size() != 1) return std::nullopt;
      return Scalar(dt, b[0] != 0);
    case Conversion::Copy32:
    case Conversion::Int32To8:
    case Conversion::Int32To16:
    case Conversion::TimeMillis:
    case Conversion::DecimalInt32: {
      if (leaf.physical == PhysicalType::Float) {
        float f;
        if (!load(b, f) || std::isnan(f)) return std::nullopt;
        return Scalar(dt, static_cast<double>(f));
      }
      int32_t v;
      if (!load(b, v)) return std::nullopt;
      switch (leaf.conversion) {
        case Conversion::TimeMillis: return Scalar(dt, int64_t(v) * 1000000);
        case Conversion::DecimalInt32: return Scalar(dt, static_cast<int128_t>(v));
        case Conversion::Int32To8:
          return dt.is_unsigned_integer() ? Scalar(dt, uint64_t(uint8_t(v))) : Scalar(dt, int64_t(int8_t(v)));
        case Conversion::Int32To16:
          return dt.is_unsigned_integer() ? Scalar(dt, uint64_t(uint16_t(v))) : Scalar(dt, int64_t(int16_t(v)));
        default:
          return dt.is_unsigned_integer() ? Scalar(dt, uint64_t(uint32_t(v))) : Scalar(dt, int64_t(v));
      }
    }
    case Conversion::Copy64:
    case Conversion::TimeMicros:
    case Conversion::DecimalInt64: {
      if (leaf.physical == PhysicalType::Double) {
        double d;
        if (!load(b, d) || std::isnan(d)) return std::nullopt;
        return Scalar(dt, d);
      }
      int64_t v;
      if (!load(b, v)) return std::nullopt;
      if (leaf.conversion == Conversion::TimeMicros) return Scalar(dt, static_cast<int64_t>(static_cast<uint64_t>(v) * 1000u));
      if (leaf.conversion == Conversion::DecimalInt64) return Scalar(dt, static_cast<int128_t>(v));
      if (dt.is_unsigned_integer()) return Scalar(dt, static_cast<uint64_t>(v));
      return Scalar(dt, v);
    }
    case Conversion::DecimalBytes:
      return decimal_scalar(dt, reinterpret_cast<const uint8_t*>(b.data()), b.size());
    case Conversion::Float16:      // half-float statistics are rare; treated as unknown
    case Conversion::Int128Bytes:  // little-endian bytes: no order a reader may rely on
      return std::nullopt;
    case Conversion::ByteArray:
    case Conversion::FixedBytes:
      if (leaf.conversion == Conversion::FixedBytes && b.size() != static_cast<size_t>(leaf.type_length))
        return std::nullopt;
      return Scalar(dt, b);
  }
  return std::nullopt;
}

ColumnStatistics decode_statistics(const LeafColumn& leaf, const Statistics& st, bool type_defined_order) {
  ColumnStatistics out;
  out.null_count = st.null_count;
  out.distinct_count = st.distinct_count;
  const std::string* mn = nullptr;
  const std::string* mx = nullptr;
  if (st.min_value && st.max_value && (type_defined_order || signed_order(leaf))) {
    mn = &*st.min_value;
    mx = &*st.max_value;
  } else if (st.min && st.max && signed_order(leaf)) {
    mn = &*st.min;
    mx = &*st.max;
  }
  if (mn && mx) {
    out.min = decode_stat_value(leaf, *mn);
    out.max = decode_stat_value(leaf, *mx);
    if (!out.min || !out.max) {
      out.min.reset();
      out.max.reset();
    } else if (leaf.dtype.is_float()) {
      // Zero bounds may have been written with either sign: widen them.
      if (out.min->as_double() == 0.0) out.min = Scalar(leaf.dtype, -0.0);
      if (out.max->as_double() == 0.0) out.max = Scalar(leaf.dtype, 0.0);
    }
  }
  return out;
}

}  // namespace frazil::io::parquet
