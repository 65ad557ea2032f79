#include "frazil/io/parquet/writer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <unordered_map>

#include "frazil/compute/cast.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/parquet/arrow_schema.hpp"
#include "frazil/io/parquet/codec.hpp"
#include "frazil/io/parquet/metadata.hpp"
#include "frazil/io/parquet/rle.hpp"
#include "frazil/io/parquet/schema.hpp"
#include "frazil/version.hpp"

namespace frazil::io::parquet {

namespace {

using int128 = __int128;

// Bytes of the smallest FIXED_LEN_BYTE_ARRAY that holds a decimal of this precision.
int32_t decimal_bytes(int precision) {
  for (int32_t n = 1; n <= 16; ++n) {
    // Largest |value| of n signed bytes: 2^(8n-1) - 1 >= 10^precision - 1.
    long double max = std::pow(2.0L, 8 * n - 1) - 1;
    if (max >= std::pow(10.0L, precision) - 1) return n;
  }
  return 16;
}

LogicalType logical(LogicalKind k) {
  LogicalType t;
  t.kind = k;
  return t;
}

LogicalType int_logical(int bits, bool is_signed) {
  LogicalType t;
  t.kind = LogicalKind::Integer;
  t.bit_width = static_cast<int8_t>(bits);
  t.is_signed = is_signed;
  return t;
}

void add_schema(const std::string& name, const DataType& dt, std::vector<SchemaElement>& out) {
  SchemaElement e;
  e.name = name;
  e.repetition = Repetition::Optional;
  switch (dt.id()) {
    case TypeId::Null:
      e.type = PhysicalType::Int32;
      e.logical_type = logical(LogicalKind::Unknown);
      break;
    case TypeId::Boolean: e.type = PhysicalType::Boolean; break;
    case TypeId::Int8:
      e.type = PhysicalType::Int32;
      e.converted_type = ConvertedType::Int8;
      e.logical_type = int_logical(8, true);
      break;
    case TypeId::Int16:
      e.type = PhysicalType::Int32;
      e.converted_type = ConvertedType::Int16;
      e.logical_type = int_logical(16, true);
      break;
    case TypeId::Int32: e.type = PhysicalType::Int32; break;
    case TypeId::Int64: e.type = PhysicalType::Int64; break;
    case TypeId::UInt8:
      e.type = PhysicalType::Int32;
      e.converted_type = ConvertedType::Uint8;
      e.logical_type = int_logical(8, false);
      break;
    case TypeId::UInt16:
      e.type = PhysicalType::Int32;
      e.converted_type = ConvertedType::Uint16;
      e.logical_type = int_logical(16, false);
      break;
    case TypeId::UInt32:
      e.type = PhysicalType::Int32;
      e.converted_type = ConvertedType::Uint32;
      e.logical_type = int_logical(32, false);
      break;
    case TypeId::UInt64:
      e.type = PhysicalType::Int64;
      e.converted_type = ConvertedType::Uint64;
      e.logical_type = int_logical(64, false);
      break;
    case TypeId::Float32: e.type = PhysicalType::Float; break;
    case TypeId::Float64: e.type = PhysicalType::Double; break;
    case TypeId::String:
    case TypeId::Categorical:
    case TypeId::Enum:
      e.type = PhysicalType::ByteArray;
      e.converted_type = ConvertedType::Utf8;
      e.logical_type = logical(LogicalKind::String);
      break;
    case TypeId::Binary: e.type = PhysicalType::ByteArray; break;
    case TypeId::Date:
      e.type = PhysicalType::Int32;
      e.converted_type = ConvertedType::Date;
      e.logical_type = logical(LogicalKind::Date);
      break;
    case TypeId::Datetime: {
      e.type = PhysicalType::Int64;
      LogicalType t;
      t.kind = LogicalKind::Timestamp;
      t.adjusted_to_utc = dt.time_zone().has_value();
      t.unit = dt.time_unit() == TimeUnit::Milliseconds   ? LogicalTimeUnit::Millis
               : dt.time_unit() == TimeUnit::Microseconds ? LogicalTimeUnit::Micros
                                                          : LogicalTimeUnit::Nanos;
      // The converted type implies UTC adjustment: only for zoned millis/micros.
      if (t.adjusted_to_utc && t.unit == LogicalTimeUnit::Millis) e.converted_type = ConvertedType::TimestampMillis;
      if (t.adjusted_to_utc && t.unit == LogicalTimeUnit::Micros) e.converted_type = ConvertedType::TimestampMicros;
      e.logical_type = t;
      break;
    }
    case TypeId::Duration: e.type = PhysicalType::Int64; break;  // no Parquet type; see kFrazilSchemaKey
    case TypeId::Time: {
      e.type = PhysicalType::Int64;
      LogicalType t;
      t.kind = LogicalKind::Time;
      t.adjusted_to_utc = false;
      t.unit = LogicalTimeUnit::Nanos;
      e.logical_type = t;
      break;
    }
    case TypeId::Decimal: {
      int p = dt.precision() > 0 ? dt.precision() : 38;
      e.type = PhysicalType::FixedLenByteArray;
      e.type_length = decimal_bytes(p);
      e.converted_type = ConvertedType::Decimal;
      e.scale = dt.scale();
      e.precision = p;
      LogicalType t;
      t.kind = LogicalKind::Decimal;
      t.scale = dt.scale();
      t.precision = p;
      e.logical_type = t;
      break;
    }
    case TypeId::Array:  // a LIST; the footer's dtype restores the width
    case TypeId::List: {
      e.num_children = 1;
      e.converted_type = ConvertedType::List;
      e.logical_type = logical(LogicalKind::List);
      out.push_back(e);
      SchemaElement rep;
      rep.name = "list";
      rep.repetition = Repetition::Repeated;
      rep.num_children = 1;
      out.push_back(rep);
      add_schema("element", dt.inner(), out);
      return;
    }
    case TypeId::Struct: {
      if (dt.fields().empty()) throw InvalidOperationError(err_msg("cannot write empty struct column '", name, "' to parquet"));
      e.num_children = static_cast<int32_t>(dt.fields().size());
      out.push_back(e);
      for (const auto& f : dt.fields()) add_schema(f.name, f.dtype, out);
      return;
    }
    case TypeId::Int128:
    case TypeId::UInt128:
      // As Polars writes them: 16 little-endian bytes with no logical type; the ARROW:schema
      // footer says Int128/UInt128 (other readers see FIXED_LEN_BYTE_ARRAY(16) binary).
      e.type = PhysicalType::FixedLenByteArray;
      e.type_length = 16;
      break;
    case TypeId::Float16:
      e.type = PhysicalType::FixedLenByteArray;
      e.type_length = 2;
      e.logical_type = logical(LogicalKind::Float16);
      break;
  }
  out.push_back(e);
}

Codec to_codec(ParquetCompression c) {
  switch (c) {
    case ParquetCompression::Uncompressed: return Codec::Uncompressed;
    case ParquetCompression::Snappy: return Codec::Snappy;
    case ParquetCompression::Gzip: return Codec::Gzip;
    case ParquetCompression::Lz4: return Codec::Lz4Raw;
    case ParquetCompression::Zstd: return Codec::Zstd;
    case ParquetCompression::Lz4Hadoop: return Codec::Lz4;
    case ParquetCompression::Brotli: return Codec::Brotli;
  }
  return Codec::Uncompressed;
}

// Levels and value positions of one leaf of one row group.
struct Shredded {
  std::vector<int16_t> def, rep;
  int64_t levels = 0;
  ArrayRef values;            // the leaf array the positions index
  std::vector<int64_t> idx;   // logical indices of the non-null values in `values`
};

class Shredder {
 public:
  Shredder(int target, const LeafColumn& leaf, Shredded& out) : target_(target), leaf_(leaf), out_(out) {}

  void run(const SchemaNode& n, const ArrayRef& a, int64_t i, int16_t rep) {
    if (n.nullable && a->is_null(i)) {
      push(static_cast<int16_t>(n.def_level - 1), rep);
      return;
    }
    switch (n.kind) {
      case SchemaNode::Kind::Primitive:
        if (!out_.values) out_.values = a;
        push(n.def_level, rep);
        out_.idx.push_back(i);
        return;
      case SchemaNode::Kind::Struct:
        for (size_t c = 0; c < n.children.size(); ++c) {
          const auto& ls = n.children[c].leaves;
          if (std::find(ls.begin(), ls.end(), target_) != ls.end()) {
            run(n.children[c], a->child(c), a->offset() + i, rep);
            return;
          }
        }
        return;
      case SchemaNode::Kind::List: {
        const int64_t* o = a->list_offsets();
        if (o[i] == o[i + 1]) {
          push(n.def_level, rep);
          return;
        }
        for (int64_t j = o[i]; j < o[i + 1]; ++j) run(n.children[0], a->child(0), j, j == o[i] ? rep : n.entry_rep);
        return;
      }
    }
  }

 private:
  void push(int16_t def, int16_t rep) {
    if (leaf_.max_def > 0) out_.def.push_back(def);
    if (leaf_.max_rep > 0) out_.rep.push_back(rep);
    ++out_.levels;
  }

  int target_;
  const LeafColumn& leaf_;
  Shredded& out_;
};

template <typename T>
void put(std::vector<uint8_t>& out, T v) {
  uint8_t b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.insert(out.end(), b, b + sizeof(T));
}

void put_decimal(std::vector<uint8_t>& out, int128 v, int32_t len) {
  for (int32_t k = len - 1; k >= 0; --k) out.push_back(static_cast<uint8_t>(static_cast<unsigned __int128>(v) >> (8 * k)));
}

std::string decimal_bytes_of(int128 v, int32_t len) {
  std::vector<uint8_t> b;
  put_decimal(b, v, len);
  return std::string(b.begin(), b.end());
}

template <typename T>
std::string raw_bytes(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

class ChunkWriter {
 public:
  ChunkWriter(const LeafColumn& leaf, const Shredded& s, const ParquetWriteOptions& opt, Codec codec)
      : leaf_(leaf), s_(s), opt_(opt), codec_(codec), dt_(leaf.dtype) {}

  // Appends the chunk's pages to `file` (which starts at byte `base` of the output)
  // and fills the column metadata.
  ColumnMetaData write(std::vector<uint8_t>& file, int64_t base);

 private:
  void encode_plain(size_t va, size_t vb, std::vector<uint8_t>& out) const;
  bool build_dictionary();
  void write_page(std::vector<uint8_t>& file, PageType type, const std::vector<uint8_t>& body, int32_t num_values,
                  Encoding enc);
  Statistics statistics() const;
  size_t value_size(int64_t k) const;

  const LeafColumn& leaf_;
  const Shredded& s_;
  const ParquetWriteOptions& opt_;
  Codec codec_;
  DataType dt_;
  std::vector<uint32_t> dict_index_;     // per value
  std::vector<std::string_view> dict_;   // distinct values
  int64_t uncompressed_ = 0;
  std::vector<uint8_t> scratch_;
};

size_t ChunkWriter::value_size(int64_t k) const {
  if (dt_.is_view()) return 4 + s_.values->str_value(s_.idx[k]).size();
  if (dt_.is_boolean()) return 1;
  if (dt_.id() == TypeId::Decimal) return 16;
  if (dt_.id() == TypeId::Float16) return 2;  // FIXED_LEN_BYTE_ARRAY values have no length prefix
  return static_cast<size_t>(std::max(dt_.byte_width(), 4));
}

void ChunkWriter::encode_plain(size_t va, size_t vb, std::vector<uint8_t>& out) const {
  if (va == vb) return;  // no values (all null): there may be no leaf array at all
  const Array& a = *s_.values;
  const int64_t* idx = s_.idx.data();
  switch (dt_.id()) {
    case TypeId::Null: return;
    case TypeId::Boolean: {
      size_t base = out.size();
      out.resize(base + (vb - va + 7) / 8, 0);
      for (size_t k = va; k < vb; ++k)
        if (a.bool_value(idx[k])) out[base + (k - va) / 8] |= uint8_t(1u << ((k - va) % 8));
      return;
    }
    case TypeId::Int8: for (size_t k = va; k < vb; ++k) put<int32_t>(out, a.values<int8_t>()[idx[k]]); return;
    case TypeId::Int16: for (size_t k = va; k < vb; ++k) put<int32_t>(out, a.values<int16_t>()[idx[k]]); return;
    case TypeId::UInt8: for (size_t k = va; k < vb; ++k) put<int32_t>(out, a.values<uint8_t>()[idx[k]]); return;
    case TypeId::UInt16: for (size_t k = va; k < vb; ++k) put<int32_t>(out, a.values<uint16_t>()[idx[k]]); return;
    case TypeId::Int32:
    case TypeId::UInt32:
    case TypeId::Date:
    case TypeId::Float32: for (size_t k = va; k < vb; ++k) put<uint32_t>(out, a.values<uint32_t>()[idx[k]]); return;
    case TypeId::Int64:
    case TypeId::UInt64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time:
    case TypeId::Float64: for (size_t k = va; k < vb; ++k) put<uint64_t>(out, a.values<uint64_t>()[idx[k]]); return;
    case TypeId::Decimal: {
      const int32_t len = leaf_.type_length;
      for (size_t k = va; k < vb; ++k) {
        int128 v;
        std::memcpy(&v, a.buffer(0).data() + (a.offset() + idx[k]) * 16, 16);
        put_decimal(out, v, len);
      }
      return;
    }
    case TypeId::Int128:
    case TypeId::UInt128:
    case TypeId::Float16: {
      // FIXED_LEN_BYTE_ARRAY of the values' own little-endian bytes.
      const size_t w = static_cast<size_t>(dt_.byte_width());
      const uint8_t* base = a.buffer(0).data() + a.offset() * static_cast<int64_t>(w);
      for (size_t k = va; k < vb; ++k) out.insert(out.end(), base + idx[k] * w, base + (idx[k] + 1) * w);
      return;
    }
    case TypeId::String:
    case TypeId::Binary:
      for (size_t k = va; k < vb; ++k) {
        std::string_view s = a.str_value(idx[k]);
        put<uint32_t>(out, static_cast<uint32_t>(s.size()));
        out.insert(out.end(), s.begin(), s.end());
      }
      return;
    default: break;
  }
  throw InternalError("parquet writer: unexpected leaf dtype");
}

// Dictionary-encodes string/binary values when the dictionary is small next to the data.
bool ChunkWriter::build_dictionary() {
  if (!opt_.dictionary || !dt_.is_view() || s_.idx.empty()) return false;
  std::unordered_map<std::string_view, uint32_t> seen;
  dict_index_.resize(s_.idx.size());
  size_t dict_bytes = 0, total_bytes = 0;
  for (size_t k = 0; k < s_.idx.size(); ++k) {
    std::string_view v = s_.values->str_value(s_.idx[k]);
    total_bytes += v.size() + 4;
    auto [it, fresh] = seen.emplace(v, static_cast<uint32_t>(dict_.size()));
    if (fresh) {
      dict_.push_back(v);
      dict_bytes += v.size() + 4;
      if (dict_bytes > (1u << 20) || dict_.size() > s_.idx.size() / 2 + 1) {
        dict_.clear();
        dict_index_.clear();
        return false;
      }
    }
    dict_index_[k] = it->second;
  }
  // Pays when the indices and the dictionary are clearly smaller than the plain values.
  size_t index_bytes = s_.idx.size() * static_cast<size_t>(bit_width_for(dict_.size())) / 8 + 1;
  if (dict_bytes + index_bytes > total_bytes * 3 / 4) {
    dict_.clear();
    dict_index_.clear();
    return false;
  }
  return true;
}

void ChunkWriter::write_page(std::vector<uint8_t>& file, PageType type, const std::vector<uint8_t>& body,
                             int32_t num_values, Encoding enc) {
  compress(codec_, opt_.compression_level.value_or(-1), body.data(), body.size(), scratch_);
  if (body.size() > INT32_MAX || scratch_.size() > INT32_MAX) throw ComputeError("parquet page larger than 2 GiB");
  PageHeader ph;
  ph.type = type;
  ph.uncompressed_page_size = static_cast<int32_t>(body.size());
  ph.compressed_page_size = static_cast<int32_t>(scratch_.size());
  if (type == PageType::DictionaryPage) {
    DictionaryPageHeader d;
    d.num_values = num_values;
    d.encoding = Encoding::Plain;
    ph.dictionary_page_header = d;
  } else {
    DataPageHeader d;
    d.num_values = num_values;
    d.encoding = enc;
    d.definition_level_encoding = Encoding::Rle;
    d.repetition_level_encoding = Encoding::Rle;
    ph.data_page_header = d;
  }
  ThriftWriter w;
  encode_page_header(ph, w);
  file.insert(file.end(), w.bytes().begin(), w.bytes().end());
  file.insert(file.end(), scratch_.begin(), scratch_.end());
  uncompressed_ += static_cast<int64_t>(w.bytes().size() + body.size());
}

// Binary statistics are cut to this many bytes (Polars' default 64, or
// POLARS_PARQUET_BINARY_STATISTICS_TRUNCATE_LEN; 0: never), so that large values do not
// bloat the footer. A cut min is a prefix; a cut max is a prefix with its last character
// (or byte) incremented, still an upper bound.
size_t binary_statistics_limit() {
  if (const char* v = std::getenv("POLARS_PARQUET_BINARY_STATISTICS_TRUNCATE_LEN")) {
    char* end = nullptr;
    const long long n = std::strtoll(v, &end, 10);
    if (end != v && *end == '\0' && n >= 0) return n == 0 ? SIZE_MAX : static_cast<size_t>(n);
  }
  return 64;
}

// Length of the longest prefix of at most `limit` bytes ending on a character boundary
// (for strings; at least one character), or `limit` for binary.
size_t cut_length(std::string_view v, size_t limit, bool utf8) {
  if (v.size() <= limit) return v.size();
  if (!utf8) return limit;
  size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(v[cut]) & 0xC0) == 0x80) --cut;
  if (cut == 0) {
    // The first character alone is longer than the limit: keep it whole.
    cut = 1;
    while (cut < v.size() && (static_cast<unsigned char>(v[cut]) & 0xC0) == 0x80) ++cut;
  }
  return cut;
}

std::string truncate_min(std::string_view v, size_t limit, bool utf8) {
  return std::string(v.substr(0, cut_length(v, limit, utf8)));
}

std::string truncate_max(std::string_view v, size_t limit, bool utf8) {
  const size_t cut = cut_length(v, limit, utf8);
  if (cut == v.size()) return std::string(v);
  if (utf8) {
    // Increment the last character that can be (decoded, +1, re-encoded; no surrogates).
    std::vector<uint32_t> cps;
    for (size_t i = 0; i < cut;) {
      const unsigned char c = static_cast<unsigned char>(v[i]);
      const int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
      for (int k = 1; k < n && i + k < cut; ++k) cp = (cp << 6) | (static_cast<unsigned char>(v[i + k]) & 0x3F);
      cps.push_back(cp);
      i += static_cast<size_t>(n);
    }
    while (!cps.empty()) {
      uint32_t next = cps.back() + 1;
      if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;
      if (next <= 0x10FFFF) {
        cps.back() = next;
        std::string out;
        for (uint32_t cp : cps) {
          if (cp < 0x80) out += static_cast<char>(cp);
          else if (cp < 0x800) out += static_cast<char>(0xC0 | (cp >> 6)), out += static_cast<char>(0x80 | (cp & 0x3F));
          else if (cp < 0x10000)
            out += static_cast<char>(0xE0 | (cp >> 12)), out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)),
                out += static_cast<char>(0x80 | (cp & 0x3F));
          else
            out += static_cast<char>(0xF0 | (cp >> 18)), out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F)),
                out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)), out += static_cast<char>(0x80 | (cp & 0x3F));
        }
        return out;
      }
      cps.pop_back();
    }
    return std::string(v);
  }
  // Bytes: the last byte below 0xFF within the prefix, else the first one after it.
  for (size_t i = cut; i-- > 0;)
    if (static_cast<unsigned char>(v[i]) != 0xFF) {
      std::string out(v.substr(0, i + 1));
      out.back() = static_cast<char>(static_cast<unsigned char>(out.back()) + 1);
      return out;
    }
  for (size_t i = cut; i < v.size(); ++i)
    if (static_cast<unsigned char>(v[i]) != 0xFF) {
      std::string out(v.substr(0, i + 1));
      out.back() = static_cast<char>(static_cast<unsigned char>(out.back()) + 1);
      return out;
    }
  return std::string(v);
}

Statistics ChunkWriter::statistics() const {
  Statistics st;
  st.null_count = s_.levels - static_cast<int64_t>(s_.idx.size());
  if (s_.idx.empty() || dt_.is_null()) return st;
  const Array& a = *s_.values;
  const auto& idx = s_.idx;
  auto set = [&](std::string mn, std::string mx, bool signed_order) {
    if (signed_order) {
      st.min = mn;
      st.max = mx;
    }
    st.min_value = std::move(mn);
    st.max_value = std::move(mx);
  };
  auto minmax = [&](auto tag, auto&& load) {
    using T = decltype(tag);
    T mn = load(idx[0]), mx = mn;
    for (size_t k = 1; k < idx.size(); ++k) {
      T v = load(idx[k]);
      mn = std::min(mn, v);
      mx = std::max(mx, v);
    }
    return std::pair<T, T>(mn, mx);
  };
  switch (dt_.id()) {
    case TypeId::Boolean: {
      auto [mn, mx] = minmax(int{}, [&](int64_t i) { return int(a.bool_value(i)); });
      set(std::string(1, char(mn)), std::string(1, char(mx)), true);
      break;
    }
    case TypeId::Int8: {
      auto [mn, mx] = minmax(int32_t{}, [&](int64_t i) { return int32_t(a.values<int8_t>()[i]); });
      set(raw_bytes(mn), raw_bytes(mx), true);
      break;
    }
    case TypeId::Int16: {
      auto [mn, mx] = minmax(int32_t{}, [&](int64_t i) { return int32_t(a.values<int16_t>()[i]); });
      set(raw_bytes(mn), raw_bytes(mx), true);
      break;
    }
    case TypeId::Int32: case TypeId::Date: {
      auto [mn, mx] = minmax(int32_t{}, [&](int64_t i) { return a.values<int32_t>()[i]; });
      set(raw_bytes(mn), raw_bytes(mx), true);
      break;
    }
    case TypeId::UInt8: {
      auto [mn, mx] = minmax(uint32_t{}, [&](int64_t i) { return uint32_t(a.values<uint8_t>()[i]); });
      set(raw_bytes(mn), raw_bytes(mx), false);
      break;
    }
    case TypeId::UInt16: {
      auto [mn, mx] = minmax(uint32_t{}, [&](int64_t i) { return uint32_t(a.values<uint16_t>()[i]); });
      set(raw_bytes(mn), raw_bytes(mx), false);
      break;
    }
    case TypeId::UInt32: {
      auto [mn, mx] = minmax(uint32_t{}, [&](int64_t i) { return a.values<uint32_t>()[i]; });
      set(raw_bytes(mn), raw_bytes(mx), false);
      break;
    }
    case TypeId::Int64: case TypeId::Datetime: case TypeId::Duration: case TypeId::Time: {
      auto [mn, mx] = minmax(int64_t{}, [&](int64_t i) { return a.values<int64_t>()[i]; });
      set(raw_bytes(mn), raw_bytes(mx), true);
      break;
    }
    case TypeId::UInt64: {
      auto [mn, mx] = minmax(uint64_t{}, [&](int64_t i) { return a.values<uint64_t>()[i]; });
      set(raw_bytes(mn), raw_bytes(mx), false);
      break;
    }
    case TypeId::Float32:
    case TypeId::Float64: {
      bool any = false;
      double mn = 0, mx = 0;
      for (int64_t i : idx) {
        double v = dt_.id() == TypeId::Float32 ? a.values<float>()[i] : a.values<double>()[i];
        if (std::isnan(v)) continue;
        if (!any || v < mn || (v == 0 && mn == 0 && std::signbit(v))) mn = v;
        if (!any || v > mx || (v == 0 && mx == 0 && !std::signbit(v))) mx = v;
        any = true;
      }
      if (!any) break;  // only NaNs: no bounds
      if (mn == 0) mn = -0.0;
      if (mx == 0) mx = 0.0;
      if (dt_.id() == TypeId::Float32) set(raw_bytes(float(mn)), raw_bytes(float(mx)), true);
      else set(raw_bytes(mn), raw_bytes(mx), true);
      break;
    }
    case TypeId::Decimal: {
      auto [mn, mx] = minmax(int128{}, [&](int64_t i) {
        int128 v;
        std::memcpy(&v, a.buffer(0).data() + (a.offset() + i) * 16, 16);
        return v;
      });
      set(decimal_bytes_of(mn, leaf_.type_length), decimal_bytes_of(mx, leaf_.type_length), false);
      break;
    }
    case TypeId::String:
    case TypeId::Binary: {
      auto [mn, mx] = minmax(std::string_view{}, [&](int64_t i) { return a.str_value(i); });
      const size_t limit = binary_statistics_limit();
      const bool utf8 = dt_.id() == TypeId::String;
      set(truncate_min(mn, limit, utf8), truncate_max(mx, limit, utf8), false);
      break;
    }
    default: break;
  }
  return st;
}

ColumnMetaData ChunkWriter::write(std::vector<uint8_t>& file, int64_t base) {
  ColumnMetaData m;
  m.type = leaf_.physical;
  m.path_in_schema = leaf_.path;
  m.codec = codec_;
  m.num_values = s_.levels;
  const int64_t start = base + static_cast<int64_t>(file.size());
  const bool dict = build_dictionary();
  std::vector<uint8_t> body;
  if (dict) {
    m.dictionary_page_offset = start;
    for (std::string_view v : dict_) {
      put<uint32_t>(body, static_cast<uint32_t>(v.size()));
      body.insert(body.end(), v.begin(), v.end());
    }
    write_page(file, PageType::DictionaryPage, body, static_cast<int32_t>(dict_.size()), Encoding::Plain);
  }
  m.data_page_offset = base + static_cast<int64_t>(file.size());
  const Encoding enc = dict ? Encoding::RleDictionary : Encoding::Plain;
  const int dict_bw = dict ? bit_width_for(dict_.empty() ? 0 : dict_.size() - 1) : 0;
  const int def_bw = bit_width_for(static_cast<uint64_t>(leaf_.max_def));
  const int rep_bw = bit_width_for(static_cast<uint64_t>(leaf_.max_rep));
  std::vector<uint32_t> tmp;
  std::vector<uint8_t> rle;

  // Pages end at a record boundary once they hold about data_page_size bytes.
  int64_t level = 0;
  size_t value = 0;
  while (level < s_.levels) {
    int64_t lend = level;
    size_t vend = value;
    size_t bytes = 0;
    const int64_t max_levels = INT32_MAX / 2;
    while (lend < s_.levels) {
      if (lend > level && (s_.rep.empty() || s_.rep[lend] == 0) &&
          (bytes >= static_cast<size_t>(opt_.data_page_size) || lend - level >= max_levels))
        break;
      bool has_value = s_.def.empty() || s_.def[lend] == leaf_.max_def;
      if (has_value) {
        bytes += dict ? 2 : value_size(static_cast<int64_t>(vend));
        ++vend;
      } else {
        bytes += 1;
      }
      ++lend;
    }
    body.clear();
    auto put_levels = [&](const std::vector<int16_t>& lv, int bw) {
      tmp.assign(lv.begin() + level, lv.begin() + lend);
      rle.clear();
      encode_rle_bitpacked(tmp.data(), tmp.size(), bw, rle);
      put<uint32_t>(body, static_cast<uint32_t>(rle.size()));
      body.insert(body.end(), rle.begin(), rle.end());
    };
    if (leaf_.max_rep > 0) put_levels(s_.rep, rep_bw);
    if (leaf_.max_def > 0) put_levels(s_.def, def_bw);
    if (dict) {
      body.push_back(static_cast<uint8_t>(dict_bw));
      encode_rle_bitpacked(dict_index_.data() + value, vend - value, dict_bw, body);
    } else {
      encode_plain(value, vend, body);
    }
    write_page(file, PageType::DataPage, body, static_cast<int32_t>(lend - level), enc);
    level = lend;
    value = vend;
  }
  if (dict) m.encodings = {Encoding::Plain, Encoding::Rle, Encoding::RleDictionary};
  else m.encodings = {Encoding::Plain, Encoding::Rle};
  m.total_compressed_size = base + static_cast<int64_t>(file.size()) - start;
  m.total_uncompressed_size = uncompressed_;
  if (opt_.statistics) m.statistics = statistics();
  return m;
}

// Dtypes that Parquet cannot say by itself, recorded for frazil's reader.
std::string frazil_schema_text(const Schema& schema) {
  std::string s;
  for (const auto& f : schema.fields()) {
    s += f.name;
    s += '\t';
    s += f.dtype.to_string();
    s += '\n';
  }
  return s;
}

}  // namespace

// ----------------------------------------------------------------------- ParquetWriter

void check_compression_level(const ParquetWriteOptions& opt) {
  if (!opt.compression_level) return;
  int lo = 0, hi = 0;
  switch (opt.compression) {
    case ParquetCompression::Zstd: lo = 1, hi = 22; break;
    case ParquetCompression::Gzip: lo = 0, hi = 9; break;
    case ParquetCompression::Brotli: lo = 0, hi = 11; break;
    default: return;  // the other codecs have no levels: ignored, as Polars does
  }
  const int level = *opt.compression_level;
  if (level < lo || level > hi)
    throw InvalidOperationError(err_msg("compression level ", level, " is out of range: valid compression range ",
                                        lo, "..=", hi, " exceeded."));
}

bool has_wide_integer(const DataType& t) {
  if (t.id() == TypeId::Int128 || t.id() == TypeId::UInt128) return true;
  if (t.id() == TypeId::List || t.id() == TypeId::Array) return has_wide_integer(t.inner());
  if (t.id() == TypeId::Struct)
    for (const auto& f : t.fields())
      if (has_wide_integer(f.dtype)) return true;
  return false;
}

struct ParquetWriter::Impl {
  Impl(OutputStream* out, std::unique_ptr<OutputFile> file, Schema schema, ParquetWriteOptions options)
      : file(std::move(file)), out(out ? out : this->file.get()), schema(std::move(schema)), opt(options) {
    if (opt.row_group_size <= 0) throw InvalidOperationError("row_group_size must be positive");
    if (opt.data_page_size <= 0) throw InvalidOperationError("data_page_size must be positive");
    codec = to_codec(opt.compression);
    check_compression_level(opt);
    md.version = 2;
    SchemaElement root;
    root.name = "schema";
    root.num_children = static_cast<int32_t>(this->schema.size());
    md.schema.push_back(root);
    for (const Field& f : this->schema.fields()) {
      if (f.dtype.is_nested() && has_wide_integer(f.dtype))
        throw InvalidOperationError(err_msg("cannot write column '", f.name, "' of dtype ", f.dtype,
                                            " to parquet: Int128/UInt128 inside a List, Array or Struct"));
      add_schema(f.name, f.dtype, md.schema);
    }
    pschema = std::make_unique<ParquetSchema>(md.schema);
    // The leaves are read back from the elements: a FIXED_LEN_BYTE_ARRAY(16) holds Int128/UInt128.
    for (size_t i = 0; i < this->schema.size(); ++i) pschema->read_as_wide_integer(i, this->schema.fields()[i].dtype);
    md.created_by = "frazil version " FRAZIL_VERSION_STRING;
    md.key_value_metadata.push_back({kFrazilSchemaKey, frazil_schema_text(this->schema)});
    md.key_value_metadata.push_back({kArrowSchemaKey, encode_arrow_schema(this->schema)});
    md.column_orders.assign(pschema->leaves().size(), true);
  }

  void emit(const std::vector<uint8_t>& bytes) {
    out->write(bytes.data(), bytes.size());
    offset += static_cast<int64_t>(bytes.size());
  }

  // One row group from the first `rows` rows of `df`.
  void write_row_group(const DataFrame& df, int64_t start, int64_t rows);

  std::unique_ptr<OutputFile> file;
  OutputStream* out;
  Schema schema;
  ParquetWriteOptions opt;
  Codec codec;
  FileMetaData md;
  std::unique_ptr<ParquetSchema> pschema;
  std::vector<DataFrame> pending;  // rows not yet in a row group
  int64_t pending_rows = 0;
  int64_t offset = 0;
  bool started = false;
  bool finished = false;
};

void ParquetWriter::Impl::write_row_group(const DataFrame& df, int64_t start, int64_t rows) {
  const ParquetSchema& ps = *pschema;
  const auto& leaves = ps.leaves();
  std::vector<uint8_t> buf;
  if (!started) {
    buf = {'P', 'A', 'R', '1'};
    started = true;
  }
  const int64_t base = offset;
  RowGroup rg;
  rg.num_rows = rows;
  rg.file_offset = base + static_cast<int64_t>(buf.size());
  rg.ordinal = static_cast<int16_t>(md.row_groups.size());
  // Leaves are shredded, encoded and compressed in parallel, each into its own bytes;
  // then appended in schema order with their offsets rebased.
  std::vector<ArrayRef> arrays(ps.fields().size());
  for (size_t f = 0; f < ps.fields().size(); ++f) {
    arrays[f] = df.column(f).slice(start, rows).as_array();
    // Categorical/Enum values are written as their strings, also inside lists and structs
    // (read back by the footer's dtype).
    if (arrays[f]->dtype().is_categorical()) {
      arrays[f] = decode_categorical(*arrays[f]);
    } else if (DataType plain = strings_for_categories(arrays[f]->dtype()); plain != arrays[f]->dtype()) {
      arrays[f] = compute::cast(*arrays[f], plain, /*strict=*/true, df.column(f).name());
    }
  }
  std::vector<std::vector<uint8_t>> chunk_bytes(leaves.size());
  std::vector<ColumnMetaData> chunk_meta(leaves.size());
  parallel_for(leaves.size(), [&](size_t l) {
    const SchemaNode& node = ps.fields()[leaves[l].top_level];
    const ArrayRef& arr = arrays[leaves[l].top_level];
    Shredded s;
    if (node.kind == SchemaNode::Kind::Primitive) {
      // A top-level primitive: one level per row, no recursion.
      s.values = arr;
      s.levels = rows;
      s.idx.reserve(static_cast<size_t>(rows));
      s.def.resize(static_cast<size_t>(rows));
      for (int64_t i = 0; i < rows; ++i) {
        bool valid = arr->is_valid(i);
        s.def[i] = static_cast<int16_t>(valid);
        if (valid) s.idx.push_back(i);
      }
    } else {
      Shredder sh(static_cast<int>(l), leaves[l], s);
      for (int64_t i = 0; i < rows; ++i) sh.run(node, arr, i, 0);
    }
    ChunkWriter cw(leaves[l], s, opt, codec);
    chunk_meta[l] = cw.write(chunk_bytes[l], 0);
  });
  for (size_t l = 0; l < leaves.size(); ++l) {
    const int64_t at = base + static_cast<int64_t>(buf.size());
    ColumnChunk cc;
    cc.file_offset = at;
    cc.meta_data = std::move(chunk_meta[l]);
    cc.meta_data->data_page_offset += at;
    if (cc.meta_data->dictionary_page_offset) *cc.meta_data->dictionary_page_offset += at;
    buf.insert(buf.end(), chunk_bytes[l].begin(), chunk_bytes[l].end());
    std::vector<uint8_t>().swap(chunk_bytes[l]);
    rg.total_byte_size += cc.meta_data->total_uncompressed_size;
    rg.columns.push_back(std::move(cc));
  }
  rg.total_compressed_size = base + static_cast<int64_t>(buf.size()) - *rg.file_offset;
  md.row_groups.push_back(std::move(rg));
  md.num_rows += rows;
  emit(buf);
}

ParquetWriter::ParquetWriter(OutputStream& out, Schema schema, ParquetWriteOptions options)
    : impl_(std::make_unique<Impl>(&out, nullptr, std::move(schema), options)) {}

ParquetWriter::ParquetWriter(const std::string& path, Schema schema, ParquetWriteOptions options) {
  // Options are checked before the file is created.
  auto impl = std::make_unique<Impl>(nullptr, nullptr, std::move(schema), options);
  impl->file = std::make_unique<OutputFile>(path);
  impl->out = impl->file.get();
  impl_ = std::move(impl);
}

ParquetWriter::~ParquetWriter() = default;

void ParquetWriter::write_batch(const DataFrame& batch) {
  Impl& w = *impl_;
  if (w.finished) throw InvalidOperationError("write_batch after finish");
  if (batch.schema() != w.schema)
    throw SchemaError(err_msg("cannot write a batch with schema ", batch.schema().to_string(),
                              " to a Parquet file of schema ", w.schema.to_string()));
  if (batch.height() == 0) return;
  // Row groups of row_group_size rows; the rest waits for the next batch or finish().
  w.pending.push_back(batch);
  w.pending_rows += batch.height();
  if (w.pending_rows < w.opt.row_group_size) return;
  DataFrame all = concat_frames(w.pending);
  w.pending.clear();
  int64_t start = 0;
  for (; all.height() - start >= w.opt.row_group_size; start += w.opt.row_group_size)
    w.write_row_group(all, start, w.opt.row_group_size);
  w.pending_rows = all.height() - start;
  if (w.pending_rows > 0) w.pending.push_back(all.slice(start, w.pending_rows));
}

void ParquetWriter::finish() {
  Impl& w = *impl_;
  if (w.finished) return;
  if (w.pending_rows > 0) {
    DataFrame rest = concat_frames(w.pending);
    w.pending.clear();
    w.write_row_group(rest, 0, rest.height());
    w.pending_rows = 0;
  }
  std::vector<uint8_t> buf;
  if (!w.started) {
    buf = {'P', 'A', 'R', '1'};
    w.started = true;
  }
  ThriftWriter tw;
  encode_file_metadata(w.md, tw);
  buf.insert(buf.end(), tw.bytes().begin(), tw.bytes().end());
  put<uint32_t>(buf, static_cast<uint32_t>(tw.bytes().size()));
  buf.insert(buf.end(), {'P', 'A', 'R', '1'});
  w.emit(buf);
  w.finished = true;
  if (w.file) w.file->commit();
}

void ParquetWriter::abort() noexcept {
  impl_->finished = true;
  if (impl_->file) impl_->file->abort();
}

std::vector<uint8_t> write_parquet_to_buffer(const DataFrame& df, const ParquetWriteOptions& opt) {
  MemoryOutput out;
  ParquetWriter w(out, df.schema(), opt);
  w.write_batch(df);
  w.finish();
  const std::string& d = out.data();
  return std::vector<uint8_t>(d.begin(), d.end());
}

void write_parquet(const DataFrame& df, const std::string& path, const ParquetWriteOptions& options) {
  ParquetWriter w(path, df.schema(), options);
  w.write_batch(df);
  w.finish();
}

}  // namespace frazil::io::parquet
