// A file scan that is read whole when its pipeline starts (CSV, and Parquet scans the row
// group source cannot serve: row limits, hive partitions, directories), then cut into
// morsels. A row limit counted after the scan's predicate is applied here: the rows are
// filtered (by `filter_ops`, morsel by morsel) and then cut.
#pragma once

#include <optional>

#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sources/source.hpp"

namespace frazil::exec {

class FileScanSource final : public MorselSource {
 public:
  FileScanSource(const plan::ScanNode& scan, const plan::ExprArena& ea, int64_t morsel_size,
                 std::vector<OperatorRef> filter_ops = {}, std::optional<int64_t> n_rows = std::nullopt)
      : scan_(scan), ea_(ea), morsel_size_(morsel_size), filter_ops_(std::move(filter_ops)), n_rows_(n_rows) {}
  std::string describe() const override;
  void open() override;
  size_t num_batches() const override { return frame_->num_batches(); }
  DataFrame batch(size_t i) const override { return frame_->batch(i); }
  int64_t total_rows() const override { return frame_->total_rows(); }

 private:
  const plan::ScanNode& scan_;
  const plan::ExprArena& ea_;
  int64_t morsel_size_;
  std::vector<OperatorRef> filter_ops_;
  std::optional<int64_t> n_rows_;
  SourceRef frame_;
};

}  // namespace frazil::exec
