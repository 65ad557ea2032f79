// What the executor tells an observer as a query runs: each plan node it runs (with its
// output height) and each pipeline's batches as they are done. The progress display,
// FRAZIL_VERBOSE's log and LazyFrame::profile() are observers (src/frazil/api/monitor/);
// with none, the executor calls nothing.
//
// The hooks in exec/executor.cpp: Executor::run (node_started / node_finished) and
// Executor::run_pipeline + run_source (pipeline_started / batch_done / pipeline_finished).
#pragma once

#include <cstdint>

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class QueryObserver {
 public:
  virtual ~QueryObserver() = default;
  // A plan node starts / has produced its output (`rows` rows). Nodes nest: a node's
  // inputs start and finish inside it. Called on the thread that runs the node.
  virtual void node_started(plan::Node node, const plan::IR& ir) {}
  virtual void node_finished(plan::Node node, const plan::IR& ir, int64_t rows) {}
  // A pipeline starts reading a source of `batches` batches and `source_rows` rows
  // (-1 when unknown); batch_done is called from worker threads, once per batch, with
  // the rows and bytes (in memory) the source gave.
  virtual void pipeline_started(size_t batches, int64_t source_rows) {}
  virtual void batch_done(int64_t rows, int64_t bytes) {}
  virtual void pipeline_finished(int64_t rows_out) {}
};

// The bytes of a frame's rows (a slice counts its share of the buffers it shares).
int64_t frame_bytes(const DataFrame& df);

}  // namespace frazil::exec
