#include "frazil/exec/sinks/group_by_spill.hpp"

#include <algorithm>

#include "frazil/compute/horizontal.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/memory.hpp"

namespace frazil::exec {

namespace {

// Partitions a level splits into: enough that one is a small part of the state.
constexpr size_t kSplitParts = 16;
// Levels of splitting before a partition is grouped whatever its size (rows of one key
// cannot be split: then the limit decides, with a MemoryError naming it).
constexpr int kMaxLevel = 3;

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
  // Back to first appearance: the groups ordered by the input position of their first row,
  // gathered column by column (each column's pieces go as it is gathered), so that only one
  // column is held twice at a time.
  std::vector<Column> cols = concat_frames(out).columns();
  out.clear();
  compute::SortOptions order;
  const std::vector<compute::IdxSize> idx = compute::arg_sort({cols.back().as_array()}, order);
  cols.pop_back();  // the position column, last
  for (Column& c : cols) {
    ArrayRef taken = compute::take(*c.as_array(), idx);
    c = Column(c.name(), std::move(taken));
  }
  return DataFrame(std::move(cols));
}

void GroupBySpill::finish_partitions(spill::SpillPartitions& parts, std::vector<DataFrame>& out) {
  parts.finish();
  for (size_t p = 0; p < parts.parts(); ++p) {
    if (!parts.file(p)) continue;
    const int64_t bytes = parts.bytes(p);
    // Reading back takes the partition's bytes and grouping about as much again (a copy
    // into one chunk, the hash table, the aggregated columns). A partition that takes much
    // of the limit is split (the groups finished so far are not: splitting cannot help them).
    if (parts.level() < kMaxLevel && parts.rows(p) > 1 && memory_limit() > 0 && 3 * bytes > memory_limit() / 2) {
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
