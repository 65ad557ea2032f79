#include "frazil/optimizer/filter_constraint.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_set>
#include <variant>
#include <vector>

#include "frazil/core/scalar.hpp"
#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/optimization_rule.hpp"
#include "frazil/plan/plan_walk.hpp"

namespace frazil::optimizer {

using dsl::Operator;
using plan::AExpr;
using plan::AExprKind;
using plan::ExprArena;
using plan::IR;
using plan::IRKind;
using plan::Node;

namespace {

// A non-null numeric value, compared only with values of the same kind (one dtype).
using Value = std::variant<int64_t, uint64_t, double>;

// -1, 0, 1; floats in frazil's total order: NaN above everything and equal to NaN, -0.0 == 0.0.
int compare(const Value& a, const Value& b) {
  if (const double* x = std::get_if<double>(&a)) {
    const double y = std::get<double>(b);
    const bool nx = *x != *x, ny = y != y;
    if (nx || ny) return nx == ny ? 0 : nx ? 1 : -1;
    return *x < y ? -1 : *x > y ? 1 : 0;
  }
  return a < b ? -1 : b < a ? 1 : 0;
}

std::optional<Value> value_of(const Scalar& s) {
  if (s.is_null()) return std::nullopt;
  const DataType& t = s.dtype();
  if (t.is_128_bit_integer()) return std::nullopt;  // (no 128-bit Value: left to the filter)
  if (t.is_signed_integer()) return Value(s.as_int64());
  if (t.is_unsigned_integer()) return Value(s.as_uint64());
  if (t.is_float()) return Value(s.as_double());
  return std::nullopt;
}

struct Bound {
  Value value;
  bool inclusive;
  Node literal;  // the literal node it came from (of the column's dtype)
};

struct ColumnConstraints {
  std::string name;
  Node column;  // a column node reading it
  std::optional<Bound> lower, upper;
  std::vector<Bound> excluded;                // != value
  std::optional<std::vector<Value>> allowed;  // the intersection of is_in sets (never emitted)
  bool unsat = false;

  void check() {
    if (unsat || !lower || !upper) return;
    const int c = compare(lower->value, upper->value);
    if (c > 0 || (c == 0 && !(lower->inclusive && upper->inclusive))) unsat = true;
  }
  void add_lower(Bound b) {
    if (!lower || compare(b.value, lower->value) > 0) lower = b;
    else if (compare(b.value, lower->value) == 0 && !b.inclusive) lower->inclusive = false;
    check();
  }
  void add_upper(Bound b) {
    if (!upper || compare(b.value, upper->value) < 0) upper = b;
    else if (compare(b.value, upper->value) == 0 && !b.inclusive) upper->inclusive = false;
    check();
  }
  bool in_range(const Value& v) const {
    if (lower) {
      const int c = compare(v, lower->value);
      if (c < 0 || (c == 0 && !lower->inclusive)) return false;
    }
    if (upper) {
      const int c = compare(v, upper->value);
      if (c > 0 || (c == 0 && !upper->inclusive)) return false;
    }
    return true;
  }
  // != values against the final bounds: outside the range they say nothing, on an
  // inclusive end they make it exclusive, inside they stay.
  void resolve() {
    std::vector<Bound> keep;
    for (const Bound& x : excluded) {
      if (unsat) break;
      if (lower && compare(x.value, lower->value) == 0) {
        lower->inclusive = false;
      } else if (upper && compare(x.value, upper->value) == 0) {
        upper->inclusive = false;
      } else if (in_range(x.value) &&
                 std::none_of(keep.begin(), keep.end(), [&](const Bound& k) { return compare(k.value, x.value) == 0; })) {
        keep.push_back(x);
      }
      check();
    }
    excluded = std::move(keep);
    if (!unsat && allowed) {
      bool any = false;
      for (const Value& v : *allowed)
        any = any || (in_range(v) && std::none_of(excluded.begin(), excluded.end(), [&](const Bound& k) {
                        return compare(k.value, v) == 0;
                      }));
      unsat = !any;
    }
  }
  bool fixed() const {
    return lower && upper && lower->inclusive && upper->inclusive && compare(lower->value, upper->value) == 0;
  }
};

// The conjuncts of a predicate, left to right, each once. A predicate is Boolean, and so are
// the operands of a Boolean AND: no dtype is derived (plan::split_conjuncts asks the dtype
// of each AND's operands, which on a 4,000-term chain cost more than the rule itself).
std::vector<Node> conjuncts(Node root, const ExprArena& ea) {
  std::vector<Node> out, stack{root};
  std::unordered_set<uint32_t> seen{root.idx};
  while (!stack.empty()) {
    const Node n = stack.back();
    stack.pop_back();
    const AExpr& e = ea.get(n);
    if (e.kind == AExprKind::BinaryExpr && e.op == Operator::And) {
      for (int i = 1; i >= 0; --i)
        if (seen.insert(e.inputs[i].idx).second) stack.push_back(e.inputs[i]);
      continue;
    }
    out.push_back(n);
  }
  return out;
}

class MergeConstraints {
 public:
  MergeConstraints(ExprArena& ea, const Schema& schema) : ea_(ea), schema_(schema) {}

  // The tighter predicate, or nullopt when nothing merges.
  std::optional<Node> rewrite(Node predicate) {
    const std::vector<Node> conj = conjuncts(predicate, ea_);
    std::vector<Node> opaque;
    size_t bound_conjuncts = 0;
    bool unsat = false;
    for (Node c : conj) {
      const int kind = classify(c);
      if (kind == 0) opaque.push_back(c);
      else ++bound_conjuncts;
      for (auto& cc : columns_) unsat = unsat || cc.unsat;
    }
    for (auto& cc : columns_) {
      if (!unsat) cc.resolve();
      unsat = unsat || cc.unsat;
    }
    if (unsat) {
      // The other conjuncts are no longer evaluated: only when none of them may raise.
      for (Node c : conj)
        if (plan::is_fallible(c, ea_, schema_)) return std::nullopt;
      return ea_.add(AExpr::scalar(Scalar::boolean(false)));
    }
    std::vector<Node> comparisons;
    auto compare_node = [&](const ColumnConstraints& cc, Operator op, Node literal) {
      comparisons.push_back(ea_.add(AExpr::binary(cc.column, op, literal)));
    };
    size_t emitted = 0;
    for (const auto& cc : columns_) {
      if (cc.fixed()) {
        ++emitted;
      } else {
        emitted += (cc.lower ? 1 : 0) + (cc.upper ? 1 : 0) + cc.excluded.size();
      }
    }
    if (emitted >= bound_conjuncts) return std::nullopt;
    for (const auto& cc : columns_) {
      if (cc.fixed()) {
        compare_node(cc, Operator::Eq, cc.lower->literal);
        continue;
      }
      if (cc.lower) compare_node(cc, cc.lower->inclusive ? Operator::GtEq : Operator::Gt, cc.lower->literal);
      if (cc.upper) compare_node(cc, cc.upper->inclusive ? Operator::LtEq : Operator::Lt, cc.upper->literal);
      for (const Bound& x : cc.excluded) compare_node(cc, Operator::NotEq, x.literal);
    }
    opaque.insert(opaque.end(), comparisons.begin(), comparisons.end());
    return plan::combine_conjuncts(opaque, ea_);
  }

 private:
  // The column's constraints when `n` is a numeric column (nullptr otherwise).
  ColumnConstraints* column(Node n, const DataType** dtype) {
    const AExpr& e = ea_.get(n);
    if (!e.is_column() || !schema_.contains(e.name)) return nullptr;
    const DataType& t = schema_.dtype_of(e.name);
    if (!t.is_integer() && !t.is_float()) return nullptr;
    *dtype = &t;
    for (auto& cc : columns_)
      if (cc.name == e.name) return &cc;
    columns_.push_back(ColumnConstraints{e.name, n, {}, {}, {}, {}, false});
    return &columns_.back();
  }

  // A non-null scalar literal of dtype `t`.
  std::optional<Value> literal(Node n, const DataType& t) {
    const AExpr& e = ea_.get(n);
    if (!e.is_literal() || e.literal().is_series()) return std::nullopt;
    const Scalar s = e.literal().materialized_scalar();
    if (!(s.dtype() == t)) return std::nullopt;
    return value_of(s);
  }

  // 1 when the conjunct became a constraint (dropped from the kept conjuncts), 0 when kept.
  int classify(Node c) {
    const AExpr& e = ea_.get(c);
    if (e.kind == AExprKind::Function && e.is_function("is_in") && e.inputs.size() == 2) {
      const DataType* t = nullptr;
      const AExpr& set = ea_.get(e.inputs[1]);
      ColumnConstraints* cc = column(e.inputs[0], &t);
      if (!cc || !set.is_literal() || !set.literal().is_series()) return 0;
      const Array& values = *set.literal().series;
      if (!(values.dtype() == *t)) return 0;
      std::vector<Value> members;
      for (int64_t i = 0; i < values.length(); ++i) {
        auto v = value_of(array_get(values, i));
        if (!v) return 0;  // a null member: null rows may match, nothing to intersect
        members.push_back(*v);
      }
      if (cc->allowed) {
        std::vector<Value> both;
        for (const Value& v : members)
          if (std::any_of(cc->allowed->begin(), cc->allowed->end(), [&](const Value& w) { return compare(v, w) == 0; }))
            both.push_back(v);
        cc->allowed = std::move(both);
      } else {
        cc->allowed = std::move(members);
      }
      return 0;  // kept: the set is only used to find a contradiction
    }
    if (e.kind != AExprKind::BinaryExpr) return 0;
    Operator op = e.op;
    Node col = e.inputs[0], lit = e.inputs[1];
    const DataType* t = nullptr;
    if (!ea_.get(col).is_column()) {
      std::swap(col, lit);
      switch (op) {
        case Operator::Gt: op = Operator::Lt; break;
        case Operator::GtEq: op = Operator::LtEq; break;
        case Operator::Lt: op = Operator::Gt; break;
        case Operator::LtEq: op = Operator::GtEq; break;
        default: break;
      }
    }
    if (op != Operator::Gt && op != Operator::GtEq && op != Operator::Lt && op != Operator::LtEq &&
        op != Operator::Eq && op != Operator::NotEq)
      return 0;
    const AExpr& ce = ea_.get(col);
    if (!ce.is_column() || !schema_.contains(ce.name)) return 0;
    const DataType& dtype = schema_.dtype_of(ce.name);
    const std::optional<Value> v = literal(lit, dtype);
    if (!v) return 0;
    ColumnConstraints* cc = column(col, &t);
    if (!cc) return 0;
    const Bound b{*v, op == Operator::GtEq || op == Operator::LtEq || op == Operator::Eq, lit};
    switch (op) {
      case Operator::Gt:
      case Operator::GtEq: cc->add_lower(b); break;
      case Operator::Lt:
      case Operator::LtEq: cc->add_upper(b); break;
      case Operator::Eq:
        cc->add_lower(b);
        cc->add_upper(b);
        break;
      default: cc->excluded.push_back(b); break;
    }
    return 1;
  }

  ExprArena& ea_;
  const Schema& schema_;
  std::vector<ColumnConstraints> columns_;
};

}  // namespace

Node filter_constraint(Node root, plan::IRArena& lp, ExprArena& ea) {
  const bool trace = plan::RewriteTrace::enabled();
  plan::for_each_plan_node(root, lp, [&](Node n) {
    const IR& ir = lp.get(n);
    if (ir.kind() != IRKind::Filter && ir.kind() != IRKind::DataFrameScan && ir.kind() != IRKind::Scan) return;
    const plan::ExprIR* pred = plan::predicate_of(ir);
    if (!pred) return;
    MergeConstraints merge(ea, plan::predicate_schema(ir));
    const std::optional<Node> now = merge.rewrite(pred->node());
    if (!now) return;
    const plan::ExprIR before = *pred;
    const plan::ExprIR after = plan::predicate_ir(*now, ea);
    plan::set_predicate(lp.get_mut(n), after);
    if (trace) plan::RewriteTrace::record({"filter_constraint", plan::format_expr(before, ea), plan::format_expr(after, ea)});
  });
  return root;
}

}  // namespace frazil::optimizer
