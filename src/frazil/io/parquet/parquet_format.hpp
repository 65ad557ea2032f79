// Parquet as a FileScan format: one file's row groups read with the projection, pruned
// by statistics, up to a row limit. Opened files are kept for the scan's lifetime, so the
// footer is parsed once for the schema and the reads.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/io/parquet/file_reader.hpp"

namespace frazil::io::parquet {

class ParquetFormat final : public FormatReader {
 public:
  explicit ParquetFormat(ReaderLimits limits = {}, bool parallel = true, RowGroupSelection row_groups = {})
      : limits_(limits), parallel_(parallel), row_groups_(std::move(row_groups)) {}
  const char* format_name() const override { return "parquet"; }
  Schema schema(const ScanInput& input) override { return file(input)->schema(); }
  DataFrame read(const ScanInput& input, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                 const ReadHints& hints) override;
  std::shared_ptr<ParquetFile> file(const ScanInput& input);
  const ReaderLimits& limits() const { return limits_; }  // (a serialized scan carries them)
  bool parallel() const { return parallel_; }
  const RowGroupSelection& row_groups() const { return row_groups_; }
  // The row groups of `in` to read, ascending: all of them, or the selection for its path
  // (a ComputeError for an index the file does not have).
  std::vector<size_t> row_groups_of(const ScanInput& in, const ParquetFile& f) const;

 private:
  ReaderLimits limits_;
  bool parallel_;
  RowGroupSelection row_groups_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<ParquetFile>> open_;
};

}  // namespace frazil::io::parquet
