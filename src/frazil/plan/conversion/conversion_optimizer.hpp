// ConversionOptimizer: applies expression simplification and type coercion while the DSL
// is converted to IR. For each node, bottom-up: loop { simplify; coerce } until neither
// changes anything; the filter-predicate bit is passed down through AND/OR only.
// Without coercion (QueryOptFlags.type_coercion off) no cast is inserted: a node the
// coercion rule would rewrite is an error naming it and the cast it needs.
#pragma once

#include <memory>
#include <unordered_set>

#include "frazil/plan/optimization_rule.hpp"

namespace frazil::plan {

class ConversionOptimizer {
 public:
  ConversionOptimizer(bool simplify, bool coerce);
  ~ConversionOptimizer();

  // Optimizes the expression rooted at `root` in place; the root keeps its Node.
  void optimize(ExprArena& arena, Node root, const Schema& schema, bool is_filter_predicate,
                bool in_aggregation = false);

 private:
  void visit(ExprArena& arena, Node node, const Schema& schema, OptimizeExprContext ctx, int depth);
  bool apply(OptimizationRule& rule, ExprArena& arena, Node node, const Schema& schema,
             const OptimizeExprContext& ctx);
  void check_needs_no_coercion(ExprArena& arena, Node node, const Schema& schema, const OptimizeExprContext& ctx);

  std::unique_ptr<OptimizationRule> simplify_;
  std::unique_ptr<OptimizationRule> coerce_;  // always made: without coercion it finds the nodes that need it
  bool coerce_enabled_;
  std::unordered_set<uint32_t> done_;  // nodes already at their fixed point
  DtypeMemo dtypes_;                   // of the nodes below the one being rewritten
};

}  // namespace frazil::plan
