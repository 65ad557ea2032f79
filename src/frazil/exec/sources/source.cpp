#include "frazil/exec/sources/source.hpp"


#include "frazil/exec/pipeline/morsels.hpp"
#include "frazil/exec/sources/scan.hpp"
#include "frazil/exec/sources/stats_pruning.hpp"
#include "frazil/io/dataset/scan_log.hpp"
#include "frazil/io/parquet/parquet.hpp"
#include "frazil/io/parquet/parquet_format.hpp"

namespace frazil::exec {

namespace {

class FrameSource final : public MorselSource {
 public:
  FrameSource(const DataFrame& df, int64_t morsel_size)
      : morsels_(split_morsels(df, morsel_size)), rows_(df.height()), width_(df.width()) {}
  std::string describe() const override {
    return "memory frame: " + std::to_string(rows_) + " rows, " + std::to_string(width_) + " columns";
  }
  size_t num_batches() const override { return morsels_.size(); }
  DataFrame batch(size_t i) const override { return morsels_[i]; }
  int64_t total_rows() const override { return rows_; }

 private:
  std::vector<DataFrame> morsels_;
  int64_t rows_;
  size_t width_;
};

class ParquetSource final : public MorselSource {
 public:
  struct Group {
    std::shared_ptr<io::parquet::ParquetFile> file;
    size_t row_group;
  };
  ParquetSource(std::vector<Group> groups, std::optional<std::vector<std::string>> columns, int64_t rows)
      : groups_(std::move(groups)), columns_(std::move(columns)), rows_(rows) {}
  std::string describe() const override {
    size_t files = 0;
    for (size_t i = 0; i < groups_.size(); ++i) files += i == 0 || groups_[i].file != groups_[i - 1].file;
    std::string s = "parquet row groups: " + std::to_string(groups_.size()) + " of " + std::to_string(files) +
                    (files == 1 ? " file, " : " files, ") + std::to_string(rows_) + " rows (after statistics pruning)";
    if (columns_) {
      s += ", columns [";
      for (size_t i = 0; i < columns_->size(); ++i) s += (i ? ", " : "") + (*columns_)[i];
      s += "]";
    }
    return s;
  }
  size_t num_batches() const override { return groups_.size(); }
  DataFrame batch(size_t i) const override {
    return groups_[i].file->read_row_group(groups_[i].row_group, columns_ ? &*columns_ : nullptr);
  }
  int64_t total_rows() const override { return rows_; }

 private:
  std::vector<Group> groups_;
  std::optional<std::vector<std::string>> columns_;
  int64_t rows_;
};

}  // namespace

SourceRef frame_source(const DataFrame& df, int64_t morsel_size) {
  return std::make_shared<FrameSource>(df, morsel_size);
}

SourceRef parquet_source(const plan::ScanNode& scan, const plan::ExprArena& arena) {
  const io::FileScan& fs = file_scan_of(scan);
  auto* format = dynamic_cast<io::parquet::ParquetFormat*>(&fs.reader());
  if (!format) return nullptr;
  // Row limits, made columns and schemas to conform to go through the whole-scan reader.
  const io::FileScanArgs& a = fs.args();
  if (scan.n_rows || a.n_rows || a.row_index_name || a.include_file_paths || fs.hive_schema().size() > 0 ||
      a.schema)
    return nullptr;
  bool extra = false;
  std::optional<std::vector<std::string>> columns = scan_columns(scan, arena, &extra);
  std::vector<ParquetSource::Group> groups;
  int64_t rows = 0;
  std::optional<Schema> first_schema;
  for (const auto& in : fs.inputs()) {
    auto file = format->file(in);
    // Files of one scan must agree; the whole-scan reader reports a difference properly.
    if (first_schema && !(file->schema() == *first_schema)) return nullptr;
    if (!first_schema) first_schema = file->schema();
    const std::vector<size_t> candidates = format->row_groups_of(in, *file);  // (a restricted scan: some groups only)
    size_t kept = 0;
    for (size_t g : candidates) {
      if (scan.predicate && can_skip_row_group(scan.predicate->node(), arena, file->row_group_stats(g))) continue;
      ++kept;
      rows += file->row_group_num_rows(g);
      groups.push_back({file, g});
    }
    if (scan.predicate) io::log_row_groups_read(kept, candidates.size());
  }
  // With nothing left to read, the whole-scan reader makes the empty frame of the right schema.
  if (groups.empty()) return nullptr;
  return std::make_shared<ParquetSource>(std::move(groups), std::move(columns), rows);
}

}  // namespace frazil::exec
