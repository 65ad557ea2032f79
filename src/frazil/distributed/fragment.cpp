#include "frazil/distributed/fragment.hpp"

#include "frazil/compute/partition.hpp"
#include "frazil/exec/executor.hpp"
#include "frazil/serde/byte_io.hpp"
#include "frazil/serde/ir_codec.hpp"
#include "frazil/serde/value_codec.hpp"

namespace frazil::distributed {

namespace {

constexpr std::string_view kMagic = "FRZFRAG";
constexpr uint64_t kVersion = 1;

}  // namespace

std::vector<plan::Node> fragment_inputs(plan::Node root, const plan::IRArena& lp) {
  std::vector<plan::Node> out;
  std::vector<plan::Node> stack{root};
  std::vector<bool> seen(lp.size(), false);
  while (!stack.empty()) {
    const plan::Node n = stack.back();
    stack.pop_back();
    if (seen[n.idx]) continue;  // a Cache read twice is one input
    seen[n.idx] = true;
    const plan::IR& ir = lp.get(n);
    if (ir.is<plan::DataFrameScanNode>()) out.push_back(n);
    for (auto it = ir.inputs.rbegin(); it != ir.inputs.rend(); ++it) stack.push_back(*it);
  }
  return out;
}

std::string serialize_fragment(plan::Node root, const plan::IRArena& lp, const plan::ExprArena& ea,
                               const std::vector<std::string>& names, const OutputSpec& output) {
  const std::vector<plan::Node> leaves = fragment_inputs(root, lp);
  if (leaves.size() != names.size())
    throw InternalError(err_msg("a fragment with ", leaves.size(), " in-memory inputs was given ", names.size(), " names"));
  // The inputs' frames stay behind: only their schemas are written.
  plan::IRArena slim = lp;
  for (plan::Node n : leaves) {
    plan::IR ir = slim.get(n);
    auto& scan = ir.as_mut<plan::DataFrameScanNode>();
    scan.df = std::make_shared<const DataFrame>(compute::take_frame(*scan.df, {}));
    slim.replace(n, std::move(ir));
  }
  serde::ByteWriter w;
  w.raw(kMagic);
  w.varint(kVersion);
  w.str(serde::serialize_ir(root, slim, ea));
  w.strs(names);
  w.strs(output.hash_keys);
  w.varint(output.partitions);
  return w.take();
}

std::vector<DataFrame> execute_fragment(std::string_view bytes, const std::map<std::string, DataFrame>& inputs,
                                        const exec::ExecOptions& options) {
  serde::ByteReader r(bytes);
  if (bytes.substr(0, kMagic.size()) != kMagic) r.fail("not a plan fragment (no FRZFRAG magic)");
  r.raw(kMagic.size());
  const uint64_t version = r.varint();
  if (version > kVersion)
    throw ComputeError(err_msg("the plan fragment has format version ", version, "; this frazil reads up to ", kVersion));
  serde::IrPlan p = serde::deserialize_ir(r.str());
  const std::vector<std::string> names = r.strs();
  OutputSpec output;
  output.hash_keys = r.strs();
  output.partitions = r.varint();
  if (!r.at_end()) r.fail("trailing bytes after the fragment");
  if (output.partitions == 0) r.fail("an output of zero partitions");
  const std::vector<plan::Node> leaves = fragment_inputs(p.root, p.lp);
  if (leaves.size() != names.size())
    r.fail(err_msg("a fragment with ", leaves.size(), " in-memory inputs and ", names.size(), " input names"));
  for (size_t i = 0; i < leaves.size(); ++i) {
    auto it = inputs.find(names[i]);
    if (it == inputs.end()) throw ComputeError(err_msg("the plan fragment's input '", names[i], "' was not given"));
    plan::IR ir = p.lp.get(leaves[i]);
    auto& scan = ir.as_mut<plan::DataFrameScanNode>();
    if (it->second.schema() != *scan.source_schema)
      throw SchemaError(err_msg("the plan fragment's input '", names[i], "' has schema ", it->second.schema().to_string(),
                                ", the fragment expects ", scan.source_schema->to_string()));
    scan.df = std::make_shared<const DataFrame>(it->second);
    p.lp.replace(leaves[i], std::move(ir));
  }
  DataFrame out = exec::execute_plan(p.root, p.lp, p.ea, options);
  if (output.hash_keys.empty()) {
    if (output.partitions != 1) throw ComputeError("a fragment output of several partitions needs hash keys");
    return {std::move(out)};
  }
  return compute::partition_frame(out, output.hash_keys, output.partitions);
}

std::string encode_partition(const DataFrame& df) {
  serde::ByteWriter w;
  serde::write_frame(w, df);
  return w.take();
}

DataFrame decode_partition(std::string_view bytes) {
  serde::ByteReader r(bytes);
  DataFrame df = serde::read_frame(r);
  if (!r.at_end()) r.fail("trailing bytes after a partition");
  return df;
}

}  // namespace frazil::distributed
