// Schema inference from the first rows of a CSV body, with Polars' rules: Int64, Float64
// (also for mixed ints and floats), Boolean, and with try_parse_dates Date, Datetime("us"),
// Datetime("us", "UTC") for values with an offset, and Time; anything else, and columns
// with no values, are String.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/dtype.hpp"
#include "frazil/io/csv/csv_tokenizer.hpp"

namespace frazil::io::csv_detail {

struct InferOptions {
  std::optional<int64_t> max_rows;  // nullopt: every row
  bool try_parse_dates = false;
  bool decimal_comma = false;
  std::vector<std::vector<std::string>> null_values;  // per column
};

struct InferredColumns {
  std::vector<DataType> dtypes;
  std::vector<bool> no_values;  // the sample held no non-null value
  int64_t rows = 0;
  size_t bytes = 0;  // bytes of body the sample spanned
};

// Reads up to max_rows rows of [begin, size) and infers `ncols` dtypes. Malformed rows
// (ragged, unterminated quotes) are left for the parser to report.
InferredColumns infer_columns(const Dialect& dialect, const char* data, size_t begin, size_t size,
                              size_t ncols, const InferOptions& options);

// The dtype one sample column settles on, given the kinds seen (bit set of ValueKind).
DataType dtype_for_kinds(uint32_t kinds);

}  // namespace frazil::io::csv_detail
