// Options of the CSV reader and writer, with Polars' names and defaults (read_csv /
// scan_csv / write_csv). Where frazil deviates from Polars the field's comment says so.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"

namespace frazil::io {

enum class CsvEncoding : uint8_t {
  Utf8,       // invalid UTF-8 in a String column is a ComputeError naming line and column
  Utf8Lossy,  // invalid sequences become U+FFFD
};

// Values that mean null. Matched against the field's content after unquoting, before the
// value is parsed; they take part in schema inference too (a null value is not a string).
struct NullValues {
  std::vector<std::string> all;                                   // for every column
  std::vector<std::pair<std::string, std::string>> per_column;   // (column name, value)

  static NullValues for_all(std::vector<std::string> values) { return {std::move(values), {}}; }
  static NullValues for_columns(std::vector<std::pair<std::string, std::string>> values) {
    return {{}, std::move(values)};
  }
  bool empty() const { return all.empty() && per_column.empty(); }
};

// Predicate pushed down into the scan: returns a Boolean mask (nulls count as false) of the
// chunk's height. The chunk has the projected columns (and the row index when one is
// requested), so the caller must project every column the predicate reads. It may be
// called concurrently from pool threads, on chunks in any order.
using CsvPredicate = std::function<ArrayRef(const DataFrame&)>;

struct CsvReadOptions {
  char separator = ',';
  bool has_header = true;
  // Renames the first new_columns.size() columns (after reading the header).
  std::vector<std::string> new_columns;
  // The complete schema: no inference. With a header, fields are matched to the header by
  // name (output in schema order; a name missing on either side is a SchemaError); without
  // one, by position.
  std::optional<Schema> schema;
  // Dtypes of some columns by (final) name; other columns are inferred. Unknown names are
  // ignored, as Polars does.
  std::vector<Field> schema_overrides;
  // Rows used for inference: 0 reads every column as String, nullopt scans the whole file.
  std::optional<int64_t> infer_schema_length = 100;
  // Sources of a multi-source scan whose inferred dtypes are merged (to their supertype).
  int64_t infer_schema_files = 10;
  bool try_parse_dates = false;
  NullValues null_values;
  std::optional<char> quote_char = '"';
  int64_t skip_rows = 0;               // rows (respecting quotes) before the header
  int64_t skip_lines = 0;              // raw lines (quotes not parsed) before skip_rows
  int64_t skip_rows_after_header = 0;  // data rows skipped after the header
  std::optional<int64_t> n_rows;       // stop after this many data rows (before the predicate)
  std::optional<std::string> comment_prefix;  // lines starting with it are skipped (<= 5 bytes)
  // Unquoted empty fields of String columns read as "" instead of null (Polars'
  // missing_utf8_is_empty_string; the inverse of empty_string_is_null).
  bool missing_utf8_is_empty_string = false;
  std::optional<std::string> row_index_name;  // UInt32 column inserted first
  int64_t row_index_offset = 0;
  bool truncate_ragged_lines = false;  // drop extra fields instead of raising
  bool decimal_comma = false;          // floats use ',' as the decimal separator
  bool ignore_errors = false;          // unparsable values become null
  CsvEncoding encoding = CsvEncoding::Utf8;
  char eol_char = '\n';
  // Columns to materialise, by name (final names) or by index into the file's columns.
  // The output follows the order given. Both unset: every column.
  std::optional<std::vector<std::string>> columns;
  std::optional<std::vector<size_t>> projection;
  // Applied to every parsed chunk so that filtered-out rows never accumulate.
  CsvPredicate predicate;
  // An empty input (no header, no rows) raises ComputeError("empty CSV") when true; by
  // default it reads as an empty frame (with the given schema, if any). Polars defaults to
  // raising; the Python layer passes its own default.
  bool raise_if_empty = false;
  // Rows per yielded batch (morsel) of the batched reader; read_csv concatenates batches.
  int64_t batch_rows = 100'000;
  // Internal/testing: bytes per parse chunk (0 = derived from batch_rows and row width).
  int64_t chunk_size_bytes = 0;
  bool rechunk = false;  // read_csv: one contiguous chunk per column
};

enum class QuoteStyle : uint8_t {
  Necessary,   // quote fields holding the separator, quote char, '\r' or '\n', and ""
  Always,      // quote every field, nulls too
  Never,       // never quote (the output may not round-trip)
  NonNumeric,  // quote every non-null field that is not a number
};

struct CsvWriteOptions {
  bool include_header = true;
  bool include_bom = false;
  char separator = ',';
  char quote_char = '"';
  QuoteStyle quote_style = QuoteStyle::Necessary;
  std::string null_value;  // written for nulls
  std::string line_terminator = "\n";
  // strftime-like formats (%Y %m %d %H %M %S %f %.3f %.6f %.9f %z %%). Unset: Polars'
  // defaults: 2024-01-31, 2024-01-31T12:00:00.000000 (digits by time unit, +0000 when
  // tz-aware), 12:00:00.000000000.
  std::optional<std::string> date_format;
  std::optional<std::string> datetime_format;
  std::optional<std::string> time_format;
  std::optional<int> float_precision;  // fixed digits after the point
  std::optional<bool> float_scientific;  // unset: scientific only for very large/small
  bool decimal_comma = false;
  int64_t batch_rows = 65'536;  // rows formatted per parallel task
};

}  // namespace frazil::io
