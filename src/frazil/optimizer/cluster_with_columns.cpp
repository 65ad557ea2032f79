#include "frazil/optimizer/cluster_with_columns.hpp"

#include <optional>
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

bool is_identity(const ExprIR& e, const plan::ExprArena& ea) {
  const plan::AExpr& a = ea.get(e.node());
  return a.is_column() && a.name == e.output_name();
}

// A chain of with_columns is merged bottom-up in one pass, keeping the stage that the
// next one up merges into in local structures: merging stage by stage into IR nodes
// copied the growing stage at every step (quadratic in the chain's length).
class ClusterWithColumns {
 public:
  ClusterWithColumns(plan::IRArena& lp, plan::ExprArena& ea, Node root)
      : lp_(lp), ea_(ea), parents_(plan::count_parents(root, lp)) {}

  // Merges the chain of with_columns that ends (at the top) at `top`.
  void merge_chain(Node top) {
    std::vector<Node> chain{top};  // top first; every stage below the top has one reader
    while (true) {
      const Node in = lp_.get(chain.back()).inputs[0];
      if (lp_.get(in).kind() != IRKind::HStack || parents_[in.idx] > 1) break;
      chain.push_back(in);
    }
    if (chain.size() < 2) return;
    start_group(chain.size() - 1, chain);
    for (size_t j = chain.size() - 1; j-- > 0;) {
      if (step(j, chain)) continue;
      // chain[j] is now a projection over a stage of its own: a new group starts above it.
      if (j == 0) return;
      --j;
      start_group(j, chain);
    }
    finish_group();
  }

 private:
  // The stage the next one up merges into: the expressions of the with_columns at node
  // `top` (over `input`), as merged so far.
  struct Group {
    Node top, input;
    std::vector<ExprIR> exprs;
    std::unordered_map<std::string, size_t> computed;  // output name -> index in exprs
    std::optional<std::vector<Field>> fields;          // its output schema, once it changed
    std::unordered_map<std::string, size_t> field_index;
    bool changed = false;
  };

  void start_group(size_t k, const std::vector<Node>& chain) {
    const IR& ir = lp_.get(chain[k]);
    group_ = Group{chain[k], ir.inputs[0], ir.as<HStackNode>().exprs, {}, std::nullopt, {}, false};
    for (size_t i = 0; i < group_.exprs.size(); ++i) group_.computed.emplace(group_.exprs[i].output_name(), i);
  }

  // The group's output schema in local structures (once per group that changes).
  void materialize_fields() {
    if (group_.fields) return;
    group_.fields = lp_.get(group_.top).schema->fields();
    for (size_t i = 0; i < group_.fields->size(); ++i) group_.field_index.emplace((*group_.fields)[i].name, i);
  }

  void set_field(const std::string& name, const DataType& dtype) {
    materialize_fields();
    auto it = group_.field_index.find(name);
    if (it != group_.field_index.end()) {
      (*group_.fields)[it->second] = Field(name, dtype);
    } else {
      group_.field_index.emplace(name, group_.fields->size());
      group_.fields->push_back(Field(name, dtype));
    }
  }

  // Writes the group's stage at its top node (its other nodes are no longer read).
  void finish_group() {
    if (!group_.changed) return;
    SchemaRef schema = group_.fields ? std::make_shared<const Schema>(std::move(*group_.fields))
                                     : lp_.get(group_.top).schema;
    const bool trace = plan::RewriteTrace::enabled();
    std::string before = trace ? plan::explain_plan(group_.top, lp_, ea_) : std::string();
    lp_.replace(group_.top, IR(HStackNode{std::move(group_.exprs)}, {group_.input}, std::move(schema)));
    if (trace) plan::RewriteTrace::record({"cluster_with_columns", std::move(before), plan::explain_plan(group_.top, lp_, ea_)});
  }

  // Merges stage chain[j] (it reads the group's top) into the group. True when the
  // group goes on with chain[j] as its top; false when chain[j] became a projection.
  bool step(size_t j, const std::vector<Node>& chain) {
    const Node upper = chain[j];
    const IR& up = lp_.get(upper);
    const SchemaRef up_schema = up.schema;
    const std::vector<ExprIR> up_exprs = up.as<HStackNode>().exprs;
    std::vector<bool> moves(up_exprs.size(), false);
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      if (is_identity(up_exprs[i], ea_)) continue;
      bool reads_computed = false;
      for (const auto& c : plan::columns_of(up_exprs[i].node(), ea_)) reads_computed |= group_.computed.count(c) > 0;
      moves[i] = !reads_computed;
    }
    // An expression that stays must still read the lower stage's column, not its replacement.
    std::unordered_set<std::string> read_by_staying;
    for (size_t i = 0; i < up_exprs.size(); ++i)
      if (!moves[i] && !is_identity(up_exprs[i], ea_))
        for (auto& c : plan::columns_of(up_exprs[i].node(), ea_)) read_by_staying.insert(std::move(c));
    bool any = false;
    std::vector<ExprIR> staying;
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      moves[i] = moves[i] && !read_by_staying.count(up_exprs[i].output_name());
      any |= moves[i] || is_identity(up_exprs[i], ea_);
      if (!moves[i] && !is_identity(up_exprs[i], ea_)) staying.push_back(up_exprs[i]);
    }
    if (!any) {
      // Nothing moves: chain[j] starts the group that the stages above merge into.
      finish_group();
      start_group(j, chain);
      return true;
    }
    // The upper stage's columns come out in another order when a staying expression adds
    // a column before one that moves down and adds one.
    materialize_fields();
    bool same_order = true, staying_added = false;
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      const ExprIR& e = up_exprs[i];
      if (is_identity(e, ea_)) continue;
      const bool adds = !group_.field_index.count(e.output_name());
      if (!adds) continue;
      if (moves[i]) same_order = same_order && !staying_added;
      else staying_added = true;
    }
    for (size_t i = 0; i < up_exprs.size(); ++i) {
      if (!moves[i]) continue;
      const ExprIR& e = up_exprs[i];
      // A column the lower stage computed is replaced where it was; a new one goes last.
      auto it = group_.computed.find(e.output_name());
      if (it != group_.computed.end()) {
        group_.exprs[it->second] = e;
      } else {
        group_.computed.emplace(e.output_name(), group_.exprs.size());
        group_.exprs.push_back(e);
      }
      set_field(e.output_name(), up_schema->dtype_of(e.output_name()));
    }
    group_.changed = true;
    if (staying.empty()) {
      // Absorbed: the group's stage is read through chain[j] now.
      group_.top = upper;
      return true;
    }
    // What the upper stage gives over the merged one: its columns, then the new ones.
    std::vector<Field> now = *group_.fields;
    std::unordered_map<std::string, size_t> index = group_.field_index;
    for (const ExprIR& e : staying) {
      Field f(e.output_name(), up_schema->dtype_of(e.output_name()));
      auto it = index.find(f.name);
      if (it != index.end()) now[it->second] = f;
      else index.emplace(f.name, now.size()), now.push_back(f);
    }
    const Node lower = group_.top;
    finish_group();
    IR stage(HStackNode{std::move(staying)}, {lower}, std::make_shared<const Schema>(std::move(now)));
    if (same_order) {
      lp_.replace(upper, std::move(stage));
      start_group(j, chain);
      return true;
    }
    const Node body = lp_.add(std::move(stage));
    parents_.resize(lp_.size(), 0);
    parents_[body.idx] = 1;
    lp_.replace(upper, plan::make_simple_projection(body, up_schema));
    return false;
  }

  plan::IRArena& lp_;
  plan::ExprArena& ea_;
  std::vector<uint32_t> parents_;
  Group group_;

 public:
  bool single_reader(Node n) const { return n.idx >= parents_.size() || parents_[n.idx] <= 1; }
};

}  // namespace

Node cluster_with_columns(Node root, plan::IRArena& lp, plan::ExprArena& ea) {
  ClusterWithColumns rule(lp, ea, root);
  // Top-down: a chain is merged from the stage that no with_columns reads.
  std::vector<bool> below_a_stage(lp.size(), false);
  plan::for_each_plan_node(root, lp, [&](Node n) {
    if (lp.get(n).kind() != IRKind::HStack) return;
    if (n.idx < below_a_stage.size() && below_a_stage[n.idx]) return;
    rule.merge_chain(n);
    // The stages of its chain below it were merged with it (the walk reaches them next).
    for (Node in = lp.get(n).inputs[0]; lp.get(in).kind() == IRKind::HStack && rule.single_reader(in);
         in = lp.get(in).inputs[0]) {
      if (in.idx >= below_a_stage.size()) below_a_stage.resize(lp.size(), false);
      below_a_stage[in.idx] = true;
    }
  });
  return root;
}

}  // namespace frazil::optimizer
