// Hive partitions: `key=value` directories in a file's path become columns of its rows.
// Values are typed as Polars types them: the CSV reader's inference over every file's value
// (Boolean, Int64, Float64, Date/Datetime with try_parse_dates, else String), or the
// user's hive_schema; an empty value or __HIVE_DEFAULT_PARTITION__ is null.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"

namespace frazil::io {

// The (key, value) pairs of a path below `base` ("" = the whole path), in path order;
// values percent-decoded; a later repeat of a key replaces its value.
std::vector<std::pair<std::string, std::string>> hive_partitions(const std::string& base, const std::string& file);

struct HivePartitions {
  Schema schema;   // the keys, in path order, typed
  DataFrame values;  // one row per file
};

// Partitions of every file, each read from its path below bases[i] ("" = the whole path).
// `file_schema` gives the dtype of keys that are also file columns; `hive_schema` (when
// set) must type every key. Throws SchemaError when the files do not all have the same
// keys, SchemaFieldNotFoundError for a key hive_schema lacks.
HivePartitions read_hive_partitions(const std::vector<std::string>& files, const std::vector<std::string>& bases,
                                    const Schema& file_schema, const std::optional<Schema>& hive_schema,
                                    bool try_parse_dates);

}  // namespace frazil::io
