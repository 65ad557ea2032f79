#include "frazil/exec/lower/join_strategy.hpp"

#include <algorithm>

#include "frazil/core/memory.hpp"
#include "frazil/exec/operators/join.hpp"
#include "frazil/plan/cost/cost_model.hpp"

namespace frazil::exec {

using compute::JoinType;
using plan::IR;

namespace {

// Whether the right input of an inner, left, semi or anti join groups by exactly the right
// join keys (plain columns under their own names): then only the groups whose keys the left
// side has can reach the output, and the others need not be computed.
bool right_groups_by_join_keys(const IR& ir, const plan::IRArena& lp, const plan::ExprArena& ea) {
  const auto& join = ir.as<plan::JoinNode>();
  const JoinType how = join.options.how;
  if (how != JoinType::Inner && how != JoinType::Left && how != JoinType::Semi && how != JoinType::Anti) return false;
  const IR& g = lp.get(ir.inputs[1]);
  if (g.kind() != plan::IRKind::GroupBy) return false;
  const auto& group_keys = g.as<plan::GroupByNode>().keys;
  for (size_t i = 0; i < join.right_on.size(); ++i) {
    const plan::AExpr& lk = ea.get(join.left_on[i].node());
    const plan::AExpr& rk = ea.get(join.right_on[i].node());
    if (!lk.is_column() || !rk.is_column()) return false;
    const bool grouped = std::any_of(group_keys.begin(), group_keys.end(), [&](const plan::ExprIR& k) {
      const plan::AExpr& e = ea.get(k.node());
      return e.is_column() && e.name == rk.name && k.output_name() == rk.name;
    });
    if (!grouped) return false;
  }
  return true;
}

// The rows the right group-by is estimated to see, when a key filter fits: the left side is
// expected to be no bigger than that (estimates of the left side are rough, a semi join is
// taken to keep half its rows: the filter itself is only made when the left side, once run,
// is small indeed; see KeyFilter).
std::optional<double> key_filter_rows(const IR& ir, const plan::IRArena& lp, const plan::ExprArena& ea) {
  if (!right_groups_by_join_keys(ir, lp, ea)) return std::nullopt;
  const IR& g = lp.get(ir.inputs[1]);
  auto grouped = plan::estimate_cost(g.inputs[0], lp, ea);
  auto left = plan::estimate_cost(ir.inputs[0], lp, ea);
  if (!grouped || !left || left->rows > grouped->rows) return std::nullopt;
  return grouped->rows;
}

// The right side is expected to be the smaller: the hash table is built on it.
bool probe_left(const IR& ir, const plan::IRArena& lp, const plan::ExprArena& ea) {
  if (!join_streams_left(ir, ea)) return false;
  auto left = plan::estimate_cost(ir.inputs[0], lp, ea);
  auto right = plan::estimate_cost(ir.inputs[1], lp, ea);
  return left && right && right->rows <= left->rows;
}

// Under a memory limit: the left side that an unordered left build would gather whole (it
// cannot spill) is expected to take more than half the limit with its table. Then
// the table is built on the right instead, which a JoinBuildSink gathers and spills past the
// limit (a grace hash join). PDS-H q9 at scale 10 under 1 GiB: the 3M-row left side of
// its orders join went past the limit gathered; built on orders it spills and completes.
// (Not for every unordered join, nor from an eighth of the limit: q10's left side, 570k rows
// estimated at 3.75M, would then spill all of lineitem: 132 s and 2.3 GB against 20 s.)
bool left_too_big_to_gather(const IR& ir, const plan::IRArena& lp, const plan::ExprArena& ea) {
  const int64_t limit = memory_limit();
  if (limit <= 0) return false;
  auto left = plan::estimate_cost(ir.inputs[0], lp, ea);
  if (!left) return false;
  double row_bytes = 48;  // the table's share per row (exec/sinks/join_build_sink.cpp)
  for (const auto& f : lp.get(ir.inputs[0]).schema->fields())
    row_bytes += f.dtype.is_fixed_width() ? std::max(f.dtype.byte_width(), 1) : 24;
  return left->rows * row_bytes > static_cast<double>(limit) / 2;
}

}  // namespace

JoinChoice choose_join_strategy(plan::Node node, bool as_stream, const plan::IRArena& lp, const plan::ExprArena& ea,
                                const std::vector<bool>& unordered, bool row_estimates) {
  const IR& ir = lp.get(node);
  if (auto grouped = row_estimates ? key_filter_rows(ir, lp, ea) : std::nullopt)
    return {as_stream ? JoinStrategy::KeyFilteredProbe : JoinStrategy::KeyFilteredWhole, *grouped};
  const bool streams_left = join_streams_left(ir, ea);
  if (row_estimates && probe_left(ir, lp, ea)) return {JoinStrategy::ProbeLeft};
  if (row_estimates && streams_left && unordered[node.idx] && left_too_big_to_gather(ir, lp, ea))
    return {JoinStrategy::ProbeLeft};
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  if (unordered[node.idx] && (how == JoinType::Inner || how == JoinType::Left) && streams_left)
    return {JoinStrategy::UnorderedLeftBuild};
  if (as_stream) return {JoinStrategy::Materialize};
  return {streams_left ? JoinStrategy::LeftBuild : JoinStrategy::Whole};
}

}  // namespace frazil::exec
