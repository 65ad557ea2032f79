#include "frazil/exec/sources/merged_runs_source.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"

namespace frazil::exec {

MergedRunsSource::MergedRunsSource(std::shared_ptr<const spill::SortedRuns> runs, int64_t offset, int64_t length,
                                   int64_t batch_rows, size_t wave)
    : runs_(std::move(runs)), offset_(offset), length_(length), batch_rows_(batch_rows), wave_(wave) {
  FRAZIL_CHECK(batch_rows_ > 0 && offset_ >= 0 && length_ >= 0);
}

std::string MergedRunsSource::describe() const {
  return "merge of " + std::to_string(runs_->size()) + " sorted runs spilled to FRAZIL_TEMP_DIRECTORY, " +
         std::to_string(length_) + " rows";
}

void MergedRunsSource::open() {
  std::lock_guard lock(mutex_);
  merger_ = std::make_unique<spill::RunMerger>(runs_->files());
  merger_->skip(offset_);
  made_ = 0;
  waiting_.clear();
}

size_t MergedRunsSource::num_batches() const {
  return static_cast<size_t>((length_ + batch_rows_ - 1) / batch_rows_);
}

DataFrame MergedRunsSource::batch(size_t i) const {
  std::lock_guard lock(mutex_);
  FRAZIL_CHECK(merger_ != nullptr && i < num_batches());
  while (made_ <= i) {
    const int64_t at = static_cast<int64_t>(made_) * batch_rows_;
    const int64_t want = std::min(batch_rows_, length_ - at);
    DataFrame b = merger_->next(want);
    FRAZIL_CHECK_EQ(b.height(), want);
    std::vector<std::string> names = b.names();
    names.pop_back();  // the runs' key column
    waiting_.emplace(made_++, b.select(names));
  }
  auto it = waiting_.find(i);
  FRAZIL_CHECK(it != waiting_.end());  // each batch is asked for once
  DataFrame out = std::move(it->second);
  waiting_.erase(it);
  return out;
}

}  // namespace frazil::exec
