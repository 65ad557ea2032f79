#include "frazil/io/csv/csv_column_parser.hpp"

#include "frazil/core/categorical_array.hpp"
#include "frazil/core/categories.hpp"

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/compute/cast_format.hpp"
#include "frazil/io/csv/csv_utf8.hpp"
#include "frazil/io/csv/csv_value_parser.hpp"

namespace frazil::io::csv_detail {

namespace {

// Lazily materialised validity: no bitmap until the first null.
class Validity {
 public:
  void push_valid(int64_t i) {
    if (active_) ensure_and_set(i, true);
  }
  void push_null(int64_t i) {
    if (!active_) {
      active_ = true;
      bits_.resize(i, true);
    }
    ensure_and_set(i, false);
    ++nulls_;
  }
  int64_t nulls() const { return nulls_; }
  Buffer finish() {
    Buffer out = active_ ? bits_.finish() : Buffer();
    active_ = false;
    nulls_ = 0;
    return out;
  }

 private:
  void ensure_and_set(int64_t i, bool v) {
    FRAZIL_CHECK_EQ(bits_.length(), i);
    bits_.push(v);
  }
  BitmapBuilder bits_;
  bool active_ = false;
  int64_t nulls_ = 0;
};

// Fixed-width values appended without per-value bookkeeping beyond a capacity check.
template <typename T>
class FixedBuilder {
 public:
  explicit FixedBuilder(DataType dtype) : dtype_(std::move(dtype)) {}
  void reserve(int64_t n) {
    if (n <= cap_) return;
    Buffer next = Buffer::allocate(static_cast<size_t>(n) * sizeof(T));
    if (len_) std::memcpy(next.mutable_data(), values_.data(), static_cast<size_t>(len_) * sizeof(T));
    values_ = std::move(next);
    cap_ = n;
  }
  void push(T v) {
    if (__builtin_expect(len_ == cap_, 0)) reserve(cap_ * 2 + 64);
    values_.mutable_as<T>()[len_] = v;
    validity_.push_valid(len_);
    ++len_;
  }
  void push_null() {
    if (__builtin_expect(len_ == cap_, 0)) reserve(cap_ * 2 + 64);
    values_.mutable_as<T>()[len_] = T{};
    validity_.push_null(len_);
    ++len_;
  }
  ArrayRef finish() {
    if (values_.empty()) reserve(1);
    values_.set_size(static_cast<size_t>(len_) * sizeof(T));
    int64_t nulls = validity_.nulls();
    auto out = Array::make(dtype_, len_, validity_.finish(), {values_}, {}, 0, nulls);
    values_ = Buffer();
    len_ = cap_ = 0;
    return out;
  }

 private:
  DataType dtype_;
  Buffer values_;
  int64_t len_ = 0;
  int64_t cap_ = 0;
  Validity validity_;
};

// Writes an inline view (length + up to 12 zero-padded bytes) with fixed-size loads that
// never read outside [s, s + n).
inline void store_inline(View* out, const char* s, size_t n) {
  uint64_t lo = 0;
  uint32_t hi = 0;
  auto load32 = [](const char* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  if (n >= 8) {
    std::memcpy(&lo, s, 8);
    if (n > 8) hi = load32(s + n - 4) >> (8 * (12 - n));
  } else if (n >= 4) {
    lo = uint64_t(load32(s)) | (uint64_t(load32(s + n - 4)) << (8 * (n - 4)));
  } else {
    for (size_t i = 0; i < n; ++i) lo |= uint64_t(static_cast<unsigned char>(s[i])) << (8 * i);
  }
  unsigned char buf[16];
  const uint32_t len = static_cast<uint32_t>(n);
  std::memcpy(buf, &len, 4);
  std::memcpy(buf + 4, &lo, 8);
  std::memcpy(buf + 12, &hi, 4);
  std::memcpy(out, buf, 16);
}

// String/Binary views; values longer than 12 bytes are copied into data blocks.
class ViewsBuilder {
 public:
  explicit ViewsBuilder(DataType dtype) : dtype_(std::move(dtype)) {}
  void reserve(int64_t n) {
    if (n <= cap_) return;
    Buffer next = Buffer::allocate(static_cast<size_t>(n) * sizeof(View));
    if (len_) std::memcpy(next.mutable_data(), views_.data(), static_cast<size_t>(len_) * sizeof(View));
    views_ = std::move(next);
    cap_ = n;
  }
  bool push(const char* s, size_t n) {
    if (n > UINT32_MAX) return false;
    if (__builtin_expect(len_ == cap_, 0)) reserve(cap_ * 2 + 64);
    View* out = views_.mutable_as<View>() + len_;
    if (n <= View::kInlineSize) {
      store_inline(out, s, n);
    } else {
      if (blocks_.empty() || used_ + n > blocks_.back().size()) new_block(n);
      std::memcpy(blocks_.back().mutable_data() + used_, s, n);
      *out = View::make_ref(s, static_cast<uint32_t>(n), static_cast<uint32_t>(blocks_.size() - 1),
                            static_cast<uint32_t>(used_));
      used_ += n;
    }
    validity_.push_valid(len_);
    ++len_;
    return true;
  }
  void push_null() {
    if (__builtin_expect(len_ == cap_, 0)) reserve(cap_ * 2 + 64);
    views_.mutable_as<View>()[len_] = View{};
    validity_.push_null(len_);
    ++len_;
  }
  ArrayRef finish() {
    if (views_.empty()) reserve(1);
    views_.set_size(static_cast<size_t>(len_) * sizeof(View));
    if (!blocks_.empty()) blocks_.back().set_size(used_);
    std::vector<Buffer> buffers{views_};
    for (auto& b : blocks_) buffers.push_back(std::move(b));
    int64_t nulls = validity_.nulls();
    auto out = Array::make(dtype_, len_, validity_.finish(), std::move(buffers), {}, 0, nulls);
    views_ = Buffer();
    blocks_.clear();
    len_ = cap_ = 0;
    used_ = 0;
    return out;
  }

 private:
  void new_block(size_t min_size) {
    if (!blocks_.empty()) blocks_.back().set_size(used_);
    // Offsets are 32-bit: blocks stay below 4 GiB.
    size_t size = std::max(next_block_, min_size);
    next_block_ = std::min<size_t>(next_block_ * 2, 16u << 20);
    blocks_.push_back(Buffer::allocate(size));
    used_ = 0;
  }

  DataType dtype_;
  Buffer views_;
  int64_t len_ = 0;
  int64_t cap_ = 0;
  std::vector<Buffer> blocks_;
  size_t used_ = 0;
  size_t next_block_ = 64 << 10;
  Validity validity_;
};

template <typename T>
class IntParser final : public ColumnParser {
 public:
  explicit IntParser(DataType dtype) : builder_(std::move(dtype)) {}
  AddResult add(const char* b, const char* e) override {
    T v;
    if (!parse_int<T>(b, e, v)) return AddResult::BadValue;
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  FixedBuilder<T> builder_;
};

template <typename T>
class FloatParser final : public ColumnParser {
 public:
  FloatParser(DataType dtype, bool decimal_comma)
      : builder_(std::move(dtype)), decimal_comma_(decimal_comma) {}
  AddResult add(const char* b, const char* e) override {
    T v;
    if (!parse_float<T>(b, e, v, decimal_comma_)) return AddResult::BadValue;
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  FixedBuilder<T> builder_;
  bool decimal_comma_;
};

// 128-bit integers: decimal digits with an optional sign, out of range a bad value.
template <typename T>
class Int128Parser final : public ColumnParser {
 public:
  explicit Int128Parser(DataType dtype) : builder_(std::move(dtype)) {}
  AddResult add(const char* b, const char* e) override {
    trim_spaces(b, e);
    if (b == e) return AddResult::BadValue;
    bool neg = false;
    if (*b == '-' || *b == '+') {
      neg = *b == '-';
      if (++b == e) return AddResult::BadValue;
    }
    constexpr bool is_signed = std::is_same_v<T, __int128>;
    if (!is_signed && neg) return AddResult::BadValue;  // also "-0", as Polars
    using U = unsigned __int128;
    // The magnitude's limit: 2^127 - 1 (2^127 when negative) or 2^128 - 1 unsigned.
    const U limit = is_signed ? (U(1) << 127) - (neg ? 0 : 1) : ~U(0);
    U v = 0;
    for (const char* p = b; p < e; ++p) {
      const unsigned d = static_cast<unsigned char>(*p - '0');
      if (d > 9 || v > (limit - d) / 10) return AddResult::BadValue;
      v = v * 10 + d;
    }
    builder_.push(neg ? static_cast<T>(U(0) - v) : static_cast<T>(v));
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  FixedBuilder<T> builder_;
};

// Decimal text ("-3.99", "1e3"), rounded to the column's scale; a value wider than its
// precision is a bad value (Polars' error). With decimal_comma the ',' is the point.
class DecimalParser final : public ColumnParser {
 public:
  DecimalParser(DataType dtype, bool decimal_comma)
      : precision_(dtype.precision()), scale_(dtype.scale()), builder_(std::move(dtype)),
        decimal_comma_(decimal_comma) {}
  AddResult add(const char* b, const char* e) override {
    __int128 v;
    std::string_view text(b, static_cast<size_t>(e - b));
    if (decimal_comma_ && text.find(',') != std::string_view::npos) {
      std::string dotted(text);
      for (char& c : dotted)
        if (c == ',') c = '.';
      if (!compute::parse_decimal(dotted, precision_, scale_, v)) return AddResult::BadValue;
    } else if (!compute::parse_decimal(text, precision_, scale_, v)) {
      return AddResult::BadValue;
    }
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  int precision_, scale_;
  FixedBuilder<__int128> builder_;
  bool decimal_comma_;
};

class BoolParser final : public ColumnParser {
 public:
  AddResult add(const char* b, const char* e) override {
    bool v;
    if (!parse_bool(b, e, v)) return AddResult::BadValue;
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override {
    // Bytes to bits.
    ArrayRef bytes = builder_.finish();
    const int64_t n = bytes->length();
    Buffer bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
    const uint8_t* v = bytes->values<uint8_t>();
    for (int64_t i = 0; i < n; ++i)
      if (v[i]) set_bit(bits.mutable_data(), i);
    return Array::make(DataType::boolean(), n, bytes->validity_buffer(), {bits}, {}, 0, bytes->null_count());
  }

 private:
  FixedBuilder<uint8_t> builder_{DataType::uint8()};
};

class StringParser final : public ColumnParser {
 public:
  StringParser(DataType dtype, CsvEncoding encoding)
      : builder_(dtype), check_utf8_(dtype.is_string()), lossy_(encoding == CsvEncoding::Utf8Lossy) {}
  AddResult add(const char* b, const char* e) override {
    if (check_utf8_ && !is_valid_utf8(b, e)) {
      if (!lossy_) return AddResult::BadUtf8;
      utf8_lossy(b, e, scratch_);
      return builder_.push(scratch_.data(), scratch_.size()) ? AddResult::Ok : AddResult::BadValue;
    }
    return builder_.push(b, static_cast<size_t>(e - b)) ? AddResult::Ok : AddResult::BadValue;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  ViewsBuilder builder_;
  bool check_utf8_;
  bool lossy_;
  std::string scratch_;
};

// Categorical/Enum: the strings are collected as a String column and encoded once per chunk.
// An Enum checks each value against its categories, so an unknown one is a bad value that
// the reader reports with its column and line (also with ignore_errors, as Polars does).
class CategoricalParser final : public ColumnParser {
 public:
  CategoricalParser(DataType dtype, CsvEncoding encoding)
      : dtype_(std::move(dtype)), strings_(DataType::string(), encoding) {}
  AddResult add(const char* b, const char* e) override {
    if (dtype_.id() == TypeId::Enum && !dtype_.categories().find(std::string_view(b, static_cast<size_t>(e - b))))
      return AddResult::NotInEnum;
    return strings_.add(b, e);
  }
  void add_null() override { strings_.add_null(); }
  void reserve(int64_t rows) override { strings_.reserve(rows); }
  ArrayRef finish() override { return encode_categorical(*strings_.finish(), dtype_); }

 private:
  DataType dtype_;
  StringParser strings_;
};

class DateParser final : public ColumnParser {
 public:
  DateParser() : builder_(DataType::date()) {}
  AddResult add(const char* b, const char* e) override {
    int32_t v;
    if (!parse_date(b, e, v)) return AddResult::BadValue;
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  FixedBuilder<int32_t> builder_;
};

// Values with an offset are converted to UTC; naive values are taken as they are (for a
// tz-aware column: as UTC wall time).
class DatetimeParser final : public ColumnParser {
 public:
  explicit DatetimeParser(DataType dtype) : unit_(dtype.time_unit()), builder_(std::move(dtype)) {}
  AddResult add(const char* b, const char* e) override {
    int64_t v;
    bool has_offset;
    if (!parse_datetime(b, e, unit_, v, has_offset)) return AddResult::BadValue;
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  TimeUnit unit_;
  FixedBuilder<int64_t> builder_;
};

class TimeParser final : public ColumnParser {
 public:
  TimeParser() : builder_(DataType::time()) {}
  AddResult add(const char* b, const char* e) override {
    int64_t v;
    if (!parse_time(b, e, v)) return AddResult::BadValue;
    builder_.push(v);
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  FixedBuilder<int64_t> builder_;
};

}  // namespace

bool csv_readable_dtype(const DataType& dtype) {
  switch (dtype.id()) {
    case TypeId::Boolean:
    case TypeId::Int8:
    case TypeId::Int16:
    case TypeId::Int32:
    case TypeId::Int64:
    case TypeId::UInt8:
    case TypeId::UInt16:
    case TypeId::UInt32:
    case TypeId::UInt64:
    case TypeId::Float32:
    case TypeId::Float64:
    case TypeId::String:
    case TypeId::Binary:
    case TypeId::Date:
    case TypeId::Datetime:
    case TypeId::Time:
    case TypeId::Categorical:
    case TypeId::Enum:
    case TypeId::Int128:
    case TypeId::UInt128:
    case TypeId::Decimal: return true;
    default: return false;
  }
}

std::unique_ptr<ColumnParser> make_column_parser(const DataType& dtype, const ParseConfig& config) {
  switch (dtype.id()) {
    case TypeId::Boolean: return std::make_unique<BoolParser>();
    case TypeId::Int8: return std::make_unique<IntParser<int8_t>>(dtype);
    case TypeId::Int16: return std::make_unique<IntParser<int16_t>>(dtype);
    case TypeId::Int32: return std::make_unique<IntParser<int32_t>>(dtype);
    case TypeId::Int64: return std::make_unique<IntParser<int64_t>>(dtype);
    case TypeId::UInt8: return std::make_unique<IntParser<uint8_t>>(dtype);
    case TypeId::UInt16: return std::make_unique<IntParser<uint16_t>>(dtype);
    case TypeId::UInt32: return std::make_unique<IntParser<uint32_t>>(dtype);
    case TypeId::UInt64: return std::make_unique<IntParser<uint64_t>>(dtype);
    case TypeId::Float32: return std::make_unique<FloatParser<float>>(dtype, config.decimal_comma);
    case TypeId::Float64: return std::make_unique<FloatParser<double>>(dtype, config.decimal_comma);
    case TypeId::String:
    case TypeId::Binary: return std::make_unique<StringParser>(dtype, config.encoding);
    case TypeId::Categorical:
    case TypeId::Enum: return std::make_unique<CategoricalParser>(dtype, config.encoding);
    case TypeId::Int128: return std::make_unique<Int128Parser<__int128>>(dtype);
    case TypeId::UInt128: return std::make_unique<Int128Parser<unsigned __int128>>(dtype);
    case TypeId::Decimal: return std::make_unique<DecimalParser>(dtype, config.decimal_comma);
    case TypeId::Date: return std::make_unique<DateParser>();
    case TypeId::Datetime: return std::make_unique<DatetimeParser>(dtype);
    case TypeId::Time: return std::make_unique<TimeParser>();
    default: return nullptr;
  }
}

}  // namespace frazil::io::csv_detail
