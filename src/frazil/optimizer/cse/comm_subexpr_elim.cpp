#include "frazil/optimizer/cse/comm_subexpr_elim.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <unordered_map>
#include <unordered_set>

#include "frazil/core/stack.hpp"
#include "frazil/optimizer/cse/subexpr_roles.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/optimization_rule.hpp"

namespace frazil::optimizer::cse {

using plan::AExpr;
using plan::CanonicalExprId;
using plan::ExprIR;
using plan::IR;
using plan::IRKind;
using plan::Node;

std::string cse_column_name(CanonicalExprId id) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%x", id.value);
  return std::string(kCseColumnPrefix) + buf;
}

namespace {

enum class Context : uint8_t { Select, HStack, GroupBy };

struct Found {
  std::vector<ExprIR> exprs;  // the node's expressions, reading the temporaries
  std::vector<ExprIR> temps;  // the temporaries, for a with_columns below
};

// Finds and rewrites the repeated subexpressions of one node's expression list.
//
// Counting works on canonical classes, not on nodes: whether a class may be hoisted
// (role, validity, height) is a property of its structure, and the number of times it
// occurs in the list follows from its parents' counts. Class ids are handed out in
// post-order, so visiting the classes by decreasing id visits parents before children,
// and an expression that repeats itself 2^20 times costs 20 steps, not 2^20. Only the
// rewrite walks nodes, from the top down to the first replaced ones.
class SubexprFinder {
 public:
  SubexprFinder(plan::ExprArena& ea, plan::CanonicalExprMap& map) : ea_(ea), map_(map) {}

  std::optional<Found> find(const std::vector<ExprIR>& exprs, Context ctx, const Schema& input_schema) {
    group_by_ = ctx == Context::GroupBy;
    replaced_.clear();
    rewritten_.clear();
    order_.clear();
    std::vector<uint32_t> roots;
    for (const auto& e : exprs) roots.push_back(map_.resolve(e.node(), ea_).value);
    grow();

    // A scalar may be hoisted only where every output is broadcast to the frame height.
    scalar_ok_ = ctx == Context::HStack;
    if (ctx == Context::Select) {
      bool any_frame = false, all_fit = true;
      for (uint32_t r : roots) {
        Height h = fact(r).height;
        any_frame |= h == Height::Frame;
        all_fit &= h != Height::Other;
      }
      scalar_ok_ = any_frame && all_fit;
    }
    if (!count(roots)) return std::nullopt;

    Found out;
    for (const auto& e : exprs) {
      ExprIR r = e;
      Node n = rewrite(e.node(), true, false);
      if (n != e.node()) {
        r.set_node(n);
        // The natural name would now be the temporary's.
        if (!r.has_alias()) r.set_alias(e.output_name());
      }
      out.exprs.push_back(std::move(r));
    }
    std::unordered_set<std::string> names;
    for (uint32_t id : order_) {
      std::string name = cse_column_name(CanonicalExprId{id});
      if (input_schema.contains(name)) return std::nullopt;  // a name clash: leave the node alone
      names.insert(name);
      out.temps.emplace_back(map_.representative(CanonicalExprId{id}),
                             plan::OutputName{plan::OutputNameKind::Alias, name});
    }
    for (const auto& e : out.exprs)
      if (names.count(e.output_name())) return std::nullopt;
    if (plan::RewriteTrace::enabled())
      for (const auto& t : out.temps) {
        std::string text = plan::node_to_expr(t.node(), ea_).to_string();
        if (text.size() > 200) text = text.substr(0, 197) + "...";
        plan::RewriteTrace::record({"comm_subexpr_elim", text, t.output_name()});
      }
    return out;
  }

 private:
  // What a class may do, per context kind (outside / inside an aggregation).
  struct Fact {
    bool done = false;
    bool valid = false;  // no refused node in the subtree
    Role role = Role::Refuse;
    Height height = Height::Other;
  };

  void grow() {
    const size_t n = map_.num_classes();
    for (auto& f : facts_) f.resize(n);
    counts_.resize(n);
    mult_.resize(n);
  }

  const Fact& fact(uint32_t id) {
    Fact& f = facts_[group_by_][id];
    if (f.done) return f;
    check_stack("common subexpression elimination");  // recursive over the depth (core/stack.hpp)
    const AExpr& e = ea_.get(map_.representative(CanonicalExprId{id}));
    const auto children = map_.children(CanonicalExprId{id});
    std::vector<Height> in;
    in.reserve(children.size());
    bool valid = true;
    for (uint32_t c : children) {
      const Fact& cf = fact(c);
      in.push_back(cf.height);
      valid &= cf.valid;
    }
    Fact& again = facts_[group_by_][id];  // re-read: the reference above predates the recursion
    again.role = classify(e, group_by_, map_.hooks());
    again.valid = valid && again.role != Role::Refuse && again.role != Role::RefuseSkip;
    again.height = node_height(e, in);
    again.done = true;
    return again;
  }

  bool accepted(uint32_t id, bool path_elementwise, bool in_window) {
    const Fact& f = fact(id);
    if (!f.valid || f.role != Role::Candidate || in_window) return false;
    if (group_by_) return f.height == Height::Frame;
    return f.height == Height::Frame || (f.height == Height::Scalar && scalar_ok_ && path_elementwise);
  }

  // Occurrences per class in the list (tree semantics), counting only where a class may be
  // hoisted: multiplicities flow from parents to children, split by whether the path from
  // the output is elementwise. Nothing below a window counts (it runs per partition).
  bool count(const std::vector<uint32_t>& roots) {
    std::vector<uint32_t> reachable;
    std::vector<uint32_t> stack(roots.begin(), roots.end());
    while (!stack.empty()) {
      uint32_t c = stack.back();
      stack.pop_back();
      if (mult_[c].seen) continue;
      mult_[c] = Mult{true, 0, 0};
      reachable.push_back(c);
      for (uint32_t child : map_.children(CanonicalExprId{c})) stack.push_back(child);
    }
    for (uint32_t r : roots) mult_[r].elementwise += 1;
    std::sort(reachable.begin(), reachable.end(), std::greater<>());
    bool repeated = false;
    for (uint32_t c : reachable) {
      const Mult m = mult_[c];
      uint64_t n = 0;
      if (m.elementwise && accepted(c, true, false)) n = add(n, m.elementwise);
      if (m.other && accepted(c, false, false)) n = add(n, m.other);
      counts_[c] = n;
      repeated |= n > 1;
      const Fact& f = fact(c);
      const AExpr& e = ea_.get(map_.representative(CanonicalExprId{c}));
      if (f.role == Role::RefuseSkip || e.kind == plan::AExprKind::Window) continue;
      const auto children = map_.children(CanonicalExprId{c});
      for (size_t i = 0; i < children.size(); ++i) {
        Mult& cm = mult_[children[i]];
        const bool ew = input_is_elementwise(e, i);
        cm.elementwise = add(cm.elementwise, ew ? m.elementwise : 0);
        cm.other = add(cm.other, add(m.other, ew ? 0 : m.elementwise));
      }
    }
    for (uint32_t c : reachable) mult_[c].seen = false;
    return repeated;
  }

  // Memoized per (node, path kind): a subtree shared in the arena is rewritten once.
  Node rewrite(Node n, bool path_elementwise, bool in_window) {
    const uint64_t key = uint64_t{n.idx} << 2 | uint64_t{path_elementwise} << 1 | uint64_t{in_window};
    if (auto it = rewritten_.find(key); it != rewritten_.end()) return it->second;
    Node out = rewrite_new(n, path_elementwise, in_window);
    rewritten_.emplace(key, out);
    return out;
  }

  Node rewrite_new(Node n, bool path_elementwise, bool in_window) {
    const uint32_t id = map_.resolve(n, ea_).value;
    if (accepted(id, path_elementwise, in_window) && counts_[id] > 1) {
      auto [it, fresh] = replaced_.emplace(id, Node());
      if (fresh) {
        it->second = ea_.add(AExpr::column(cse_column_name(CanonicalExprId{id})));
        order_.push_back(id);
      }
      return it->second;
    }
    if (fact(id).role == Role::RefuseSkip) return n;
    const bool child_window = in_window || ea_.get(n).kind == plan::AExprKind::Window;
    std::vector<Node> inputs = ea_.get(n).inputs;
    bool changed = false;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Node r = rewrite(inputs[i], path_elementwise && input_is_elementwise(ea_.get(n), i), child_window);
      changed |= r != inputs[i];
      inputs[i] = r;
    }
    if (!changed) return n;
    AExpr copy = ea_.get(n);  // never in place: other plan nodes may share this subtree
    copy.inputs = std::move(inputs);
    return ea_.add(std::move(copy));
  }

  // Saturating: a count only needs to tell 0, 1 and "more".
  static uint64_t add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

  struct Mult {
    bool seen = false;
    uint64_t elementwise = 0;  // occurrences reached through elementwise parents only
    uint64_t other = 0;
  };

  plan::ExprArena& ea_;
  plan::CanonicalExprMap& map_;
  std::vector<Fact> facts_[2];
  std::vector<uint64_t> counts_;
  std::vector<Mult> mult_;
  bool group_by_ = false;
  bool scalar_ok_ = false;
  std::unordered_map<uint32_t, Node> replaced_;
  std::unordered_map<uint64_t, Node> rewritten_;
  std::vector<uint32_t> order_;
};

SchemaRef with_columns_schema(const Schema& input, const std::vector<ExprIR>& exprs, const plan::ExprArena& ea) {
  Schema s = input;
  for (const auto& e : exprs) s.set(e.output_name(), e.dtype(input, ea));
  return std::make_shared<const Schema>(std::move(s));
}

class SubexprElimination {
 public:
  SubexprElimination(plan::IRArena& lp, plan::ExprArena& ea, const CseOptions& options)
      : lp_(lp), ea_(ea), map_(options.hooks), finder_(ea, map_) {}

  void run(Node root) {
    std::vector<Node> targets;
    std::vector<bool> seen(lp_.size(), false);
    std::vector<Node> stack{root};
    while (!stack.empty()) {
      Node n = stack.back();
      stack.pop_back();
      if (seen[n.idx]) continue;
      seen[n.idx] = true;
      const IR& ir = lp_.get(n);
      if (ir.kind() == IRKind::Select || ir.kind() == IRKind::HStack || ir.kind() == IRKind::GroupBy) targets.push_back(n);
      for (Node in : ir.inputs) stack.push_back(in);
    }
    for (Node n : targets) process(n);
  }

 private:
  // Puts the temporaries in a with_columns over `input`, hoisting what they repeat among
  // themselves further down; returns the node that holds them all.
  Node temporaries(Node input, std::vector<ExprIR> temps) {
    const Schema& in = *lp_.get(input).schema;
    if (auto again = finder_.find(temps, Context::HStack, in)) {
      input = temporaries(input, std::move(again->temps));
      temps = std::move(again->exprs);
    }
    SchemaRef schema = with_columns_schema(*lp_.get(input).schema, temps, ea_);
    return lp_.add(IR(plan::HStackNode{std::move(temps)}, {input}, std::move(schema)));
  }

  void process(Node n) {
    const IR& ir = lp_.get(n);
    const Node input = ir.inputs[0];
    const Context ctx = ir.kind() == IRKind::Select ? Context::Select
                        : ir.kind() == IRKind::HStack ? Context::HStack
                                                    : Context::GroupBy;
    const std::vector<ExprIR>& exprs = ctx == Context::Select    ? ir.as<plan::SelectNode>().exprs
                                       : ctx == Context::HStack ? ir.as<plan::HStackNode>().exprs
                                                                : ir.as<plan::GroupByNode>().aggs;
    auto found = finder_.find(exprs, ctx, *lp_.get(input).schema);
    if (!found) return;
    Node temps = temporaries(input, std::move(found->temps));
    IR updated = lp_.get(n);
    if (ctx != Context::HStack) {
      updated.inputs = {temps};
      if (ctx == Context::Select) updated.as_mut<plan::SelectNode>().exprs = std::move(found->exprs);
      else updated.as_mut<plan::GroupByNode>().aggs = std::move(found->exprs);
      lp_.replace(n, std::move(updated));
      return;
    }
    // with_columns keeps its input's columns: compute over the temporaries, then drop them.
    SchemaRef upper_schema = with_columns_schema(*lp_.get(temps).schema, found->exprs, ea_);
    Node computed = lp_.add(IR(plan::HStackNode{std::move(found->exprs)}, {temps}, std::move(upper_schema)));
    lp_.replace(n, plan::make_simple_projection(computed, updated.schema));
  }

  plan::IRArena& lp_;
  plan::ExprArena& ea_;
  plan::CanonicalExprMap map_;
  SubexprFinder finder_;
};

}  // namespace

Node comm_subexpr_elim(Node root, plan::IRArena& lp, plan::ExprArena& ea, const CseOptions& options) {
  SubexprElimination(lp, ea, options).run(root);
  return root;
}

}  // namespace frazil::optimizer::cse
