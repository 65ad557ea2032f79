#include "frazil/optimizer/pre_partition_hive.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/plan/row_order.hpp"

namespace frazil::optimizer {

using compute::IdxSize;
using compute::JoinType;
using plan::ExprArena;
using plan::IR;
using plan::IRArena;
using plan::IRKind;
using plan::Node;

namespace {

// As Polars (POLARS_HIVE_PARTITIONS' default): at most this many branches.
constexpr size_t kMaxBranches = 64;
// Scan pruning reads is_in lists up to this length (exec/sources/stats_pruning).
constexpr size_t kMaxValues = 4096;

// The file scan at the bottom of a chain of filters, slices and simple projections.
const io::FileScan* hive_scan_below(Node n, const IRArena& lp) {
  for (;;) {
    const IR& ir = lp.get(n);
    switch (ir.kind()) {
      case IRKind::Filter:
      case IRKind::Slice:
      case IRKind::SimpleProjection: n = ir.inputs[0]; continue;
      case IRKind::Scan: {
        const auto& scan = ir.as<plan::ScanNode>();
        if (!scan.source.options) return nullptr;
        const auto* fs = static_cast<const io::FileScan*>(scan.source.options.get());
        // A row limit or row index counts rows across every file: a branch reading some
        // files would count differently.
        if (fs->args().n_rows || fs->args().row_index_name) return nullptr;
        return fs->hive_schema().empty() ? nullptr : fs;
      }
      default: return nullptr;
    }
  }
}

// A plain column of the scan's hive keys (not also a file column, whose values would
// win): its index among the keys.
std::optional<size_t> hive_key_index(Node key, const ExprArena& ea, const io::FileScan& fs) {
  const plan::AExpr& e = ea.get(key);
  if (!e.is_column() || !fs.is_generated(e.name)) return std::nullopt;
  return fs.hive_schema().index_of(e.name);
}

// The partition values of `key`: the inputs' values, each once, in first-appearance order
// (nullopt when one is null, or there are too many). `grouped`: each value's inputs are
// consecutive.
struct PartitionValues {
  ArrayRef values;
  bool grouped = true;
};
std::optional<PartitionValues> partition_values(const io::FileScan& fs, const std::string& key) {
  const ArrayRef all = fs.hive_values().column(key).as_array();
  std::vector<Scalar> seen;
  std::vector<IdxSize> first;
  PartitionValues out;
  for (int64_t i = 0; i < all->length(); ++i) {
    if (all->is_null(i)) return std::nullopt;
    const Scalar v = array_get(*all, i);
    const auto at = std::find(seen.begin(), seen.end(), v);
    if (at == seen.end()) {
      if (seen.size() == kMaxValues) return std::nullopt;
      seen.push_back(v);
      first.push_back(static_cast<IdxSize>(i));
    } else if (!(seen.back() == v)) {
      out.grouped = false;  // a value comes back after another one
    }
  }
  out.values = compute::take(*all, first);
  return out;
}

// Positions of `values` whose value is (keep_missing false) or is not in `other`.
std::vector<IdxSize> positions_in(const Array& values, const Array& other, bool in) {
  std::vector<Scalar> others;
  for (int64_t i = 0; i < other.length(); ++i) others.push_back(array_get(other, i));
  std::vector<IdxSize> out;
  for (int64_t i = 0; i < values.length(); ++i) {
    const bool found = std::find(others.begin(), others.end(), array_get(values, i)) != others.end();
    if (found == in) out.push_back(static_cast<IdxSize>(i));
  }
  return out;
}

// `input` filtered to the rows whose `column` is one of `values`.
Node filtered(Node input, const std::string& column, const ArrayRef& values, IRArena& lp, ExprArena& ea) {
  dsl::LiteralValue list;
  list.series = values;
  const Node col = ea.add(plan::AExpr::column(column));
  const Node lit = ea.add(plan::AExpr::literal_value(std::move(list)));
  const Node is_in = ea.add(plan::AExpr::function_call("is_in", {col, lit}));
  const SchemaRef schema = lp.get(input).schema;
  return lp.add(IR(plan::FilterNode{plan::predicate_ir(is_in, ea)}, {input}, schema));
}

// A copy of the chain above the scan (and the scan), for one branch: predicate pushdown
// then gives each branch its own scan predicate.
Node clone_chain(Node n, IRArena& lp) {
  IR copy = lp.get(n);
  for (Node& in : copy.inputs) in = clone_chain(in, lp);
  return lp.add(std::move(copy));
}

// The values split into at most kMaxBranches consecutive chunks of near-equal length.
std::vector<ArrayRef> chunks_of(const ArrayRef& values) {
  const int64_t n = values->length();
  const int64_t parts = std::min<int64_t>(n, static_cast<int64_t>(kMaxBranches));
  std::vector<ArrayRef> out;
  for (int64_t p = 0, start = 0; p < parts; ++p) {
    const int64_t len = n / parts + (p < n % parts ? 1 : 0);
    out.push_back(values->slice(start, len));
    start += len;
  }
  return out;
}

std::optional<IR> split_group_by(const IR& ir, IRArena& lp, ExprArena& ea) {
  const auto& g = ir.as<plan::GroupByNode>();
  if (g.maintain_order) return std::nullopt;
  const io::FileScan* fs = hive_scan_below(ir.inputs[0], lp);
  if (!fs) return std::nullopt;
  std::optional<std::pair<size_t, std::string>> key;
  for (const auto& k : g.keys)
    if (auto idx = hive_key_index(k.node(), ea, *fs))
      if (!key || *idx < key->first) key = {{*idx, ea.get(k.node()).name}};
  if (!key) return std::nullopt;
  const auto parts = partition_values(*fs, key->second);
  if (!parts || parts->values->length() < 2) return std::nullopt;
  std::vector<Node> branches;
  for (const ArrayRef& chunk : chunks_of(parts->values)) {
    const Node input = filtered(clone_chain(ir.inputs[0], lp), key->second, chunk, lp, ea);
    branches.push_back(lp.add(IR(g, {input}, ir.schema)));
  }
  return IR(plan::UnionNode{}, std::move(branches), ir.schema);
}

std::optional<IR> split_join(const IR& ir, bool order_observed, bool split, IRArena& lp, ExprArena& ea) {
  const auto& j = ir.as<plan::JoinNode>();
  const JoinType how = j.options.how;
  if (how != JoinType::Inner && how != JoinType::Left && how != JoinType::Right && how != JoinType::Semi)
    return std::nullopt;
  const io::FileScan* left = hive_scan_below(ir.inputs[0], lp);
  const io::FileScan* right = hive_scan_below(ir.inputs[1], lp);
  if (!left || !right) return std::nullopt;
  std::optional<std::pair<size_t, size_t>> pick;  // (left key index, key position)
  for (size_t i = 0; i < j.left_on.size(); ++i) {
    auto l = hive_key_index(j.left_on[i].node(), ea, *left);
    auto r = hive_key_index(j.right_on[i].node(), ea, *right);
    if (l && r && (!pick || *l < pick->first)) pick = {{*l, i}};
  }
  if (!pick) return std::nullopt;
  const std::string lname = ea.get(j.left_on[pick->second].node()).name;
  const std::string rname = ea.get(j.right_on[pick->second].node()).name;
  const auto lparts = partition_values(*left, lname);
  const auto rparts = partition_values(*right, rname);
  if (!lparts || !rparts || !(lparts->values->dtype() == rparts->values->dtype())) return std::nullopt;
  // The values the join can produce rows for, in the order-giving side's order.
  const bool right_gives_order = how == JoinType::Right;
  const PartitionValues& order_side = right_gives_order ? *rparts : *lparts;
  const PartitionValues& other_side = right_gives_order ? *lparts : *rparts;
  ArrayRef values = order_side.values;
  if (how == JoinType::Inner || how == JoinType::Semi)
    values = compute::take(*values, positions_in(*values, *other_side.values, true));
  if (values->length() == 0) return std::nullopt;
  if (!split) {
    // Pruning only: each side reads the partitions the join can match, if that drops any.
    const bool prunes_left = values->length() < lparts->values->length();
    const bool prunes_right = values->length() < rparts->values->length();
    if (!prunes_left && !prunes_right) return std::nullopt;
    IR out = ir;
    if (prunes_left) out.inputs[0] = filtered(ir.inputs[0], lname, values, lp, ea);
    if (prunes_right) out.inputs[1] = filtered(ir.inputs[1], rname, values, lp, ea);
    return out;
  }
  if (values->length() < 2) return std::nullopt;
  // In order: the branches follow the order-giving side's files only if each value's
  // files are consecutive there.
  if (order_observed && !order_side.grouped) return std::nullopt;
  std::vector<Node> branches;
  for (const ArrayRef& chunk : chunks_of(values)) {
    const Node l = filtered(clone_chain(ir.inputs[0], lp), lname, chunk, lp, ea);
    const Node r = filtered(clone_chain(ir.inputs[1], lp), rname, chunk, lp, ea);
    branches.push_back(lp.add(IR(j, {l, r}, ir.schema)));
  }
  return IR(plan::UnionNode{}, std::move(branches), ir.schema);
}

}  // namespace

Node pre_partition_hive(Node root, IRArena& lp, ExprArena& ea, bool split) {
  // Most plans have no group-by or join over a hive scan: they pay for this look only.
  bool any = false;
  plan::for_each_plan_node(root, lp, [&](Node n) {
    const IR& ir = lp.get(n);
    if (!any && (ir.kind() == IRKind::GroupBy || ir.kind() == IRKind::Join))
      for (Node in : ir.inputs) any = any || hive_scan_below(in, lp) != nullptr;
  });
  if (!any) return root;
  const std::vector<bool> unordered = plan::unordered_outputs(root, lp, ea);
  const bool trace = plan::RewriteTrace::enabled();
  const size_t original = lp.size();
  plan::for_each_plan_node(root, lp, [&](Node n) {
    // Only the first group-by or join above a scan is split (Polars): the new branches'
    // own group-bys and joins are not split again.
    if (n.idx >= original) return;
    const IR ir = lp.get(n);  // a copy: the splits add nodes, which may move the arena
    std::optional<IR> out;
    if (ir.kind() == IRKind::GroupBy && split) out = split_group_by(ir, lp, ea);
    else if (ir.kind() == IRKind::Join) out = split_join(ir, !unordered[n.idx], split, lp, ea);
    if (!out) return;
    const std::string before = trace ? plan::explain_plan(n, lp, ea) : std::string();
    lp.replace(n, std::move(*out));
    if (trace) plan::RewriteTrace::record({"pre_partition_hive", before, plan::explain_plan(n, lp, ea)});
  });
  return root;
}

}  // namespace frazil::optimizer
