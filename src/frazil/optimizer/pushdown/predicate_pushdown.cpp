#include "frazil/optimizer/pushdown/predicate_pushdown.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/optimizer/pushdown/expr_util.hpp"
#include "frazil/optimizer/pushdown/join_columns.hpp"
#include "frazil/optimizer/pushdown/null_rejecting.hpp"

namespace frazil::optimizer {

using compute::JoinType;
using plan::AExpr;
using plan::AExprKind;
using plan::IR;
using plan::IRKind;
using plan::MapKind;

namespace {

// Conjuncts in the order they apply: a lower filter's come first.
using Preds = std::vector<Node>;
using NameMap = std::unordered_map<std::string, std::string>;

// The partition keys shared by every window of a projection (in input names).
struct WindowKeys {
  bool any = false;
  std::unordered_set<std::string> keys;
};

// Whether a projection expression lets filters through: row-local everywhere except in
// windows over plain columns, which are evaluated per partition. Filtering on keys shared
// by every window removes whole partitions and leaves the others' results unchanged.
bool lets_filters_through(Node node, const ExprArena& arena, WindowKeys& w) {
  const AExpr& e = arena.get(node);
  switch (e.kind) {
    case AExprKind::Window: {
      if (plan::has_window(e.inputs[0], arena)) return false;
      // A rolling window's rows are its neighbours by index, not a partition.
      if (e.window().kind != dsl::WindowKind::Over || !e.window().keeps_rows()) return false;
      std::unordered_set<std::string> keys;
      // The order keys order a partition's rows: filtering on them would change its content.
      for (size_t i = 1; i + e.window().num_order_by < e.inputs.size(); ++i) {
        const AExpr& p = arena.get(e.inputs[i]);
        if (p.kind != AExprKind::Column) return false;
        keys.insert(p.name);
      }
      if (!w.any) {
        w.any = true;
        w.keys = std::move(keys);
      } else {
        std::erase_if(w.keys, [&](const std::string& k) { return !keys.count(k); });
      }
      return !w.keys.empty();
    }
    case AExprKind::Agg:
    case AExprKind::Len:
    case AExprKind::Filter:
    case AExprKind::Sort:
    case AExprKind::SortBy: return false;
    case AExprKind::Literal: return !e.literal().is_series();
    case AExprKind::Function: {
      const auto& spec = e.spec();
      if (!spec.is_elementwise()) return false;
      for (size_t i = 0; i < e.inputs.size(); ++i) {
        const bool ok = spec.role(i) == functions::InputRole::Set ? arena.get(e.inputs[i]).kind == AExprKind::Literal
                                                                   : lets_filters_through(e.inputs[i], arena, w);
        if (!ok) return false;
      }
      return true;
    }
    default: break;
  }
  for (Node in : e.inputs)
    if (!lets_filters_through(in, arena, w)) return false;
  return true;
}

class PredicatePushdown {
 public:
  PredicatePushdown(IRArena& lp, ExprArena& ea, Node root) : lp_(lp), ea_(ea), parents_(count_parents(root, lp)) {}

  Node push(Node n, Preds acc) {
    if (parents_[n.idx] <= 1) return visit(n, std::move(acc));
    // A shared node is optimized once, for all its consumers; each keeps its own filter.
    auto it = shared_.find(n.idx);
    Node done = it != shared_.end() ? it->second : shared_.emplace(n.idx, visit(n, {})).first->second;
    return wrap(done, acc);
  }

 private:
  // A filter with `preds` above `n` (or `n` itself when there is nothing to apply).
  Node wrap(Node n, const Preds& preds) {
    auto combined = combine_conjuncts(preds, ea_);
    if (!combined) return n;
    IR f;
    f.kind = IRKind::Filter;
    f.inputs = {n};
    f.schema = lp_.get(n).schema;
    f.predicate = predicate_ir(*combined, ea_);
    return lp_.add(std::move(f));
  }

  void add_pred(Preds& acc, Node p) const {
    for (Node q : acc)
      if (expr_equal(p, q, ea_)) return;
    acc.push_back(p);
  }

  // Nothing passes `n`: its inputs are optimized on their own and `acc` stays above.
  Node barrier(Node n, const Preds& acc) {
    const std::vector<Node> inputs = lp_.get(n).inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Node in = push(inputs[i], {});
      lp_.get_mut(n).inputs[i] = in;
    }
    return wrap(n, acc);
  }

  // Pushes `down` into input `i` of `n`, applies `local` above `n`.
  Node through(Node n, size_t i, Preds down, const Preds& local) {
    Node in = push(lp_.get(n).inputs[i], std::move(down));
    lp_.get_mut(n).inputs[i] = in;
    return wrap(n, local);
  }

  // The predicate reads a float (or nested) column of `schema` and could tell -0.0 from
  // 0.0: it may disagree between rows that group together.
  bool sign_sensitive(Node p, const Schema& schema) const {
    for (const auto& c : columns_of(p, ea_)) {
      const DataType& t = schema.dtype_of(c);
      if ((t.is_float() || t.is_nested()) && !is_zero_sign_insensitive(p, ea_)) return true;
    }
    return false;
  }

  Node visit(Node n, Preds acc) {
    switch (lp_.get(n).kind) {
      case IRKind::Filter: return filter(n, std::move(acc));
      case IRKind::DataFrameScan:
      case IRKind::Scan: return scan(n, std::move(acc));
      case IRKind::Select:
      case IRKind::HStack: return projection(n, std::move(acc));
      case IRKind::SimpleProjection: return through(n, 0, std::move(acc), {});
      case IRKind::MapFunction: return map_function(n, std::move(acc));
      case IRKind::Sort: return sort(n, std::move(acc));
      case IRKind::Distinct: return distinct(n, std::move(acc));
      case IRKind::GroupBy: return group_by(n, std::move(acc));
      case IRKind::Join: return join(n, std::move(acc));
      case IRKind::Union: return union_(n, std::move(acc));
      // Slices, caches: the rows they see decide what they give.
      case IRKind::Slice:
      case IRKind::Cache: return barrier(n, acc);
      case IRKind::Invalid: break;
    }
    throw InternalError("predicate pushdown reached an invalid plan node");
  }

  Node filter(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    Preds conj;
    split_conjuncts(ir.predicate->node(), ea_, *schema, conj);
    for (Node c : conj)
      // `x == x.min()` depends on which rows are present: it neither moves nor lets others
      // move below it.
      if (!is_row_local(c, ea_)) return barrier(n, acc);
    Preds down, local;
    for (Node c : conj) add_pred(down, c);
    for (Node p : acc) {
      if (is_fallible(p, ea_, *schema)) local.push_back(p);
      else add_pred(down, p);
    }
    Node in = push(ir.inputs[0], std::move(down));
    return wrap(in, local);
  }

  Node scan(Node n, Preds acc) {
    if (acc.empty()) return n;
    const IR& ir = lp_.get(n);
    // A file scan's row limit counts rows that passed its predicate: a filter above the
    // limit is not the same as one below it.
    if (ir.kind == IRKind::Scan && ir.n_rows()) return wrap(n, acc);
    Preds all;
    if (ir.predicate) split_conjuncts(ir.predicate->node(), ea_, *ir.source_schema(), all);
    for (Node p : acc) add_pred(all, p);
    lp_.get_mut(n).predicate = predicate_ir(*combine_conjuncts(all, ea_), ea_);
    return n;
  }

  Node projection(Node n, Preds acc) {
    if (acc.empty()) return through(n, 0, {}, {});
    const IR& ir = lp_.get(n);
    const bool is_select = ir.kind == IRKind::Select;
    // A select of scalars has one row whatever its input has.
    if (is_select) {
      bool all_scalar = true;
      for (const auto& e : ir.exprs) all_scalar &= plan::is_scalar_ae(e.node(), ea_);
      if (all_scalar) return barrier(n, acc);
    }
    NameMap renamed;  // output name -> input column, for plain column projections
    std::unordered_set<std::string> computed;
    WindowKeys windows;
    for (const auto& e : ir.exprs) {
      const AExpr& a = ea_.get(e.node());
      if (a.kind == AExprKind::Column) {
        renamed[e.output_name()] = a.name;
        continue;
      }
      computed.insert(e.output_name());
      if (!lets_filters_through(e.node(), ea_, windows)) return barrier(n, acc);
    }
    Preds down, local;
    for (Node p : acc) {
      bool ok = true;
      NameMap map;
      for (const auto& c : columns_of(p, ea_)) {
        if (computed.count(c)) {
          ok = false;
          break;
        }
        auto it = renamed.find(c);
        const std::string& input = it == renamed.end() ? c : it->second;
        if (windows.any && !windows.keys.count(input)) {
          ok = false;
          break;
        }
        map[c] = input;
      }
      if (ok) down.push_back(rename_columns(p, ea_, map));
      else local.push_back(p);
    }
    return through(n, 0, std::move(down), local);
  }

  Node map_function(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    if (ir.map == MapKind::Explode) return explode(n, std::move(acc));
    if (ir.map != MapKind::Rename) return barrier(n, acc);  // a row index numbers the rows it sees
    NameMap back;  // new name -> old name
    for (size_t i = 0; i < ir.names.size(); ++i) back[ir.names2()[i]] = ir.names[i];
    Preds down;
    for (Node p : acc) {
      NameMap map;
      for (const auto& c : columns_of(p, ea_)) {
        auto it = back.find(c);
        map[c] = it == back.end() ? c : it->second;
      }
      down.push_back(rename_columns(p, ea_, map));
    }
    return through(n, 0, std::move(down), {});
  }

  // An exploded row repeats its input row's other columns: a predicate on those alone
  // keeps or drops all the rows of one input row together, so it may run first. One on an
  // exploded column sees list elements only above the explode; a fallible one stays too
  // (an input row that explodes into no rows must not raise).
  Node explode(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const std::unordered_set<std::string> exploded(ir.names.begin(), ir.names.end());
    const SchemaRef schema = ir.schema;
    Preds down, local;
    for (Node p : acc) {
      bool ok = !is_fallible(p, ea_, *schema);
      for (const auto& c : columns_of(p, ea_)) ok = ok && !exploded.count(c);
      (ok ? down : local).push_back(p);
    }
    return through(n, 0, std::move(down), local);
  }

  Node sort(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    if (ir.sort_slice()) return barrier(n, acc);  // top-k: which rows survive depends on the others
    for (const auto& k : ir.keys)
      if (!is_row_local(k.node(), ea_)) return barrier(n, acc);
    return through(n, 0, std::move(acc), {});
  }

  // unique() keeps one row (or none) per distinct subset value: a predicate on the subset
  // columns takes or leaves whole groups, so it may run first.
  Node distinct(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    std::unordered_set<std::string> subset(ir.names.begin(), ir.names.end());
    if (subset.empty())
      for (const auto& f : schema->fields()) subset.insert(f.name);
    Preds down, local;
    for (Node p : acc) {
      bool ok = !is_fallible(p, ea_, *schema) && !sign_sensitive(p, *schema);
      for (const auto& c : columns_of(p, ea_)) ok = ok && subset.count(c);
      (ok ? down : local).push_back(p);
    }
    return through(n, 0, std::move(down), local);
  }

  // A predicate on plain key columns takes or leaves whole groups.
  Node group_by(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    NameMap keys;  // output name -> input column
    for (const auto& k : ir.keys) {
      if (!is_row_local(k.node(), ea_)) return barrier(n, acc);
      const AExpr& a = ea_.get(k.node());
      if (a.kind == AExprKind::Column) keys[k.output_name()] = a.name;
    }
    // Aggregations run per group, so the other groups' results stay; a window inside one
    // would see the whole frame.
    for (const auto& agg : ir.exprs)
      if (plan::has_window(agg.node(), ea_)) return barrier(n, acc);
    Preds down, local;
    for (Node p : acc) {
      bool ok = !is_fallible(p, ea_, *schema) && !sign_sensitive(p, *schema);
      NameMap map;
      for (const auto& c : columns_of(p, ea_)) {
        auto it = keys.find(c);
        if (it == keys.end()) ok = false;
        else map[c] = it->second;
      }
      if (ok) down.push_back(rename_columns(p, ea_, map));
      else local.push_back(p);
    }
    return through(n, 0, std::move(down), local);
  }

  Node join(Node n, Preds acc) {
    if (acc.empty()) return barrier(n, acc);
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    for (const auto* k : ir.all_exprs())
      if (!is_row_local(k->node(), ea_)) return barrier(n, acc);
    JoinType how = ir.join().how;
    if (how == JoinType::Full) return barrier(n, acc);
    const auto columns =
        join_columns(ir, *lp_.get(ir.inputs[0]).schema, *lp_.get(ir.inputs[1]).schema, ea_);
    std::unordered_map<std::string, const JoinColumn*> origin;
    for (const auto& c : columns) origin[c.output] = &c;
    auto from = [&](JoinSide side) {
      return [&, side](const std::string& c) { return origin.at(c)->side == side; };
    };

    // A left join whose padding rows (null right columns) a predicate rejects gives the
    // same rows, in the same order, as an inner join.
    if (how == JoinType::Left) {
      for (Node p : acc)
        if (rejects_nulls(p, ea_, from(JoinSide::Right))) {
          lp_.get_mut(n).join_mut().how = how = JoinType::Inner;
          break;
        }
    }

    Preds left, right, local;
    for (Node p : acc) {
      bool uses_left = false, uses_right = false, uses_both = false;
      NameMap map;
      for (const auto& c : columns_of(p, ea_)) {
        const JoinColumn& jc = *origin.at(c);
        uses_left |= jc.side == JoinSide::Left;
        uses_right |= jc.side == JoinSide::Right;
        uses_both |= jc.side == JoinSide::Both;
        map[c] = jc.input;
      }
      // Joins drop and repeat rows: a predicate that may fail stays where it was.
      if (uses_both || (uses_left && uses_right) || is_fallible(p, ea_, *schema)) {
        local.push_back(p);
        continue;
      }
      Node moved = rename_columns(p, ea_, map);
      if (!uses_right && !uses_left) {
        // A constant predicate empties or keeps everything: the preserved side decides.
        (how == JoinType::Right ? right : left).push_back(moved);
      } else if (uses_left) {
        if (how == JoinType::Right) {
          // Filtering the left input turns some matches into null padding; the copy above
          // removes those rows again, which only a null-rejecting predicate does.
          local.push_back(p);
          if (rejects_nulls(p, ea_, from(JoinSide::Left))) left.push_back(moved);
        } else {
          left.push_back(moved);
        }
      } else if (how == JoinType::Inner || how == JoinType::Cross || how == JoinType::Right) {
        right.push_back(moved);
      } else {
        local.push_back(p);  // right columns of a (still) left join: nulls would change
      }
    }
    const Node l = lp_.get(n).inputs[0], r = lp_.get(n).inputs[1];
    Node new_l = push(l, std::move(left));
    Node new_r = push(r, std::move(right));
    lp_.get_mut(n).inputs = {new_l, new_r};
    return wrap(n, local);
  }

  Node union_(Node n, const Preds& acc) {
    const std::vector<Node> inputs = lp_.get(n).inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Preds arm;
      // Each arm gets its own copy: later passes may rewrite an arm's expressions in place.
      for (Node p : acc) arm.push_back(i == 0 ? p : deep_copy(p, ea_));
      Node in = push(inputs[i], std::move(arm));
      lp_.get_mut(n).inputs[i] = in;
    }
    return n;
  }

  IRArena& lp_;
  ExprArena& ea_;
  std::vector<uint32_t> parents_;
  std::unordered_map<uint32_t, Node> shared_;
};

}  // namespace

Node predicate_pushdown(Node root, IRArena& lp_arena, ExprArena& expr_arena) {
  PredicatePushdown pd(lp_arena, expr_arena, root);
  return pd.push(root, {});
}

}  // namespace frazil::optimizer
