// The k-way merge of sorted runs (the external sort's second phase): each run is a spill
// file whose rows are sorted by its key column (kRunKeyColumn, the row encoding of the sort
// keys, so rows compare with memcmp whatever the key types, descending and nulls_last
// included). The merge holds one batch of each run at a time and hands the rows on in
// merged order, a batch at a time. Equal keys come from the earlier run first: runs cut
// from the input in order, each sorted stably, merge into a stable sort.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/exec/spill/spill_file.hpp"

namespace frazil::exec::spill {

// The name of a run's key column (its last column).
inline constexpr const char* kRunKeyColumn = "__frazil_sort_key";

class RunMerger {
 public:
  // `runs` in input order; they must outlive the merger.
  explicit RunMerger(std::vector<const SpillFile*> runs);

  // The next (at most) `rows` rows in merged order, key column included; empty at the end.
  DataFrame next(int64_t rows);
  // Passes over the next `rows` rows without gathering them (a slice's offset).
  void skip(int64_t rows);
  // Rows not yet handed on or skipped.
  int64_t remaining() const { return remaining_; }

 private:
  struct Cursor {
    const SpillFile* file = nullptr;
    size_t next_batch = 0;  // the batch to load after this one
    DataFrame rows;         // the batch being merged
    ArrayRef key;           // its key column
    int64_t pos = 0;        // the next row of `rows`
  };
  // Loads run r's next non-empty batch; false when the run is done.
  bool load(size_t r);
  std::string_view key(size_t r) const { return cursors_[r].key->str_value(cursors_[r].pos); }
  // Whether run a's current row goes after run b's (the heap keeps the first on top).
  bool after(size_t a, size_t b) const;
  // Moves the top run past its current row (loading its next batch when this one is done);
  // `on_batch_end` is told the run whose batch ran out before that batch is dropped.
  template <typename OnBatchEnd>
  void advance_top(OnBatchEnd&& on_batch_end);

  std::vector<Cursor> cursors_;
  std::vector<size_t> heap_;  // runs with rows left, a min-heap by their current row
  int64_t remaining_ = 0;
};

}  // namespace frazil::exec::spill
