// The rule abstraction: a rule rewrites one node shape and never recurses; drivers walk
// the arenas and repeat until nothing changes. "No change" is an empty optional.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

struct OptimizeExprContext {
  // The expression is a filter's predicate, or reachable from it only through AND/OR:
  // it matters only through whether it is true, so null and false are the same value
  // and a column may be replaced by a broadcasting scalar. Nowhere else.
  bool is_filter_predicate = false;
  // Inside group_by().agg(): lengths are per group.
  bool in_aggregation = false;
  // Dtypes already derived in this pass over one expression (the driver forgets a node's
  // entry when it rewrites the node); null: derive afresh.
  DtypeMemo* dtypes = nullptr;
};

// Whether the inputs of `e` are filter predicates if `e` is one (only AND and OR pass it on).
bool passes_on_filter_predicate(const AExpr& e);

// A rewrite rule. Rules never recurse: a driver walks the plan (or expression) and calls
// the rule per node until nothing changes; "no change" is nullopt. Expression rules run in
// the conversion optimizer's fixed point; plan rules (optimize_plan) are for the plan-level
// rules of the seed's list, each driven the same way.
class OptimizationRule {
 public:
  virtual ~OptimizationRule() = default;
  virtual const char* name() const = 0;
  virtual std::optional<IR> optimize_plan(IRArena& lp_arena, ExprArena& expr_arena, Node node) {
    return std::nullopt;
  }
  virtual std::optional<AExpr> optimize_expr(ExprArena& arena, Node node, const Schema& schema,
                                             const OptimizeExprContext& ctx) {
    return std::nullopt;
  }
};

// Records rewrites when tracing is on (FRAZIL_TRACE=1, or enabled per query).
struct RewriteEvent {
  std::string rule;
  std::string before;
  std::string after;
};
// The trace event of one timed step (conversion, an optimizer pass):
// {"timing", step name, milliseconds as text}.
RewriteEvent timing_event(const char* step, double seconds);

class RewriteTrace {
 public:
  static bool enabled();
  static void set_enabled(bool on);
  static void record(RewriteEvent event);
  // How many events are recorded on this thread (not yet taken).
  static size_t recorded();
  // Takes (and clears) the events recorded so far on this thread.
  static std::vector<RewriteEvent> take();
};

}  // namespace frazil::plan
