// The stage planner: an optimized plan cut at its exchanges into stages, each a plan
// fragment (fragment.hpp) run by one or more tasks. Every stage reads the outputs of
// earlier stages or the in-memory frames of the plan, in one of three ways:
//   Hash    task j reads partition j of every upstream task (a hash exchange by keys)
//   Same    task j reads upstream task j's whole output (no data moves)
//   All     every task reads all of it, in task order (a gather to one task, or a broadcast)
// and a frame source is read as Slice (task j gets the j-th of `tasks` contiguous slices)
// or All. What is cut where:
//   row-wise nodes               inside the fragment, partitioning kept
//   group_by / select of aggs    partial per task (aggregation_split.hpp), then hash by the
//                                keys to the final (gather when ordered or ungrouped)
//   not decomposable             gathered to one task
//   join                         broadcast the side that may be (inner: either; left/semi/
//                                anti: right; right: left) when the estimates say it is the
//                                smaller by `broadcast_factor`, else hash both by the keys
//                                (semi/anti: the right side reduced to its distinct keys)
//   top-k / head                 per task, gathered, then the final one
//   distinct (any, unordered)    hash by its columns
//   everything else              gathered to one task
// A Parquet file scan is split by row groups into up to `partitions` tasks (scan_split.hpp);
// other file scans are one task.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frazil/distributed/fragment.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::distributed {

enum class InputMode : uint8_t { Hash, Same, All, Slice };
const char* input_mode_name(InputMode mode);

struct StageInput {
  std::string name;  // the fragment's input name
  int stage = -1;    // the upstream stage; -1: frames[frame]
  int frame = -1;
  InputMode mode = InputMode::All;
};

struct Stage {
  int id = 0;
  // serialize_fragment's bytes: one for every task, or one per task when the tasks read
  // different splits of a file scan (scan_split.hpp).
  std::vector<std::string> fragments;
  std::vector<StageInput> inputs;
  size_t tasks = 1;
  OutputSpec output;
  std::string description;  // the fragment's plan, as text (and its scan splits)
  const std::string& fragment_of(size_t task) const { return fragments.size() == 1 ? fragments[0] : fragments.at(task); }
};

struct StageGraph {
  std::vector<Stage> stages;  // upstream before downstream; the last is the root
  std::vector<std::shared_ptr<const DataFrame>> frames;
  bool ordered = true;  // the root's task outputs, concatenated, are the rows in order
};

struct DistOptions {
  size_t partitions = 2;
  // Broadcast a side when it is estimated to have at most this share of the other's rows
  // (times the partitions: W-1 copies of it against one pass over the other).
  double broadcast_factor = 1.0;
  bool allow_broadcast = true;
};

StageGraph plan_stages(plan::Node root, const plan::IRArena& lp, const plan::ExprArena& ea, const DistOptions& options);

// "=== Stage k (n tasks) -> output ===" blocks with inputs and the fragment's plan.
std::string format_stage_graph(const StageGraph& graph);

// Runs the stages in process with the partitions between them as Arrow IPC bytes: the
// concatenation of the root stage's task outputs.
DataFrame run_local(const StageGraph& graph, const exec::ExecOptions& options = exec::ExecOptions::from_env());

}  // namespace frazil::distributed
