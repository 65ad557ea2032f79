// Options of the JSON and NDJSON readers, with Polars' names and defaults.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "frazil/core/schema.hpp"

namespace frazil::io {

struct JsonReadOptions {
  // The complete schema: no inference (keys outside it are ignored, missing keys are null).
  std::optional<Schema> schema;
  // Dtypes of some columns; the others are inferred.
  std::vector<Field> schema_overrides;
  // Rows used for inference (nullopt: every row).
  std::optional<int64_t> infer_schema_length = 100;
  // A value that does not fit its column's dtype becomes null instead of an error (and a
  // line that is not valid JSON, a row of nulls).
  bool ignore_errors = false;
  // Columns to build (nullopt: all), in the schema's order.
  std::optional<std::vector<std::string>> columns;
  std::optional<int64_t> n_rows;  // rows to read at most
  // Bytes per parallel parse chunk (cut at line ends); 0: derived from the input size.
  int64_t chunk_size_bytes = 0;
};

}  // namespace frazil::io
