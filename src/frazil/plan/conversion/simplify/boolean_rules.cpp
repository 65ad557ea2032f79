// AND and OR identities. The filter-predicate bit decides where null and false may be
// treated as the same value, and where a column may become a broadcast scalar.
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan::simplify {

using dsl::Operator;

namespace {

// Bitset positions for the three outcomes of comparing two values.
constexpr uint8_t kLt = 1, kEq = 2, kGt = 4;

// The outcomes a comparison is true in, as a set over {<, ==, >}; 0 for non-comparisons.
uint8_t comparison_cases(Operator op) {
  switch (op) {
    case Operator::Lt: return kLt;
    case Operator::LtEq: return kLt | kEq;
    case Operator::Gt: return kGt;
    case Operator::GtEq: return kGt | kEq;
    case Operator::Eq: return kEq;
    case Operator::NotEq: return kLt | kGt;
    default: return 0;
  }
}

// The same comparison with its operands swapped (x < y  ==  y > x).
uint8_t mirror(uint8_t cases) {
  return static_cast<uint8_t>((cases & kEq) | ((cases & kLt) ? kGt : 0) | ((cases & kGt) ? kLt : 0));
}

}  // namespace

bool comparisons_contradict(const AExpr& a, const AExpr& b, const ExprArena& arena) {
  if (a.kind != AExprKind::BinaryExpr || b.kind != AExprKind::BinaryExpr) return false;
  uint8_t ca = comparison_cases(a.op), cb = comparison_cases(b.op);
  if (!ca || !cb) return false;
  if (subtrees_equal(a.inputs[0], b.inputs[0], arena) && subtrees_equal(a.inputs[1], b.inputs[1], arena))
    return (ca & cb) == 0;
  if (subtrees_equal(a.inputs[0], b.inputs[1], arena) && subtrees_equal(a.inputs[1], b.inputs[0], arena))
    return (ca & mirror(cb)) == 0;
  return false;
}

bool is_self_negation(const AExpr& negated, Node other, const ExprArena& arena) {
  return negated.is_function("not") &&
         subtrees_equal(negated.inputs[0], other, arena);
}

namespace {

AExpr bool_literal(bool v) { return AExpr::scalar(Scalar::boolean(v)); }

}  // namespace

std::optional<AExpr> simplify_and_or(ExprArena& arena, Node node, const Schema& schema,
                                     const OptimizeExprContext& ctx) {
  const AExpr& e = arena.get(node);
  if (e.kind != AExprKind::BinaryExpr || (e.op != Operator::And && e.op != Operator::Or)) return std::nullopt;
  const Node l = e.inputs[0], r = e.inputs[1];
  // On integers & and | are bitwise: none of this applies.
  if (!dtype_of(l, arena, schema, ctx).is_boolean() || !dtype_of(r, arena, schema, ctx).is_boolean()) return std::nullopt;
  const AExpr& la = arena.get(l);
  const AExpr& ra = arena.get(r);
  const bool filter = ctx.is_filter_predicate;

  if (e.op == Operator::And) {
    // x AND true -> x: AND with true passes x's value and length through.
    if (ra.literal_bool() == true) return la;
    // true AND x -> x: only in a filter, as the expression's name would follow x.
    if (la.literal_bool() == true && filter) return ra;
    // x AND false -> false: only where the length does not matter.
    if (ra.literal_bool() == false && (filter || is_scalar_ae(l, arena))) return bool_literal(false);
    if (la.literal_bool() == false && (filter || is_scalar_ae(r, arena))) return bool_literal(false);
    // A AND NOT(A), contradicting comparisons: false, or null when A is null. Only in a
    // filter are null and false the same.
    if (filter && (is_self_negation(la, r, arena) || is_self_negation(ra, l, arena))) return bool_literal(false);
    if (filter && comparisons_contradict(la, ra, arena)) return bool_literal(false);
    return std::nullopt;
  }
  // OR: the duals where they hold. `A OR NOT(A)` is null, not true, when A is null (and a
  // filter drops that row), so it has no rule; nor do complementary comparisons.
  if (ra.literal_bool() == false) return la;
  if (la.literal_bool() == false && filter) return ra;
  if (ra.literal_bool() == true && (filter || is_scalar_ae(l, arena))) return bool_literal(true);
  if (la.literal_bool() == true && (filter || is_scalar_ae(r, arena))) return bool_literal(true);
  return std::nullopt;
}

bool subtrees_equal(Node a, Node b, const ExprArena& arena) {
  std::vector<std::pair<Node, Node>> stack{{a, b}};
  while (!stack.empty()) {
    auto [x, y] = stack.back();
    stack.pop_back();
    if (x == y) continue;
    const AExpr& ex = arena.get(x);
    const AExpr& ey = arena.get(y);
    if (!ex.equal_shallow(ey)) return false;
    for (size_t i = ex.inputs.size(); i-- > 0;) stack.emplace_back(ex.inputs[i], ey.inputs[i]);
  }
  return true;
}

DataType dtype_of(Node node, const ExprArena& arena, const Schema& schema, const OptimizeExprContext& ctx) {
  return ctx.dtypes ? node_dtype(node, arena, schema, *ctx.dtypes) : node_dtype(node, arena, schema);
}

}  // namespace frazil::plan::simplify
