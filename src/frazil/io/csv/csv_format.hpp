// CSV as a FileScan format. The first source's schema (inferred, or the user's) is the
// schema every later source is parsed with, as Polars reads several CSV files. gzip and
// zstd sources are recognised by their magic bytes and decompressed first.
#pragma once

#include <mutex>
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
  DataFrame read(const ScanInput& input, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                 const ReadHints& hints) override;
  const CsvReadOptions& options() const { return options_; }

 private:
  CsvReadOptions options_;
  std::mutex mu_;
  std::optional<std::string> first_;  // the source whose schema the others use
  std::optional<Schema> first_schema_;
};

}  // namespace frazil::io
