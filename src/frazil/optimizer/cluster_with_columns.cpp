#include "frazil/optimizer/cluster_with_columns.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frazil/plan/expr/walk.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using plan::ExprIR;
using plan::HStackNode;
using plan::IR;
using plan::IRKind;
using plan::Node;

namespace {

class ClusterWithColumns {
 public:
  ClusterWithColumns(plan::IRArena& lp, plan::ExprArena& ea, Node root)
      : lp_(lp), ea_(ea), parents_(plan::count_parents(root, lp)) {}

  // Merges the with_columns `upper` with the one below it; false when nothing moves.
  bool merge(Node upper) {
    const IR& up = lp_.get(upper);
    if (up.kind() != IRKind::HStack) return false;
    const Node lower = up.inputs[0];
    const IR& low = lp_.get(lower);
    // The lower one changes: no other reader may see it change.
    if (low.kind() != IRKind::HStack || parents_[lower.idx] > 1) return false;
    const auto& up_exprs = up.as<HStackNode>().exprs;
    const auto& low_exprs = low.as<HStackNode>().exprs;
    std::unordered_map<std::string, size_t> computed;  // lower output name -> index
    for (size_t i = 0; i < low_exprs.size(); ++i)
      if (!computed.emplace(low_exprs[i].output_name(), i).second) return false;

    auto is_identity = [&](const ExprIR& e) {
      const plan::AExpr& a = ea_.get(e.node());
      return a.is_column() && a.name == e.output_name();
    };
    std::vector<bool> moves(up_exprs.size(), false);
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      if (is_identity(up_exprs[i])) continue;
      bool reads_computed = false;
      for (const auto& c : plan::columns_of(up_exprs[i].node(), ea_)) reads_computed |= computed.count(c) > 0;
      moves[i] = !reads_computed;
    }
    // An expression that stays must still read the lower stage's column, not its replacement.
    std::unordered_set<std::string> read_by_staying;
    for (size_t i = 0; i < up_exprs.size(); ++i)
      if (!moves[i] && !is_identity(up_exprs[i]))
        for (auto& c : plan::columns_of(up_exprs[i].node(), ea_)) read_by_staying.insert(std::move(c));
    bool any = false;
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      moves[i] = moves[i] && !read_by_staying.count(up_exprs[i].output_name());
      any |= moves[i] || is_identity(up_exprs[i]);
    }
    if (!any) return false;

    const bool trace = plan::RewriteTrace::enabled();
    std::string before = trace ? plan::explain_plan(upper, lp_, ea_) : std::string();
    const SchemaRef up_schema = up.schema;
    std::vector<ExprIR> merged = low_exprs, staying;
    Schema low_schema = *low.schema;
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      const ExprIR& e = up_exprs[i];
      if (is_identity(e)) continue;
      if (!moves[i]) {
        staying.push_back(e);
        continue;
      }
      // A column the lower stage computed is replaced where it was; a new one goes last.
      auto it = computed.find(e.output_name());
      if (it != computed.end()) merged[it->second] = e;
      else merged.push_back(e);
      const DataType& dtype = up_schema->dtype_of(e.output_name());
      if (low_schema.contains(e.output_name())) low_schema.set(e.output_name(), dtype);
      else low_schema.push(Field(e.output_name(), dtype));
    }
    const SchemaRef new_low_schema = std::make_shared<const Schema>(std::move(low_schema));
    const Node low_input = low.inputs[0];
    lp_.replace(lower, IR(HStackNode{std::move(merged)}, {low_input}, new_low_schema));

    // What the upper stage gives now: the lower's columns, with its own replaced in
    // place and new ones last.
    Schema now = *new_low_schema;
    for (const ExprIR& e : staying) {
      const DataType& dtype = up_schema->dtype_of(e.output_name());
      if (now.contains(e.output_name())) now.set(e.output_name(), dtype);
      else now.push(Field(e.output_name(), dtype));
    }
    const bool same_order = now == *up_schema;
    Node body = lower;
    const bool stays = !staying.empty();
    if (stays) {
      IR stage(HStackNode{std::move(staying)}, {lower}, std::make_shared<const Schema>(std::move(now)));
      if (same_order) {
        lp_.replace(upper, std::move(stage));
      } else {
        body = lp_.add(std::move(stage));
        parents_.resize(lp_.size(), 0);
        parents_[body.idx] = 1;
      }
    }
    if (!stays || !same_order) {
      if (!stays && same_order) lp_.replace(upper, IR(lp_.get(lower)));
      else lp_.replace(upper, plan::make_simple_projection(body, up_schema));
    }
    if (trace) plan::RewriteTrace::record({"cluster_with_columns", std::move(before), plan::explain_plan(upper, lp_, ea_)});
    return true;
  }

 private:
  plan::IRArena& lp_;
  plan::ExprArena& ea_;
  std::vector<uint32_t> parents_;
};

}  // namespace

Node cluster_with_columns(Node root, plan::IRArena& lp, plan::ExprArena& ea) {
  ClusterWithColumns rule(lp, ea, root);
  plan::for_each_plan_node(root, lp, [&](Node n) {
    // Again: the merged stage may sit on another with_columns.
    while (rule.merge(n)) {
    }
  });
  return root;
}

}  // namespace frazil::optimizer
