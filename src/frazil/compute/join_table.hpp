// The hash table of an equi-join's build side: built once, then probed by many threads at
// once (each probe morsel on its own core), so the probe side never has to be gathered
// into one piece. Null keys never match; floats match by total-order equality.
#pragma once

#include <variant>
#include <vector>

#include "frazil/compute/hash_table.hpp"
#include "frazil/compute/key_encoding.hpp"
#include "frazil/compute/range_bitset.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

// SchemaError unless the two key lists pair up by dtype (and are not empty).
void check_join_keys(const std::vector<ArrayRef>& left, const std::vector<ArrayRef>& right);

class JoinTable {
 public:
  // `build_keys`: the build side's key columns, one chunk each, all of one length.
  explicit JoinTable(std::vector<ArrayRef> build_keys);

  int64_t build_rows() const { return build_.length; }
  // Distinct non-null build keys; key ids are 0 .. num_ids() - 1.
  uint32_t num_ids() const { return num_ids_; }
  // Key id per build row, kNoId for rows with a null key.
  const ScratchVector<uint32_t>& build_ids() const { return build_ids_; }
  // The build rows of key id `id`, ascending: [rows_begin(id), rows_end(id)).
  const IdxSize* rows_begin(uint32_t id) const { return rows_.data() + offsets_[id]; }
  const IdxSize* rows_end(uint32_t id) const { return rows_.data() + offsets_[id + 1]; }
  IdxSize match_count(uint32_t id) const { return offsets_[id + 1] - offsets_[id]; }
  // Whether every key id has exactly one build row (a key/foreign-key join).
  bool unique_keys() const { return rows_.size() == num_ids(); }

  // For a table only asked which probe keys it has (semi and anti joins led by the probe
  // side): frees what maps ids back to build rows (build_ids, the row lists, encoded keys
  // the tables hold copies of). Only probe() and num_ids() may be used afterwards.
  void drop_row_lists();

  // The key id each probe row matches, kNoId when none (or a null key). The probe keys
  // pair up with the build keys by dtype (SchemaError if not). Safe to call concurrently.
  std::vector<uint32_t> probe(const std::vector<ArrayRef>& probe_keys) const;

 private:
  using Table = std::variant<std::monostate, DirectTable, InlineKeyTable<uint64_t>, DenseKeyTable<U128Key>,
                             DenseKeyTable<BytesKey>>;
  std::vector<ArrayRef> build_keys_;  // keeps the bytes that string keys point into
  EncodedKeys build_;
  // One table, or 2^part_bits_ built in parallel: a key lives in the table its hash's low
  // bits pick, and table p's local ids are shifted by id_offset_[p].
  std::vector<Table> tables_;
  std::vector<uint32_t> id_offset_;
  int part_bits_ = 0;
  ScratchVector<uint32_t> build_ids_;
  uint32_t num_ids_ = 0;
  ScratchVector<IdxSize> offsets_;  // per key id, into rows_; num_ids() + 1 entries
  ScratchVector<IdxSize> rows_;
  // Integer keys in a hash table whose range is small enough: one bit per value of the
  // range, set for the build keys, so that a probe key with no partner (most of them in a
  // selective join) is turned away without hashing.
  RangeBitset present_;
};

}  // namespace frazil::compute
