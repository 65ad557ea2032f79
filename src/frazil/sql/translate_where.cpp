// WHERE and HAVING: the conditions without subqueries become one filter; each condition
// with a subquery is applied after it, as a join where its form allows (EXISTS, IN, a
// comparison with a scalar subquery), as a filter over joined columns otherwise.
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

namespace {

bool has_sublink(const PgNode* node) {
  bool found = false;
  walk_nodes(node, [&](const PgNode* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) found = true;
    return !found;
  });
  return found;
}

}  // namespace

Relation Translator::filter_conjuncts(Relation rel, const std::vector<const PgNode*>& conjuncts, const Scope* outer,
                                     const char* clause, const GroupedExprs* grouped,
                                     const std::vector<SelectItem>* items) {
  if (conjuncts.empty()) return rel;
  Scope scope;
  scope.rel = &rel;
  scope.outer = outer;
  scope.grouped = grouped;
  scope.select_items = items;
  scope.clause = clause;
  std::optional<Expr> plain;
  std::vector<const PgNode*> with_subqueries;
  for (const PgNode* c : conjuncts) {
    if (has_sublink(c)) {
      with_subqueries.push_back(c);
      continue;
    }
    // COLUMNS(...) stands for each column it selects in turn; all must hold (as Polars'
    // filter over a multi-column expression).
    if (auto cols = columns_expansion(c, scope)) {
      for (const std::string& name : *cols) {
        Scope one = scope;
        one.columns_subst = &name;
        Expr e = expr(c, one);
        plain = plain ? (*plain & e) : e;
      }
      if (cols->empty()) plain = plain ? (*plain & dsl::lit(true)) : dsl::lit(true);
      continue;
    }
    Expr e = expr(c, scope);
    plain = plain ? (*plain & e) : e;
  }
  if (plain) rel.frame = rel.frame.filter(*plain);
  for (const PgNode* c : with_subqueries) {
    if (subquery_conjunct(c, scope, false)) continue;
    Expr e = expr(c, scope);
    rel.frame = rel.frame.filter(e);
  }
  return rel;
}

}  // namespace frazil::sql
