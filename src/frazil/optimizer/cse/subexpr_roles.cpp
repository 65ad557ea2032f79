#include "frazil/optimizer/cse/subexpr_roles.hpp"

namespace frazil::optimizer::cse {

using functions::InputRole;
using functions::Shape;
using plan::AExpr;
using plan::AExprKind;

Role classify(const AExpr& e, bool in_group_by, const plan::CanonicalExprMap::Hooks& hooks) {
  bool nondeterministic = hooks.nondeterministic ? hooks.nondeterministic(e) : plan::is_nondeterministic_top_level(e);
  if (nondeterministic) return Role::Refuse;
  switch (e.kind) {
    case AExprKind::Literal: {
      if (e.literal().is_series()) {
        // Long or nested series cost too much to hash and compare.
        bool cheap = e.literal().series->length() < kCheapSeriesLimit && !e.literal().series->dtype().is_nested();
        return cheap ? Role::Member : Role::Refuse;
      }
      // A null literal takes its type from where it stands (when/then branches cast it):
      // two nulls are not interchangeable. Nested scalars are not compared cheaply.
      if (e.literal().scalar.is_null() || e.literal().scalar.dtype().is_nested()) return Role::Refuse;
      return Role::Member;
    }
    case AExprKind::Column: return Role::Member;
    // len() counts the group's rows in an aggregation.
    case AExprKind::Len: return in_group_by ? Role::Refuse : Role::Member;
    // A window evaluates its inputs per partition: they are not the frame's columns. The
    // whole window is one frame-height column of a select, but inside an aggregation it
    // would run per group.
    case AExprKind::Window: return in_group_by ? Role::RefuseSkip : Role::Candidate;
    // Hoisting a lone cast saves little; in an aggregation it stays with its parent.
    case AExprKind::Cast: return in_group_by ? Role::Member : Role::Candidate;
    case AExprKind::Agg:
    case AExprKind::Sort:
    case AExprKind::SortBy:
    case AExprKind::Filter: return in_group_by ? Role::Refuse : Role::Candidate;
    case AExprKind::Function:
      if (!e.spec().is_elementwise()) return in_group_by ? Role::Refuse : Role::Candidate;
      return Role::Candidate;
    case AExprKind::BinaryExpr:
    case AExprKind::Ternary: return Role::Candidate;
  }
  return Role::Refuse;
}

bool input_is_elementwise(const AExpr& e, size_t i) {
  switch (e.kind) {
    case AExprKind::Column:
    case AExprKind::Literal:
    case AExprKind::BinaryExpr:
    case AExprKind::Cast:
    case AExprKind::Ternary: return true;
    case AExprKind::Function:
      return e.spec().is_elementwise() && e.spec().role(i) == InputRole::Row;
    default: return false;
  }
}

}  // namespace frazil::optimizer::cse
