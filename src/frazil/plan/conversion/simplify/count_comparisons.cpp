// Comparisons of a count with a small integer, as Polars simplifies them: a count is never
// negative, so `count op k` is a constant for k < 0 (and `>= 0`, `< 0`), and for k = 0 or
// 1 it only asks whether the count is zero: null_count() > 0 -> has_nulls(),
// len() == 0 -> is_empty(). The registry names a count's nonzero test
// (functions/count_tests.hpp); len() is an aggregation whose zero test is is_empty.
#include "frazil/dsl/operator_mirror.hpp"
#include "frazil/functions/count_tests.hpp"
#include "frazil/plan/conversion/simplify/rules.hpp"

namespace frazil::plan::simplify {

using dsl::Operator;

namespace {

// The integer value of a non-null integer literal (a cast of one is looked through).
std::optional<int64_t> integer_literal(const AExpr& e) {
  if (!e.is_literal() || e.literal().is_series()) return std::nullopt;
  const Scalar& s = e.literal().scalar;
  if (s.is_null() || !s.dtype().is_integer() || s.dtype().is_128_bit_integer()) return std::nullopt;
  if (s.dtype().is_unsigned_integer()) {
    const uint64_t v = s.as_uint64();
    return v > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(v);
  }
  return s.as_int64();
}

// The count node behind `node` (through integer casts, which keep its value): its test of
// "count > 0" is `nonzero` (or the negation of `zero` when only that exists).
struct CountTests {
  Node input;
  std::string nonzero;  // holds when the count is > 0
  std::string zero;     // holds when the count is 0
};

std::optional<CountTests> count_of(const ExprArena& arena, Node node) {
  const AExpr* e = &arena.get(node);
  while (e->kind == AExprKind::Cast && e->dtype().is_integer()) e = &arena.get(e->inputs[0]);
  if (e->kind == AExprKind::Agg && e->agg == compute::AggKind::Len && e->inputs.size() == 1)
    return CountTests{e->inputs[0], "", "is_empty"};
  if (e->kind == AExprKind::Function && e->function().spec && e->inputs.size() == 1) {
    const std::string_view test = functions::nonzero_test(e->spec());
    if (!test.empty()) return CountTests{e->inputs[0], std::string(test), ""};
  }
  return std::nullopt;
}

// What `count op k` is: 1 true, 0 false, +2 "count > 0", -2 "count == 0"; nullopt to keep.
std::optional<int> classify(Operator op, int64_t k) {
  switch (op) {
    case Operator::Gt:
      if (k < 0) return 1;
      if (k == 0) return 2;
      return std::nullopt;
    case Operator::GtEq:
      if (k <= 0) return 1;
      if (k == 1) return 2;
      return std::nullopt;
    case Operator::Lt:
      if (k <= 0) return 0;
      if (k == 1) return -2;
      return std::nullopt;
    case Operator::LtEq:
      if (k < 0) return 0;
      if (k == 0) return -2;
      return std::nullopt;
    case Operator::Eq:
      if (k < 0) return 0;
      if (k == 0) return -2;
      return std::nullopt;
    case Operator::NotEq:
      if (k < 0) return 1;
      if (k == 0) return 2;
      return std::nullopt;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<AExpr> simplify_count_comparisons(ExprArena& arena, Node node, const Schema&) {
  const AExpr e = arena.get(node);
  if (e.kind != AExprKind::BinaryExpr || e.inputs.size() != 2) return std::nullopt;
  std::optional<CountTests> count;
  std::optional<int64_t> k;
  Operator op = e.op;
  if ((count = count_of(arena, e.inputs[0])) && (k = integer_literal(arena.get(e.inputs[1])))) {
  } else if ((count = count_of(arena, e.inputs[1])) && (k = integer_literal(arena.get(e.inputs[0])))) {
    op = dsl::mirrored(op);
  } else {
    return std::nullopt;
  }
  const auto what = classify(op, *k);
  if (!what) return std::nullopt;
  if (*what == 0 || *what == 1) return AExpr::scalar(Scalar::boolean(*what == 1));
  const bool want_nonzero = *what == 2;
  const std::string& direct = want_nonzero ? count->nonzero : count->zero;
  if (!direct.empty()) return AExpr::function_call(direct, {count->input});
  const std::string& other = want_nonzero ? count->zero : count->nonzero;
  Node test = arena.add(AExpr::function_call(other, {count->input}));
  return AExpr::function_call("not", {test});
}

}  // namespace frazil::plan::simplify
