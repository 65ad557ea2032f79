// CSV as a FileScan format. The dtypes inferred from the first infer_schema_files sources,
// merged to their supertypes (or the user's schema), are the dtypes every source is parsed
// with, as Polars reads several CSV files. gzip and zstd sources are recognised by their
// magic bytes and decompressed first.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>
#include <optional>

#include "frazil/io/csv/csv_options.hpp"
#include "frazil/io/dataset/file_scan.hpp"

namespace frazil::io {

class CsvFormat final : public FormatReader {
 public:
  // `options` without n_rows, row index or projection: the FileScan does those.
  explicit CsvFormat(CsvReadOptions options) : options_(std::move(options)) {}
  const char* format_name() const override { return "csv"; }
  Schema schema(const ScanInput& input) override;
  Schema scan_schema(const std::vector<ScanInput>& inputs, bool union_columns, std::string* error) override;
  DataFrame read(const ScanInput& input, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                 const ReadHints& hints) override;
  const CsvReadOptions& options() const { return options_; }

 private:
  CsvReadOptions options_;
  std::mutex mu_;
  std::optional<Schema> dtypes_;  // what sources are parsed with (by column name), once known
  std::map<std::string, Schema> own_;  // each source's columns, parsed with dtypes_
};

}  // namespace frazil::io
