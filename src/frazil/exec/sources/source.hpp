// Where a pipeline's morsels come from. A source is a list of batches that can be made
// independently and in parallel — slices of a frame in memory, or the row groups of
// Parquet files — so a pipeline never needs its whole input in memory at once: each
// batch is read, cut into morsels and pushed through the operators while the others wait.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class MorselSource {
 public:
  virtual ~MorselSource() = default;
  // One line for explain(format="physical").
  virtual std::string describe() const = 0;
  // Called once when the pipeline starts (the pipelines it reads have finalized), before
  // the batches are asked for: a source that reads what another pipeline made, or reads
  // a file whole, does it here.
  virtual void open() {}
  // Whether its batches are new input that the observer counts as read (not a frame
  // another pipeline made and hands over whole).
  virtual bool reports_batches() const { return true; }
  // Batches a pipeline takes at a time (0: any number): a source that makes its batches in
  // order (a merge of spilled runs) keeps those made ahead of the one asked for in memory.
  virtual size_t wave() const { return 0; }
  virtual size_t num_batches() const = 0;
  // Batch i (thread-safe). Batches in order make up the whole input.
  virtual DataFrame batch(size_t i) const = 0;
  // Rows before any filtering (for choosing strategies), when known.
  virtual int64_t total_rows() const = 0;
};
using SourceRef = std::shared_ptr<MorselSource>;

// A materialised frame, cut into morsels.
SourceRef frame_source(const DataFrame& df, int64_t morsel_size);

// The row groups of a Parquet scan, read one by one with the scan's projection (plus the
// columns its predicate needs) and pruned by statistics; nullptr when the scan needs the
// whole-scan reader (row limits, made columns, schemas to conform).
SourceRef parquet_source(const plan::ScanNode& scan, const plan::ExprArena& arena);

}  // namespace frazil::exec
