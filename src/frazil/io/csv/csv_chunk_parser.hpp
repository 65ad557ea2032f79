// Parses one byte range of a CSV body (whole rows) into typed arrays. Chunks run in
// parallel; a chunk whose start was only guessed reports enough for the reader to check
// the guess and parse again when it was wrong.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/io/csv/csv_column_parser.hpp"
#include "frazil/io/csv/csv_tokenizer.hpp"

namespace frazil::io::csv_detail {

// How one column of the file is read.
struct ColumnPlan {
  int slot = -1;  // index among the materialised columns; -1: skipped
  DataType dtype;
  std::vector<std::string> null_values;
  bool unquoted_empty_is_value = false;  // String + missing_utf8_is_empty_string
  bool quoted_empty_is_value = false;    // String/Binary: "" is the empty string
};

// Shared, read-only, by every chunk of one file.
struct ChunkPlan {
  Dialect dialect;
  std::vector<ColumnPlan> columns;  // one per file column
  size_t num_slots = 0;
  ParseConfig config;
  bool truncate_ragged_lines = false;
  bool ignore_errors = false;
};

enum class ChunkErrorKind : uint8_t { BadValue, BadUtf8, Ragged, Unterminated };

struct ChunkError {
  ChunkErrorKind kind;
  size_t pos = 0;     // byte offset (in the file) of the field or row at fault
  size_t column = 0;  // file column index (BadValue, BadUtf8)
  std::string value;  // the field's text (BadValue, BadUtf8)
};

struct ChunkResult {
  size_t begin = 0;
  size_t end = 0;         // the next row starts here
  int64_t rows = 0;
  int64_t max_rows = 0;   // the row limit it was parsed with
  bool complete = true;   // false: gave up at the scan limit (speculative chunks only)
  std::vector<ArrayRef> columns;  // by slot
  std::optional<ChunkError> error;
};

// Parses rows starting at `begin` (a row start) while the next row starts before
// `target` and fewer than max_rows rows were read. Never reads at or past `scan_limit`
// (<= size); reaching it before `size` leaves the result incomplete.
ChunkResult parse_chunk(const char* data, size_t size, size_t begin, size_t target, size_t scan_limit,
                        int64_t max_rows, const ChunkPlan& plan, int64_t reserve_rows);

}  // namespace frazil::io::csv_detail
