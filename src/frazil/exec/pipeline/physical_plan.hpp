// A physical plan: the pipelines lowering made of an optimized IR plan (exec/lower), each
// Source -> Operator* -> Sink, with every strategy already chosen. A pipeline starts once
// the pipelines it reads have finalized (their sinks feed its source or its operators: a
// join's build side, a key filter's left side, a node that does not stream); the root
// pipeline's sink holds the query's result. The runner (exec/pipeline/runner.hpp) only runs
// it. A plan refers to the arenas it was lowered from and runs once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/exec/sources/source.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

using PipelineId = size_t;

struct Pipeline {
  SourceRef source;
  std::vector<OperatorRef> ops;  // in the order they apply
  SinkRef sink;
  // Pipelines whose finalized sinks this one reads, in the order they run.
  std::vector<PipelineId> reads;
  // Earlier pipelines into the same sink (a union's inputs before this one): they run first.
  std::vector<PipelineId> after;
  // The last pipeline into a sink finalizes it.
  bool finalizes = true;
  // The plan node whose output the sink holds (reported to the QueryObserver), if any.
  std::optional<plan::Node> node;
  // The plan nodes the pipeline executes (the node, joins folded into it), for ExecStats.
  std::vector<plan::Node> runs;
};

struct PhysicalPlan {
  std::vector<Pipeline> pipelines;  // each after every pipeline it reads
  PipelineId root = 0;
  const plan::IRArena* lp = nullptr;

  // Deterministic text: every pipeline with its source, operators and sink, the strategy
  // each chose and the adaptive rules they apply when they start.
  std::string explain() const;
};

}  // namespace frazil::exec
