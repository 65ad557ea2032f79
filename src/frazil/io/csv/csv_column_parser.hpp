// Typed column builders fed with field text by the chunk parser: one per materialised
// column and chunk. Values go straight into Arrow-layout builders.
#pragma once

#include <memory>
#include <string>

#include "frazil/core/array.hpp"
#include "frazil/core/dtype.hpp"
#include "frazil/io/csv/csv_options.hpp"

namespace frazil::io::csv_detail {

enum class AddResult : uint8_t { Ok, BadValue, BadUtf8, NotInEnum };

class ColumnParser {
 public:
  virtual ~ColumnParser() = default;
  // Parses the field's (unquoted, non-empty or quoted-empty) text and appends the value.
  virtual AddResult add(const char* b, const char* e) = 0;
  virtual void add_null() = 0;
  virtual void reserve(int64_t rows) = 0;
  virtual ArrayRef finish() = 0;
};

struct ParseConfig {
  bool decimal_comma = false;
  CsvEncoding encoding = CsvEncoding::Utf8;
};

// Dtypes the reader can produce: Boolean, integers, floats, String, Binary, Date,
// Datetime, Time, Categorical, Enum, Decimal, Int128, UInt128.
bool csv_readable_dtype(const DataType& dtype);

std::unique_ptr<ColumnParser> make_column_parser(const DataType& dtype, const ParseConfig& config);

}  // namespace frazil::io::csv_detail
