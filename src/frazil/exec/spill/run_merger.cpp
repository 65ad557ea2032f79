#include "frazil/exec/spill/run_merger.hpp"

#include <algorithm>

#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"

namespace frazil::exec::spill {

RunMerger::RunMerger(std::vector<const SpillFile*> runs) : cursors_(runs.size()) {
  for (size_t r = 0; r < runs.size(); ++r) {
    cursors_[r].file = runs[r];
    remaining_ += runs[r]->rows();
    if (load(r)) heap_.push_back(r);
  }
  std::make_heap(heap_.begin(), heap_.end(), [this](size_t a, size_t b) { return after(a, b); });
}

bool RunMerger::load(size_t r) {
  Cursor& c = cursors_[r];
  c.rows = DataFrame();
  c.key.reset();
  c.pos = 0;
  while (c.next_batch < c.file->num_batches()) {
    DataFrame batch = c.file->read_batch(c.next_batch++);
    if (batch.height() == 0) continue;
    FRAZIL_CHECK(batch.width() > 0 && batch.column(batch.width() - 1).name() == kRunKeyColumn);
    c.key = batch.column(batch.width() - 1).as_array();
    c.rows = std::move(batch);
    return true;
  }
  return false;
}

bool RunMerger::after(size_t a, size_t b) const {
  const int cmp = key(a).compare(key(b));  // char_traits<char>: bytes compare unsigned, as memcmp
  return cmp > 0 || (cmp == 0 && a > b);
}

template <typename OnBatchEnd>
void RunMerger::advance_top(OnBatchEnd&& on_batch_end) {
  const auto cmp = [this](size_t a, size_t b) { return after(a, b); };
  const size_t r = heap_.front();
  Cursor& c = cursors_[r];
  ++c.pos;
  --remaining_;
  if (c.pos < c.rows.height()) {
    // The top's key grew: sift it down (a pop and push keeps the standard heap's shape).
    std::pop_heap(heap_.begin(), heap_.end(), cmp);
    std::push_heap(heap_.begin(), heap_.end(), cmp);
    return;
  }
  on_batch_end(r);
  std::pop_heap(heap_.begin(), heap_.end(), cmp);
  if (load(r))
    std::push_heap(heap_.begin(), heap_.end(), cmp);
  else
    heap_.pop_back();
}

DataFrame RunMerger::next(int64_t rows) {
  // Each run's batches contribute contiguous row ranges ("pieces"); the output is the
  // pieces concatenated, then gathered in merged order.
  std::vector<DataFrame> pieces;
  std::vector<uint32_t> pick_piece;
  std::vector<compute::IdxSize> pick_row;
  std::vector<int64_t> open(cursors_.size(), -1);  // run r's piece of its current batch
  std::vector<int64_t> start(cursors_.size(), 0);
  auto close = [&](size_t r) {
    if (open[r] < 0) return;
    const Cursor& c = cursors_[r];
    pieces[static_cast<size_t>(open[r])] = c.rows.slice(start[r], c.pos - start[r]);
    open[r] = -1;
  };
  int64_t taken = 0;
  while (taken < rows && !heap_.empty()) {
    const size_t r = heap_.front();
    Cursor& c = cursors_[r];
    if (open[r] < 0) {
      open[r] = static_cast<int64_t>(pieces.size());
      pieces.emplace_back();
      start[r] = c.pos;
    }
    if (heap_.size() == 1) {
      // One run left: the rest of its batch goes as it is.
      const int64_t n = std::min(rows - taken, c.rows.height() - c.pos);
      for (int64_t i = 0; i < n; ++i) {
        pick_piece.push_back(static_cast<uint32_t>(open[r]));
        pick_row.push_back(static_cast<compute::IdxSize>(c.pos - start[r] + i));
      }
      taken += n;
      c.pos += n - 1;
      remaining_ -= n - 1;
      advance_top(close);
      continue;
    }
    pick_piece.push_back(static_cast<uint32_t>(open[r]));
    pick_row.push_back(static_cast<compute::IdxSize>(c.pos - start[r]));
    ++taken;
    advance_top(close);
  }
  for (size_t r = 0; r < cursors_.size(); ++r) close(r);
  if (pieces.empty()) return DataFrame();
  if (pieces.size() == 1) return pieces[0];  // picked in its own order
  std::vector<int64_t> base(pieces.size(), 0);
  for (size_t p = 1; p < pieces.size(); ++p) base[p] = base[p - 1] + pieces[p - 1].height();
  std::vector<compute::IdxSize> idx(pick_row.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<compute::IdxSize>(base[pick_piece[i]] + pick_row[i]);
  DataFrame all = concat_frames(pieces).rechunk();
  pieces.clear();
  return compute::take_frame(all, idx);
}

void RunMerger::skip(int64_t rows) {
  for (int64_t i = 0; i < rows && !heap_.empty(); ++i) advance_top([](size_t) {});
}

}  // namespace frazil::exec::spill
