#include "frazil/exec/spill/spill_partitions.hpp"

#include "frazil/compute/partition.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/exec/query_observer.hpp"

namespace frazil::exec::spill {

namespace {

// The hash a level splits on: the row hash remixed (the finaliser of MurmurHash3, seeded by
// the level), so that the rows of one partition share no bits of the row hash that the hash
// tables finishing it index by (a partition of equal high bits made group_rows' table probe
// long runs, 20x slower), and rows sharing one level's partition spread at the next.
uint64_t level_hash(uint64_t h, int level) {
  h ^= 0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(level + 1);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

SpillPartitions::SpillPartitions(std::string prefix, size_t parts, int level)
    : prefix_(std::move(prefix)), level_(level), files_(parts), rows_(parts, 0), bytes_(parts, 0) {
  FRAZIL_CHECK(parts > 0);
}

size_t SpillPartitions::partition_of(uint64_t hash) const {
  return compute::hash_partition(level_hash(hash, level_), files_.size());
}

void SpillPartitions::append(const DataFrame& rows, const std::vector<uint64_t>& hashes) {
  FRAZIL_CHECK_EQ(static_cast<int64_t>(hashes.size()), rows.height());
  if (rows.height() == 0) return;
  std::vector<std::vector<compute::IdxSize>> picks(files_.size());
  for (size_t i = 0; i < hashes.size(); ++i) picks[partition_of(hashes[i])].push_back(static_cast<compute::IdxSize>(i));
  for (size_t p = 0; p < files_.size(); ++p) {
    if (picks[p].empty()) continue;
    DataFrame piece = picks[p].size() == hashes.size() ? rows : compute::take_frame(rows, picks[p]);
    if (!files_[p]) files_[p] = std::make_unique<SpillFile>(prefix_, piece.schema());
    files_[p]->write(piece);
    rows_[p] += piece.height();
    bytes_[p] += frame_bytes(piece);
  }
}

void SpillPartitions::finish() {
  for (auto& f : files_)
    if (f) f->finish();
}

}  // namespace frazil::exec::spill
