// A plan fragment: the part of an optimized plan one task of a stage runs. Its leaves are
// file scans or named in-memory inputs: every DataFrameScan of the fragment is an input,
// bound by name (in depth-first order of the leaves) to the frame the task is given. Its
// output is whole (one frame) or hash-partitioned by output columns into N frames
// (compute/partition.hpp). The bytes: a magic, a version, the IR (serde/ir_codec.hpp), the
// input names and the output spec; partitions travel as Arrow IPC (encode_partition).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "frazil/exec/exec_options.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::distributed {

struct OutputSpec {
  std::vector<std::string> hash_keys;  // empty: the output whole
  size_t partitions = 1;
  bool operator==(const OutputSpec&) const = default;
};

// The names of the fragment's in-memory inputs: its DataFrameScan leaves, depth first.
std::vector<plan::Node> fragment_inputs(plan::Node root, const plan::IRArena& lp);

// `names[i]` names fragment_inputs(root)[i]; their frames are not written (only schemas).
std::string serialize_fragment(plan::Node root, const plan::IRArena& lp, const plan::ExprArena& ea,
                               const std::vector<std::string>& names, const OutputSpec& output);

// Runs the fragment on `inputs` (by name; each frame must have the input's source schema).
// Returns one frame (whole) or output.partitions frames.
std::vector<DataFrame> execute_fragment(std::string_view bytes, const std::map<std::string, DataFrame>& inputs,
                                        const exec::ExecOptions& options = exec::ExecOptions::from_env());

// A partition as bytes (Arrow IPC with the frame's dtypes) and back.
std::string encode_partition(const DataFrame& df);
DataFrame decode_partition(std::string_view bytes);

}  // namespace frazil::distributed
