#include "frazil/optimizer/pushdown/predicate_pushdown.hpp"

#include <unordered_map>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/plan/canonical/canonical_expr_map.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/optimizer/pushdown/join_columns.hpp"
#include "frazil/optimizer/pushdown/null_rejecting.hpp"

namespace frazil::optimizer {

using plan::ExprArena;
using plan::IRArena;
using plan::Node;
using plan::split_conjuncts;
using plan::combine_conjuncts;
using plan::predicate_ir;
using plan::rename_columns;
using plan::deep_copy;
using plan::columns_of;
using plan::is_row_local;
using plan::is_fallible;
using plan::is_zero_sign_insensitive;
using plan::count_parents;
using plan::lets_filters_through;
using plan::WindowKeys;

using compute::JoinType;
using plan::AExpr;
using plan::AExprKind;
using plan::IR;
using plan::IRKind;

namespace {

// Conjuncts in the order they apply: a lower filter's come first.
using Preds = std::vector<Node>;
using NameMap = std::unordered_map<std::string, std::string>;

class PredicatePushdown {
 public:
  PredicatePushdown(IRArena& lp, ExprArena& ea, Node root) : lp_(lp), ea_(ea), parents_(count_parents(root, lp)) {}

  // Recursive over the plan's depth (a query runs on a large stack; core/stack.hpp).
  Node push(Node n, Preds acc) {
    check_stack("predicate pushdown");
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
    return lp_.add(plan::make_filter(n, predicate_ir(*combined, ea_), lp_.get(n).schema));
  }

  // Appends the predicates of `more` that `acc` lacks (structurally), in order. Canonical
  // ids in a hash set: a chain of n filters passes ever more predicates down, and comparing
  // them pairwise at every level made the pass cubic in the chain's length.
  void add_preds(Preds& acc, const Preds& more) {
    std::unordered_set<uint32_t> ids;
    for (Node q : acc) ids.insert(canon_.resolve(q, ea_).value);
    for (Node p : more)
      if (ids.insert(canon_.resolve(p, ea_).value).second) acc.push_back(p);
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
    switch (lp_.get(n).kind()) {
      case IRKind::Filter: return filter(n, std::move(acc));
      case IRKind::DataFrameScan:
      case IRKind::Scan: return scan(n, std::move(acc));
      case IRKind::Select:
      case IRKind::HStack: return projection(n, std::move(acc));
      case IRKind::SimpleProjection: return through(n, 0, std::move(acc), {});
      case IRKind::Rename: return rename(n, std::move(acc));
      case IRKind::Explode: return explode(n, std::move(acc));
      case IRKind::RowIndex: return barrier(n, acc);  // a row index numbers the rows it sees
      case IRKind::Sort: return sort(n, std::move(acc));
      case IRKind::Distinct: return distinct(n, std::move(acc));
      case IRKind::GroupBy: return group_by(n, std::move(acc));
      case IRKind::Join: return join(n, std::move(acc));
      case IRKind::Union: return union_(n, std::move(acc));
      case IRKind::AsofJoin: return asof_join(n, std::move(acc));
      case IRKind::MergeSorted: return merge_sorted(n, std::move(acc));
      case IRKind::InequalityJoin: return inequality_join(n, std::move(acc));
      // Slices, caches: the rows they see decide what they give.
      case IRKind::Slice:
      case IRKind::Cache: return barrier(n, acc);
      case IRKind::Invalid: break;
    }
    throw InternalError("predicate pushdown reached an invalid plan node");
  }

  // A chain of filters is walked in a loop, not one recursion per filter, and what it
  // carries down is kept in one list that each filter appends to: copying the carried
  // predicates (and asking each whether it may fail) at every filter made a chain of n
  // filters quadratic. A carried predicate is asked once, at the filter it first meets
  // (the filters of a chain share one schema).
  Node filter(Node n, Preds acc) {
    // Reverse of the order the predicates apply in (a lower filter's are appended); a
    // predicate carried twice (structurally) stays at its lowest place.
    std::vector<std::pair<Node, bool>> carried;  // (predicate, still carried)
    std::unordered_map<uint32_t, size_t> where;  // canonical id -> index in `carried`
    size_t checked = 0;                          // carried[0, checked) may not fail
    auto carry = [&](Node p) {
      auto [it, fresh] = where.try_emplace(canon_.resolve(p, ea_).value, carried.size());
      if (!fresh) {
        carried[it->second].second = false;
        it->second = carried.size();
      }
      carried.emplace_back(p, true);
    };
    auto in_order = [&] {
      Preds out;
      for (size_t i = carried.size(); i-- > 0;)
        if (carried[i].second) out.push_back(carried[i].first);
      return out;
    };
    for (size_t i = acc.size(); i-- > 0;) carry(acc[i]);
    std::vector<std::pair<Node, Preds>> above;  // per filter of the chain: (filter, kept above it)
    Node result;
    while (true) {
      const IR& ir = lp_.get(n);
      const SchemaRef schema = ir.schema;
      Preds conj;
      split_conjuncts(ir.as<plan::FilterNode>().predicate.node(), ea_, *schema, conj);
      // `x == x.min()` depends on which rows are present: it neither moves nor lets others
      // move below it.
      bool row_local = true;
      for (Node c : conj) row_local = row_local && is_row_local(c, ea_);
      if (!row_local) {
        result = barrier(n, in_order());
        break;
      }
      Preds local;
      for (size_t i = carried.size(); i-- > checked;)
        if (carried[i].second && is_fallible(carried[i].first, ea_, *schema)) {
          local.push_back(carried[i].first);
          carried[i].second = false;
        }
      checked = carried.size();
      above.emplace_back(n, std::move(local));
      for (size_t i = conj.size(); i-- > 0;) carry(conj[i]);
      const Node in = ir.inputs[0];
      if (lp_.get(in).kind() != IRKind::Filter || parents_[in.idx] > 1) {
        result = push(in, in_order());
        break;
      }
      n = in;
    }
    for (size_t i = above.size(); i-- > 0;) result = wrap(result, above[i].second);
    return result;
  }

  Node scan(Node n, Preds acc) {
    if (acc.empty()) return n;
    const IR& ir = lp_.get(n);
    // A file scan's row limit counts rows that passed its predicate: a filter above the
    // limit is not the same as one below it.
    if (ir.kind() == IRKind::Scan && ir.as<plan::ScanNode>().n_rows) return wrap(n, acc);
    Preds all;
    if (const plan::ExprIR* own = plan::predicate_of(ir)) split_conjuncts(own->node(), ea_, plan::predicate_schema(ir), all);
    add_preds(all, acc);
    plan::set_predicate(lp_.get_mut(n), predicate_ir(*combine_conjuncts(all, ea_), ea_));
    return n;
  }

  Node projection(Node n, Preds acc) {
    if (acc.empty()) return through(n, 0, {}, {});
    const IR& ir = lp_.get(n);
    const bool is_select = ir.kind() == IRKind::Select;
    const auto& exprs = is_select ? ir.as<plan::SelectNode>().exprs : ir.as<plan::HStackNode>().exprs;
    // A select of scalars has one row whatever its input has.
    if (is_select) {
      bool all_scalar = true;
      for (const auto& e : exprs) all_scalar &= plan::is_scalar_ae(e.node(), ea_);
      if (all_scalar) return barrier(n, acc);
    }
    NameMap renamed;  // output name -> input column, for plain column projections
    std::unordered_set<std::string> computed;
    WindowKeys windows;
    for (const auto& e : exprs) {
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

  Node rename(Node n, Preds acc) {
    const auto& r = lp_.get(n).as<plan::RenameNode>();
    NameMap back;  // new name -> old name
    for (size_t i = 0; i < r.existing.size(); ++i) back[r.new_names[i]] = r.existing[i];
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
    const auto& columns = ir.as<plan::ExplodeNode>().columns;
    const std::unordered_set<std::string> exploded(columns.begin(), columns.end());
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
    const auto& sort = ir.as<plan::SortNode>();
    if (sort.slice) return barrier(n, acc);  // top-k: which rows survive depends on the others
    for (const auto& k : sort.by)
      if (!is_row_local(k.node(), ea_)) return barrier(n, acc);
    return through(n, 0, std::move(acc), {});
  }

  // unique() keeps one row (or none) per distinct subset value: a predicate on the subset
  // columns takes or leaves whole groups, so it may run first.
  Node distinct(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    const auto& names = ir.as<plan::DistinctNode>().subset;
    std::unordered_set<std::string> subset(names.begin(), names.end());
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
    const auto& g = ir.as<plan::GroupByNode>();
    NameMap keys;  // output name -> input column
    for (const auto& k : g.keys) {
      if (!is_row_local(k.node(), ea_)) return barrier(n, acc);
      const AExpr& a = ea_.get(k.node());
      if (a.kind == AExprKind::Column) keys[k.output_name()] = a.name;
    }
    // Aggregations run per group, so the other groups' results stay; a window inside one
    // would see the whole frame.
    for (const auto& agg : g.aggs)
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
    JoinType how = ir.as<plan::JoinNode>().options.how;
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
          lp_.get_mut(n).as_mut<plan::JoinNode>().options.how = how = JoinType::Inner;
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

  // join_asof gives each left row its match whatever the other left rows are: a predicate
  // on left columns alone may run on the left input first; the right input keeps every row
  // (a filtered right side would give other matches).
  Node asof_join(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    const SchemaRef left_schema = lp_.get(ir.inputs[0]).schema;
    Preds down, local;
    for (Node p : acc) {
      bool ok = !is_fallible(p, ea_, *schema);
      for (const auto& c : columns_of(p, ea_)) ok = ok && left_schema->contains(c);
      (ok ? down : local).push_back(p);
    }
    const Node right = push(ir.inputs[1], {});
    lp_.get_mut(n).inputs[1] = right;
    return through(n, 0, std::move(down), local);
  }

  // join_where's inequality joins are inner: a predicate that cannot fail on one side's
  // columns alone filters that input first (right columns by their input names; the output
  // holds the left columns, then the right ones in input order).
  Node inequality_join(Node n, Preds acc) {
    const IR& ir = lp_.get(n);
    const SchemaRef schema = ir.schema;
    const Schema& ls = *lp_.get(ir.inputs[0]).schema;
    const Schema& rs = *lp_.get(ir.inputs[1]).schema;
    NameMap to_right;
    for (size_t i = 0; i < rs.size(); ++i) to_right[schema->field(ls.size() + i).name] = rs.field(i).name;
    Preds left, right, local;
    for (Node p : acc) {
      bool uses_left = false, uses_right = false;
      for (const auto& c : columns_of(p, ea_)) (to_right.count(c) ? uses_right : uses_left) = true;
      if ((uses_left && uses_right) || is_fallible(p, ea_, *schema)) local.push_back(p);
      else if (uses_right) right.push_back(rename_columns(p, ea_, to_right));
      else left.push_back(p);
    }
    const Node l = ir.inputs[0], r = ir.inputs[1];
    Node new_l = push(l, std::move(left));
    Node new_r = push(r, std::move(right));
    lp_.get_mut(n).inputs = {new_l, new_r};
    return wrap(n, local);
  }

  // A merge of two sorted inputs filtered is the merge of the filtered inputs (the order is
  // by key, then side): row-wise predicates that cannot fail go into both.
  Node merge_sorted(Node n, Preds acc) {
    const SchemaRef schema = lp_.get(n).schema;
    Preds down, local;
    for (Node p : acc) (is_row_local(p, ea_) && !is_fallible(p, ea_, *schema) ? down : local).push_back(p);
    const std::vector<Node> inputs = lp_.get(n).inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Preds arm;
      for (Node p : down) arm.push_back(i == 0 ? p : deep_copy(p, ea_));
      Node in = push(inputs[i], std::move(arm));
      lp_.get_mut(n).inputs[i] = in;
    }
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
  plan::CanonicalExprMap canon_;  // the pass appends to the expression arena, never edits it
  std::vector<uint32_t> parents_;
  std::unordered_map<uint32_t, Node> shared_;
};

}  // namespace

Node predicate_pushdown(Node root, IRArena& lp_arena, ExprArena& expr_arena) {
  PredicatePushdown pd(lp_arena, expr_arena, root);
  return pd.push(root, {});
}

}  // namespace frazil::optimizer
