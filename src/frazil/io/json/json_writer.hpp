// Writing NDJSON (one object per row and line) and JSON (one array of row objects), with
// Polars' text forms: floats in the shortest round-trip form (1.0, 1e-6, 1e+16; NaN and
// infinities as null), dates 2024-01-31, datetimes 2024-01-31 12:00:00.123 (zoned ones in
// ISO form with their UTC offset), times 12:00:00.5, durations ISO 8601 (PT1.5S),
// decimals as strings, lists as arrays, structs as objects.
#pragma once

#include <string>
#include <vector>

#include <memory>
#include <string>

#include "frazil/core/frame.hpp"
#include "frazil/io/fs/output_file.hpp"

namespace frazil::io {

class NdjsonWriter {
 public:
  // `json_array`: write one JSON array of the rows instead of one object per line.
  NdjsonWriter(OutputStream& out, Schema schema, bool json_array = false);
  NdjsonWriter(const std::string& path, Schema schema, bool json_array = false);
  ~NdjsonWriter();

  // Throws SchemaError for other columns, InvalidOperationError for a dtype JSON cannot
  // hold (Binary).
  void write_batch(const DataFrame& batch);
  void finish();
  void abort() noexcept;

 private:
  std::unique_ptr<OutputFile> file_;
  OutputStream* out_;
  Schema schema_;
  bool json_array_;
  bool any_row_ = false;
  std::vector<std::string> block_text_;  // reused across waves and batches (no fresh pages)
  bool finished_ = false;
};

std::string write_ndjson_string(const DataFrame& df);
std::string write_json_string(const DataFrame& df);

// One float in the writer's form (exposed for tests).
std::string format_json_float(double value, bool is_float32);

}  // namespace frazil::io
