#include "frazil/exec/sinks/group_by_spill.hpp"

#include <algorithm>

#include "frazil/compute/horizontal.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/memory_reservation.hpp"

namespace frazil::exec {

namespace {

// Partitions a level splits into: enough that one is a small part of the state.
constexpr size_t kSplitParts = 16;
// Levels of splitting before a partition is grouped whatever its size (rows of one key
// cannot be split: then the limit decides, with a MemoryError naming it).
constexpr int kMaxLevel = 3;

// Whether `bytes` more would fit under the memory limit now (nothing is kept).
bool would_fit(int64_t bytes) {
  MemoryReservation probe("group_by spill");
  return probe.try_grow(bytes);
}

}  // namespace

GroupBySpill::GroupBySpill(size_t parts, HashKeys hash, GroupPartition group)
    : hash_(std::move(hash)), group_(std::move(group)), parts_("group-by", parts) {}

void GroupBySpill::spill(const std::vector<DataFrame>& frames, uint64_t first_seq) {
  uint64_t seq = first_seq;
  for (const DataFrame& f : frames) {
    if (f.height() == 0) continue;
    const auto start = static_cast<int64_t>(seq);
    ArrayRef positions = compute::int_range(start, start + f.height(), 1, DataType::uint64());
    DataFrame tagged = f.rechunk().with_column(Column(kSeqColumn, positions));
    parts_.append(tagged, hash_(tagged));
    seq += static_cast<uint64_t>(f.height());
    spilled_rows_ += f.height();
  }
}

DataFrame GroupBySpill::finish() {
  std::vector<DataFrame> out;
  finish_partitions(parts_, out);
  if (out.empty()) return DataFrame();
  // Back to first appearance: the groups ordered by the input position of their first row.
  DataFrame all = concat_frames(out).rechunk();
  out.clear();
  compute::SortOptions order;
  const std::vector<compute::IdxSize> idx = compute::arg_sort({all.column(kSeqColumn).as_array()}, order);
  DataFrame sorted = compute::take_frame(all, idx);
  std::vector<std::string> names = sorted.names();
  names.pop_back();  // the position column, last
  return sorted.select(names);
}

void GroupBySpill::finish_partitions(spill::SpillPartitions& parts, std::vector<DataFrame>& out) {
  parts.finish();
  for (size_t p = 0; p < parts.parts(); ++p) {
    if (!parts.file(p)) continue;
    const int64_t bytes = parts.bytes(p);
    // Reading back takes the partition's bytes and grouping about as much again (a copy
    // into one chunk, the hash table, the aggregated columns).
    if (parts.level() < kMaxLevel && parts.rows(p) > 1 && !would_fit(3 * bytes)) {
      spill::SpillPartitions finer("group-by", kSplitParts, parts.level() + 1);
      const spill::SpillFile& file = *parts.file(p);
      for (size_t b = 0; b < file.num_batches(); ++b) {
        DataFrame batch = file.read_batch(b);
        finer.append(batch, hash_(batch));
      }
      parts.drop(p);
      finish_partitions(finer, out);
      continue;
    }
    finish_partition(parts, p, out);
  }
}

void GroupBySpill::finish_partition(spill::SpillPartitions& parts, size_t p, std::vector<DataFrame>& out) {
  GroupedRows g;
  ArrayRef seq;
  {
    DataFrame rows = parts.file(p)->read_all().rechunk();
    g = group_(rows);
    seq = compute::take(*rows.column(kSeqColumn).as_array(), g.first_rows);
  }
  parts.drop(p);
  out.push_back(g.frame.with_column(Column(kSeqColumn, seq)));
}

}  // namespace frazil::exec
