#include "frazil/io/parquet/parquet_format.hpp"

#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/dataset/scan_log.hpp"

namespace frazil::io::parquet {

std::shared_ptr<ParquetFile> ParquetFormat::file(const ScanInput& in) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = open_.find(in.path);
  if (it != open_.end()) return it->second;
  auto f = in.in_memory ? ParquetFile::from_buffer(in.bytes, in.path, limits_) : ParquetFile::open(in.path, limits_);
  open_.emplace(in.path, f);
  return f;
}

std::vector<size_t> ParquetFormat::row_groups_of(const ScanInput& in, const ParquetFile& f) const {
  std::vector<size_t> out;
  auto it = row_groups_.find(in.path);
  if (it == row_groups_.end()) {
    for (size_t g = 0; g < f.num_row_groups(); ++g) out.push_back(g);
    return out;
  }
  std::vector<bool> selected(f.num_row_groups(), false);
  for (int64_t g : it->second) {
    if (g < 0 || g >= static_cast<int64_t>(f.num_row_groups())) {
      throw ComputeError(err_msg("parquet scan of '", in.path, "': row group ", g, " is selected; the file has ",
                                 f.num_row_groups()));
    }
    selected[static_cast<size_t>(g)] = true;
  }
  for (size_t g = 0; g < selected.size(); ++g)
    if (selected[g]) out.push_back(g);
  return out;
}

DataFrame ParquetFormat::read(const ScanInput& in, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                              const ReadHints& hints) {
  auto f = file(in);
  struct Task {
    size_t group;
    int64_t limit;  // -1: the whole group
  };
  std::vector<Task> tasks;
  int64_t left = n_rows.value_or(-1);
  const bool prune = hints.row_group_predicate && !n_rows;
  const std::vector<size_t> groups = row_groups_of(in, *f);
  size_t pruned = 0;
  for (size_t g : groups) {
    if (left == 0) break;
    const int64_t rows = f->row_group_num_rows(g);
    if (rows == 0) continue;
    if (prune && !hints.row_group_predicate(f->row_group_stats(g))) {
      ++pruned;
      continue;
    }
    int64_t limit = -1;
    if (left >= 0) {
      if (rows >= left) limit = left;
      left -= std::min(rows, left);
    }
    tasks.push_back({g, limit});
  }
  if (prune) log_row_groups_read(groups.size() - pruned, groups.size());
  std::vector<DataFrame> frames(tasks.size());
  auto run = [&](size_t t) { frames[t] = f->read_row_group(tasks[t].group, &columns, tasks[t].limit); };
  if (parallel_) parallel_for(tasks.size(), run);
  else for (size_t t = 0; t < tasks.size(); ++t) run(t);
  if (frames.empty()) {
    std::vector<Field> fields;
    for (const auto& c : columns) fields.push_back(Field{c, f->schema().dtype_of(c)});
    return fields.empty() ? DataFrame::empty_with_height(0) : DataFrame::empty_with_schema(Schema(std::move(fields)));
  }
  return concat_frames(frames);
}

}  // namespace frazil::io::parquet
