// Reading NDJSON (one JSON object per line) and JSON (an array of objects, or one object)
// into frames: schema inference from the first rows, then rows built column by column.
// NDJSON is parsed in parallel in chunks cut at line ends (simdjson, one parser per task).
#pragma once

#include <string>

#include "frazil/core/frame.hpp"
#include "frazil/io/json/json_options.hpp"

namespace frazil::io {

// The columns of NDJSON text: options.schema, or inferred (with schema_overrides).
// Throws ComputeError naming `name` and the line for invalid JSON or a line that is not an
// object.
Schema ndjson_schema(const char* data, size_t size, const JsonReadOptions& options, const std::string& name);
// The rows; `schema` (when given) is what to build, else ndjson_schema's.
DataFrame read_ndjson(const char* data, size_t size, const JsonReadOptions& options, const std::string& name,
                      const Schema* schema = nullptr);

Schema json_schema(const char* data, size_t size, const JsonReadOptions& options, const std::string& name);
DataFrame read_json(const char* data, size_t size, const JsonReadOptions& options, const std::string& name);

}  // namespace frazil::io
