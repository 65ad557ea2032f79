// The ARROW:schema footer key that Arrow writers (pyarrow, Polars) put in Parquet files: an
// Arrow IPC schema message, base64-encoded. It carries what Parquet's own types cannot say
// (Duration, time zone names, large and view types, dictionaries), so reading it lets a
// file round-trip dtypes with pyarrow, Polars and DuckDB, and writing it lets them read
// frazil's dtypes back.
#pragma once

#include <optional>
#include <string>

#include "frazil/core/schema.hpp"

namespace frazil::io::parquet {

inline constexpr const char* kArrowSchemaKey = "ARROW:schema";

// The key's value for a frazil schema (large strings and lists, which every Arrow reader knows).
std::string encode_arrow_schema(const Schema& schema);
// The frazil schema the key describes; nullopt when it cannot be read (a malformed or
// unsupported value is ignored, as Arrow readers do).
std::optional<Schema> decode_arrow_schema(const std::string& value);

}  // namespace frazil::io::parquet
