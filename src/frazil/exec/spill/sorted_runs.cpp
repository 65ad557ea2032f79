#include "frazil/exec/spill/sorted_runs.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"

namespace frazil::exec::spill {

void SortedRuns::add(const DataFrame& sorted, int64_t batch_rows) {
  FRAZIL_CHECK(sorted.width() > 0 && sorted.column(sorted.width() - 1).name() == kRunKeyColumn);
  FRAZIL_CHECK(batch_rows > 0);
  auto file = std::make_unique<SpillFile>("sort-run", sorted.schema());
  for (int64_t at = 0; at < sorted.height(); at += batch_rows)
    file->write(sorted.slice(at, std::min(batch_rows, sorted.height() - at)));
  file->finish();
  runs_.push_back(std::move(file));
}

int64_t SortedRuns::rows() const {
  int64_t n = 0;
  for (const auto& r : runs_) n += r->rows();
  return n;
}

std::vector<const SpillFile*> SortedRuns::files() const {
  std::vector<const SpillFile*> out;
  out.reserve(runs_.size());
  for (const auto& r : runs_) out.push_back(r.get());
  return out;
}

void SortedRuns::reduce(size_t fan_in, int64_t batch_rows) {
  FRAZIL_CHECK(fan_in >= 2 && batch_rows > 0);
  while (runs_.size() > fan_in) {
    std::vector<std::unique_ptr<SpillFile>> merged;
    for (size_t first = 0; first < runs_.size(); first += fan_in) {
      const size_t last = std::min(first + fan_in, runs_.size());
      if (last - first == 1) {
        merged.push_back(std::move(runs_[first]));
        continue;
      }
      std::vector<const SpillFile*> group;
      for (size_t r = first; r < last; ++r) group.push_back(runs_[r].get());
      auto out = std::make_unique<SpillFile>("sort-run", runs_[first]->schema());
      RunMerger merger(std::move(group));
      for (DataFrame b = merger.next(batch_rows); b.height() > 0; b = merger.next(batch_rows)) out->write(b);
      out->finish();
      for (size_t r = first; r < last; ++r) runs_[r].reset();  // each input goes once merged
      merged.push_back(std::move(out));
    }
    runs_ = std::move(merged);
  }
}

}  // namespace frazil::exec::spill
