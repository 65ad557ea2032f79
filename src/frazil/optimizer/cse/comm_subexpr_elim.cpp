#include "frazil/optimizer/cse/comm_subexpr_elim.hpp"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

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

// Finds and rewrites the repeated subexpressions of one node's expression list. Per-node
// facts (validity, height, role) are memoized by node index, stamped per list.
class SubexprFinder {
 public:
  SubexprFinder(plan::ExprArena& ea, plan::CanonicalExprMap& map) : ea_(ea), map_(map) {}

  std::optional<Found> find(const std::vector<ExprIR>& exprs, Context ctx, const Schema& input_schema) {
    ++stamp_;
    group_by_ = ctx == Context::GroupBy;
    if (memo_.size() < ea_.size()) memo_.resize(ea_.size());
    counts_.clear();
    first_.clear();
    replaced_.clear();
    order_.clear();

    // A scalar may be hoisted only where every output is broadcast to the frame height.
    scalar_ok_ = ctx == Context::HStack;
    if (ctx == Context::Select) {
      bool any_frame = false, all_fit = true;
      for (const auto& e : exprs) {
        Height h = height(e.node());
        any_frame |= h == Height::Frame;
        all_fit &= h != Height::Other;
      }
      scalar_ok_ = any_frame && all_fit;
    }

    bool repeated = false;
    for (const auto& e : exprs) repeated |= analyze(e.node(), true, false).repeated;
    if (!repeated) return std::nullopt;

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
      out.temps.emplace_back(first_[id], plan::OutputName{plan::OutputNameKind::Alias, name});
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
  struct Memo {
    uint32_t stamp = 0;
    bool height_done = false;
    Height height = Height::Other;
    bool valid = false;
    Role role = Role::Refuse;
  };
  struct Visit {
    bool valid;
    bool repeated;  // some subexpression here was counted a second time
  };

  Memo& memo(Node n) {
    Memo& m = memo_[n.idx];
    if (m.stamp != stamp_) m = Memo{stamp_};
    return m;
  }

  Height height(Node n) {
    Memo& m = memo(n);
    if (m.height_done) return m.height;
    const AExpr& e = ea_.get(n);
    std::vector<Height> in;
    in.reserve(e.inputs.size());
    for (Node c : e.inputs) in.push_back(height(c));
    Memo& again = memo(n);
    again.height = node_height(e, in);
    again.height_done = true;
    return again.height;
  }

  bool accepted(Node n, const Memo& m, bool path_elementwise, bool in_window) const {
    if (!m.valid || m.role != Role::Candidate || in_window) return false;
    if (group_by_) return m.height == Height::Frame;
    return m.height == Height::Frame || (m.height == Height::Scalar && scalar_ok_ && path_elementwise);
  }

  Visit analyze(Node n, bool path_elementwise, bool in_window) {
    const AExpr& e = ea_.get(n);
    Role role = classify(e, group_by_, map_.hooks());
    bool valid = role != Role::Refuse && role != Role::RefuseSkip;
    bool repeated = false;
    if (role != Role::RefuseSkip) {
      bool child_window = in_window || e.kind == plan::AExprKind::Window;
      for (size_t i = 0; i < e.inputs.size(); ++i) {
        Visit v = analyze(e.inputs[i], path_elementwise && input_is_elementwise(e, i), child_window);
        valid &= v.valid;
        repeated |= v.repeated;
      }
    }
    height(n);
    Memo& m = memo(n);
    m.valid = valid;
    m.role = role;
    if (accepted(n, m, path_elementwise, in_window)) {
      uint32_t id = map_.resolve(n, ea_).value;
      auto [it, fresh] = counts_.emplace(id, 0);
      if (fresh) first_[id] = n;
      repeated |= ++it->second == 2;
    }
    return {valid, repeated};
  }

  Node rewrite(Node n, bool path_elementwise, bool in_window) {
    const Memo& m = memo(n);
    if (accepted(n, m, path_elementwise, in_window)) {
      uint32_t id = map_.resolve(n, ea_).value;
      if (counts_[id] > 1) {
        auto [it, fresh] = replaced_.emplace(id, Node());
        if (fresh) {
          it->second = ea_.add(AExpr::column(cse_column_name(CanonicalExprId{id})));
          order_.push_back(id);
        }
        return it->second;
      }
    }
    if (m.role == Role::RefuseSkip) return n;
    const AExpr& e = ea_.get(n);
    const bool child_window = in_window || e.kind == plan::AExprKind::Window;
    std::vector<Node> inputs = e.inputs;
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

  plan::ExprArena& ea_;
  plan::CanonicalExprMap& map_;
  std::vector<Memo> memo_;
  uint32_t stamp_ = 0;
  bool group_by_ = false;
  bool scalar_ok_ = false;
  std::unordered_map<uint32_t, uint32_t> counts_;
  std::unordered_map<uint32_t, Node> first_;
  std::unordered_map<uint32_t, Node> replaced_;
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
      if (ir.kind == IRKind::Select || ir.kind == IRKind::HStack || ir.kind == IRKind::GroupBy) targets.push_back(n);
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
    IR h;
    h.kind = IRKind::HStack;
    h.inputs = {input};
    h.schema = with_columns_schema(*lp_.get(input).schema, temps, ea_);
    h.exprs = std::move(temps);
    return lp_.add(std::move(h));
  }

  void process(Node n) {
    const IR& ir = lp_.get(n);
    const Node input = ir.inputs[0];
    const Context ctx = ir.kind == IRKind::Select ? Context::Select
                        : ir.kind == IRKind::HStack ? Context::HStack
                                                    : Context::GroupBy;
    auto found = finder_.find(ir.exprs, ctx, *lp_.get(input).schema);
    if (!found) return;
    Node temps = temporaries(input, std::move(found->temps));
    IR updated = lp_.get(n);
    if (ctx != Context::HStack) {
      updated.inputs = {temps};
      updated.exprs = std::move(found->exprs);
      lp_.replace(n, std::move(updated));
      return;
    }
    // with_columns keeps its input's columns: compute over the temporaries, then drop them.
    IR upper;
    upper.kind = IRKind::HStack;
    upper.inputs = {temps};
    upper.schema = with_columns_schema(*lp_.get(temps).schema, found->exprs, ea_);
    upper.exprs = std::move(found->exprs);
    Node computed = lp_.add(std::move(upper));
    IR project;
    project.kind = IRKind::SimpleProjection;
    project.inputs = {computed};
    project.schema = updated.schema;
    lp_.replace(n, std::move(project));
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
