// The spilled state of a probe-left-streams join past the memory limit (a grace hash join).
// The build (right) side's rows go by key hash to spill partitions; once they are all in,
// the partitions that fit a budget are read back and built into one in-memory table, and
// the probe (left) side streams through probe_operator(): a row whose partition is in
// memory is probed at once, the others are written to the same partition on the probe
// side. Afterwards tail() joins the spilled pairs one partition at a time (the table of
// one partition's build rows, probed by that partition's probe batches); a pair whose build
// side is still too big is split again by other hash bits (spill_partitions' levels).
//
// Every row of a key lands in the same partition on both sides, so each pair joins on its
// own, which is right for inner, left, semi and anti joins (a probe row's matches, or its
// lack of them, are all in its partition). The output comes in partition order, not in the
// probe side's order: only joins whose output order nobody observes spill.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sources/source.hpp"
#include "frazil/exec/spill/spill_partitions.hpp"

namespace frazil::exec::spill {

class GraceJoin : public std::enable_shared_from_this<GraceJoin> {
 public:
  // The key hash of each row of a frame of one side (equal keys hash equally on both
  // sides), and which rows have a null key (empty: none). A null key matches nothing, so
  // such build rows are dropped and such probe rows go through the in-memory table (which
  // keeps them for left and anti joins) instead of a partition they would all crowd into.
  struct KeyHashes {
    std::vector<uint64_t> hashes;
    std::vector<uint8_t> null_key;
  };
  using HashKeys = std::function<KeyHashes(const DataFrame&)>;
  // The probe operator over a table built on these build rows (all of one partition, or of
  // the partitions kept in memory).
  using MakeProbe = std::function<OperatorRef(const DataFrame& build_rows)>;

  struct Options {
    size_t parts = 16;
    // A partition pair whose build side takes more than this (its rows and its table) is
    // split again before it is joined.
    int64_t pair_budget = 0;
    // Bytes per build row the table takes beside the rows (ids, row lists, hash slots).
    int64_t table_bytes_per_row = 48;
    // Probe rows joined at a time in the tail (a pair's spilled probe batches are read
    // together up to about this many).
    int64_t tail_batch_rows = 100'000;
  };

  GraceJoin(Options options, HashKeys build_hash, HashKeys probe_hash, MakeProbe make_probe,
            Schema build_schema);
  ~GraceJoin();

  // Writes build rows to their partitions (before start_probe()).
  void spill_build(const std::vector<DataFrame>& frames);
  int64_t spilled_build_rows() const { return build_rows_; }
  int64_t dropped_null_key_rows() const { return null_key_rows_; }
  // Reads back the build partitions that fit `resident_budget` bytes (rows and table),
  // builds their table, and returns the operator the probe side streams through.
  OperatorRef start_probe(int64_t resident_budget);
  size_t resident_parts() const { return resident_count_; }
  size_t parts() const { return build_->parts(); }
  // After every probe morsel went through probe_operator(): the joined rows of the spilled
  // pairs, batch by batch (one pair's table in memory at a time). Once only.
  SourceRef tail();

 private:
  friend class GraceProbe;
  // Called by the probe operator on any thread: the rows of non-resident partitions.
  void spill_probe(const DataFrame& rows, const std::vector<uint64_t>& hashes);
  // The operator over the resident partitions' table (dropped when the tail starts).
  OperatorRef resident_probe_;

  Options options_;
  HashKeys build_hash_, probe_hash_;
  MakeProbe make_probe_;
  Schema build_schema_;
  std::shared_ptr<SpillPartitions> build_, probe_;
  std::vector<bool> resident_;
  size_t resident_count_ = 0;
  int64_t build_rows_ = 0, null_key_rows_ = 0;
  std::mutex probe_mutex_;
};

}  // namespace frazil::exec::spill
