// ParquetFile: one open Parquet file — its footer, schema and row group statistics —
// and the reading of row groups into DataFrames (only the projected column chunks are
// read from disk; leaves are decoded in parallel).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/parquet/metadata.hpp"
#include "frazil/io/parquet/schema.hpp"
#include "frazil/io/parquet/statistics.hpp"

namespace frazil::io::parquet {

// Bounds applied to untrusted sizes in a file.
// A file whose footer claims more is rejected before anything is allocated for it;
// pages are further checked against their chunk's count, so allocations follow what
// the footer declares and the pages actually hold.
// File path (as a scan expands it) -> the indices of the row groups to read (a restricted scan).
using RowGroupSelection = std::map<std::string, std::vector<int64_t>>;

struct ReaderLimits {
  int64_t max_rows_per_row_group = INT32_MAX;
  int64_t max_values_per_column_chunk = INT32_MAX;  // levels, including nested entries
};

class ParquetFile {
 public:
  // Opens and parses the footer; throws IOError naming the file when it is not a
  // readable Parquet file, SchemaError when its types are unsupported.
  static std::shared_ptr<ParquetFile> open(const std::string& path, ReaderLimits limits = {});
  // Parses an in-memory file (the fuzzer and tests use this); `name` names it in errors.
  static std::shared_ptr<ParquetFile> from_buffer(Buffer bytes, std::string name, ReaderLimits limits = {});
  ~ParquetFile();
  ParquetFile(const ParquetFile&) = delete;
  ParquetFile& operator=(const ParquetFile&) = delete;

  const std::string& path() const { return path_; }
  const FileMetaData& metadata() const { return md_; }
  const ParquetSchema& parquet_schema() const { return pschema_; }
  // The frazil schema: Parquet's types, refined by frazil's own footer entry
  // (kFrazilSchemaKey) for Duration and time-zone names when the file has one.
  const Schema& schema() const { return schema_; }
  int64_t num_rows() const { return num_rows_; }
  size_t num_row_groups() const { return md_.row_groups.size(); }
  int64_t row_group_num_rows(size_t i) const;

  // Statistics of the top-level primitive columns of row group i.
  RowGroupStats row_group_stats(size_t i) const;

  // Reads row group i. `columns`: top-level names in the order wanted (nullptr: all).
  // `row_limit` >= 0 stops decoding after that many rows.
  DataFrame read_row_group(size_t i, const std::vector<std::string>* columns = nullptr,
                           int64_t row_limit = -1) const;

 private:
  ParquetFile() = default;
  void parse_footer();
  void apply_frazil_schema();
  Buffer read_range(int64_t offset, int64_t length) const;
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  int fd_ = -1;
  Buffer memory_;  // set for in-memory files
  int64_t size_ = 0;
  int64_t data_end_ = 0;  // where the footer begins
  ReaderLimits limits_;
  FileMetaData md_;
  ParquetSchema pschema_;
  Schema schema_;
  std::vector<std::optional<DataType>> overrides_;  // per top-level field
  int64_t num_rows_ = 0;
  bool dictionary_padding_ = false;  // an old parquet-mr file (PARQUET-816)
};

}  // namespace frazil::io::parquet
