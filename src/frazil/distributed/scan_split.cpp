#include "frazil/distributed/scan_split.hpp"

#include "frazil/api/io.hpp"
#include "frazil/exec/sources/scan.hpp"
#include "frazil/exec/sources/stats_pruning.hpp"
#include "frazil/io/parquet/parquet_format.hpp"

namespace frazil::distributed {

namespace {

struct Group {
  size_t input;  // index into the scan's inputs
  int64_t index;
  int64_t rows;
};

// The scan's source with only `groups` read (every other file of it lists no group: a file
// missing from a selection would be read whole).
dsl::ScanSource restricted(const io::FileScan& fs, const io::parquet::ParquetFormat& format,
                           const std::vector<Group>& groups) {
  io::parquet::ParquetReadOptions options;
  options.limits = format.limits();
  options.parallel = format.parallel();
  for (const auto& in : fs.inputs()) options.row_groups[in.path];
  for (const Group& g : groups) options.row_groups[fs.inputs()[g.input].path].push_back(g.index);
  return scan_parquet(fs.args(), options).plan()->as<dsl::DslScan>().source;
}

}  // namespace

std::vector<ScanSplit> split_scan(const plan::ScanNode& scan, const plan::ExprArena& ea, size_t max_splits) {
  if (max_splits < 2 || scan.source.format != dsl::ScanFormat::Parquet || scan.n_rows) return {};
  const io::FileScan& fs = exec::file_scan_of(scan);
  auto* format = dynamic_cast<io::parquet::ParquetFormat*>(&fs.reader());
  const io::FileScanArgs& a = fs.args();
  if (!format || a.n_rows || a.row_index_name || !a.buffers.empty()) return {};
  const std::optional<plan::Node> pred =
      scan.predicate ? std::optional<plan::Node>(scan.predicate->node()) : std::nullopt;
  const bool hive = fs.hive_schema().size() > 0;
  std::vector<Group> groups;
  int64_t total = 0;
  for (size_t i = 0; i < fs.inputs().size(); ++i) {
    const io::ScanInput& in = fs.inputs()[i];
    if (in.in_memory) return {};
    if (pred && hive && exec::can_skip_row_group(*pred, ea, fs.hive_stats(i))) continue;
    auto file = format->file(in);
    for (size_t g : format->row_groups_of(in, *file)) {
      const int64_t rows = file->row_group_num_rows(g);
      if (rows == 0 || (pred && exec::can_skip_row_group(*pred, ea, file->row_group_stats(g)))) continue;
      groups.push_back({i, static_cast<int64_t>(g), rows});
      total += rows;
    }
  }
  const size_t k = std::min(max_splits, groups.size());
  if (k < 2) return {};
  // Contiguous runs: split t ends once the rows so far reach t+1 k-ths of the total, taking
  // at least one group and leaving one for each later split.
  std::vector<ScanSplit> out;
  size_t at = 0;
  int64_t done = 0;
  for (size_t t = 0; t < k; ++t) {
    const int64_t goal = static_cast<int64_t>(static_cast<double>(total) * static_cast<double>(t + 1) /
                                              static_cast<double>(k));
    std::vector<Group> mine;
    ScanSplit s;
    while (at < groups.size() && groups.size() - at > k - 1 - t && (mine.empty() || done < goal || t + 1 == k)) {
      mine.push_back(groups[at]);
      done += groups[at].rows;
      s.rows += groups[at].rows;
      ++at;
    }
    s.row_groups = mine.size();
    s.source = restricted(fs, *format, mine);
    out.push_back(std::move(s));
  }
  return out;
}

std::string describe_splits(const std::vector<ScanSplit>& splits) {
  std::string s = "parquet scan split into " + std::to_string(splits.size()) + " tasks:";
  for (size_t t = 0; t < splits.size(); ++t) {
    s += (t ? ", " : " ") + std::to_string(splits[t].row_groups) + " row group" + (splits[t].row_groups == 1 ? "" : "s") +
         " (" + std::to_string(splits[t].rows) + " rows)";
  }
  return s;
}

}  // namespace frazil::distributed
