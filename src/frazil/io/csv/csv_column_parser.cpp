#include "frazil/io/csv/csv_column_parser.hpp"

#include "frazil/core/builder.hpp"
#include "frazil/io/csv/csv_utf8.hpp"
#include "frazil/io/csv/csv_value_parser.hpp"

namespace frazil::io::csv_detail {

namespace {

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
  PrimitiveBuilder<T> builder_;
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
  PrimitiveBuilder<T> builder_;
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
  void reserve(int64_t) override {}
  ArrayRef finish() override { return builder_.finish(); }

 private:
  BooleanBuilder builder_;
};

class StringParser final : public ColumnParser {
 public:
  StringParser(DataType dtype, CsvEncoding encoding)
      : builder_(dtype), check_utf8_(dtype.is_string()), lossy_(encoding == CsvEncoding::Utf8Lossy) {}
  AddResult add(const char* b, const char* e) override {
    if (check_utf8_ && !is_valid_utf8(b, e)) {
      if (!lossy_) return AddResult::BadUtf8;
      utf8_lossy(b, e, scratch_);
      builder_.push(scratch_);
      return AddResult::Ok;
    }
    builder_.push(std::string_view(b, static_cast<size_t>(e - b)));
    return AddResult::Ok;
  }
  void add_null() override { builder_.push_null(); }
  void reserve(int64_t rows) override { builder_.reserve(rows); }
  ArrayRef finish() override { return builder_.finish(); }

 private:
  ViewBuilder builder_;
  bool check_utf8_;
  bool lossy_;
  std::string scratch_;
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
  PrimitiveBuilder<int32_t> builder_;
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
  PrimitiveBuilder<int64_t> builder_;
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
  PrimitiveBuilder<int64_t> builder_;
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
    case TypeId::Time: return true;
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
    case TypeId::Date: return std::make_unique<DateParser>();
    case TypeId::Datetime: return std::make_unique<DatetimeParser>(dtype);
    case TypeId::Time: return std::make_unique<TimeParser>();
    default: return nullptr;
  }
}

}  // namespace frazil::io::csv_detail
