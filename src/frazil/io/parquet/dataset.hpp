// read_parquet: one file, a directory, or a glob of files with the same schema, with
// hive partitions (key=value path segments) as extra columns, column projection, a
// row limit, and a row-group predicate on statistics. Row groups are read in parallel.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/parquet/file_reader.hpp"
#include "frazil/io/parquet/statistics.hpp"

namespace frazil::io::parquet {

struct ParquetReadOptions {
  // Top-level columns to read, in this order (file columns and hive keys); all when unset.
  std::optional<std::vector<std::string>> columns;
  // Stop after this many rows: only the row groups needed are read, and the last is
  // decoded only as far as needed.
  std::optional<int64_t> n_rows;
  // Called once per row group with its statistics; returning false skips the group.
  // Applied before n_rows (so with both, n_rows counts rows of the kept groups).
  std::function<bool(const RowGroupStats&)> row_group_predicate;
  bool parallel = true;
  // Parse key=value directories into columns; by default on when `path` is a directory
  // or a glob.
  std::optional<bool> hive_partitioning;
  ReaderLimits limits;
  // A scan restricted to some row groups of some files (a plan fragment's share of a
  // scan): a file listed here is read only in those row groups (by index, ascending);
  // files not listed are read whole. Only scan_parquet uses it.
  RowGroupSelection row_groups;
};

// The files `path` names: itself if a file; every data file below it (sorted, skipping
// names starting with '.' or '_') if a directory; the matches of a glob (`*`, `?`,
// `[...]`, and `**` across directories) otherwise. Throws IOError when nothing matches.
std::vector<std::string> expand_paths(const std::string& path);

// Schema of what read_parquet(path) returns (first file's columns, then hive keys).
Schema read_parquet_schema(const std::string& path, const ParquetReadOptions& options = {});

DataFrame read_parquet(const std::string& path, const ParquetReadOptions& options = {});

// Hive partition values of one file path below `base`: "a=1/b=x/f.parquet" -> {a:1, b:x}.
std::vector<std::pair<std::string, std::optional<std::string>>> hive_partitions(const std::string& base,
                                                                                 const std::string& file);

}  // namespace frazil::io::parquet
