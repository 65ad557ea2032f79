// FROM a, b, c WHERE ...: the comma-separated tables are joined along the WHERE clause's
// equalities between them, cheapest join first (greedy operator ordering over estimated
// row counts), so that no cross product is built where a key joins two tables. The
// conditions on one table filter it first; the others stay in WHERE.
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/cost/cost_model.hpp"
#include "frazil/sql/column_stats.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using compute::JoinType;

int relation_sides(const PgNode* node, const Relation& left, const Relation& right);
bool is_equality_node(const PgNode* node);

namespace {

// Rows the optimizer's cost model expects from a frame (its sources' sizes and fixed
// filter selectivities); a million when a source cannot be sized.
double estimate_rows(const LazyFrame& frame) {
  try {
    plan::IRArena lp;
    plan::ExprArena ea;
    plan::OptFlags flags;
    plan::Node root = plan::to_alp(frame.plan(), lp, ea, flags);
    auto cost = plan::estimate_cost(root, lp, ea);
    if (cost) return std::max(1.0, cost->rows);
  } catch (const std::exception&) {
  }
  return 1e6;
}

// Which FROM items a node's columns come from (bit i: item i); -1 when a column resolves
// to none of them (an outer reference) or to several.
int64_t items_of(const PgNode* node, const std::vector<FromItem>& items) {
  int64_t mask = 0;
  bool unknown = false;
  walk_nodes(node, [&](const PgNode* n) {
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
      unknown = true;
      return false;
    }
    if (n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return true;
    const auto* c = n->column_ref;
    if (c->fields[c->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
      unknown = true;
      return false;
    }
    const std::string name = string_of(c->fields[c->n_fields - 1]);
    const std::string qualifier = c->n_fields >= 2 ? string_of(c->fields[c->n_fields - 2]) : "";
    int hits = 0;
    for (size_t i = 0; i < items.size(); ++i) {
      if (!items[i].rel.find(qualifier, name).empty()) {
        mask |= int64_t{1} << i;
        ++hits;
      }
    }
    if (hits != 1) unknown = true;
    return false;
  });
  return unknown ? -1 : mask;
}

int single_item(int64_t mask) {
  if (mask <= 0 || (mask & (mask - 1)) != 0) return -1;
  return static_cast<int>(std::log2(static_cast<double>(mask)));
}

}  // namespace

// The FROM items a condition holding subqueries reads: its own columns and the columns
// its subqueries take from the enclosing query; -1 when something cannot be placed.
// `correlated`: set when a subquery reads a FROM item.
int64_t Translator::subquery_items(const PgNode* c, const std::vector<FromItem>& items, const Scope* outer,
                                   bool* correlated) {
  int64_t mask = 0;
  bool unknown = false;
  auto place = [&](const PgQuery__ColumnRef* ref, const Relation* inner) {
    if (ref->fields[ref->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) return;
    const std::string name = string_of(ref->fields[ref->n_fields - 1]);
    const std::string qualifier = ref->n_fields >= 2 ? string_of(ref->fields[ref->n_fields - 2]) : "";
    if (inner && !inner->find(qualifier, name).empty()) return;
    int hits = 0;
    for (size_t i = 0; i < items.size(); ++i)
      if (!items[i].rel.find(qualifier, name).empty()) {
        mask |= int64_t{1} << i;
        ++hits;
      }
    if (hits != 1) unknown = true;
    if (inner && hits > 0 && correlated) *correlated = true;
  };
  std::function<bool(const PgNode*, const Relation*)> visit = [&](const PgNode* node, const Relation* inner) {
    walk_nodes(node, [&](const PgNode* n) {
      if (unknown) return false;
      if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
        place(n->column_ref, inner);
        return false;
      }
      if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK) {
        if (inner) {  // a subquery inside a subquery: not placed
          unknown = true;
          return false;
        }
        if (n->sub_link->testexpr) visit(n->sub_link->testexpr, nullptr);
        const PgNode* sel = n->sub_link->subselect;
        if (!sel || sel->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
          unknown = true;
          return false;
        }
        const auto* sub = sel->select_stmt;
        if (sub->op != PG_QUERY__SET_OPERATION__SETOP_NONE && sub->op != PG_QUERY__SET_OPERATION__SET_OPERATION_UNDEFINED)
          return false;  // a set operation's branches: taken as uncorrelated
        try {
          std::vector<const PgNode*> where;
          split_conjuncts(sub->where_clause, where);
          Relation from = from_clause(sub, outer, where);
          for (size_t k = 0; k < sub->n_target_list; ++k) visit(sub->target_list[k], &from);
          if (sub->where_clause) visit(sub->where_clause, &from);
          if (sub->having_clause) visit(sub->having_clause, &from);
          for (size_t k = 0; k < sub->n_group_clause; ++k) visit(sub->group_clause[k], &from);
        } catch (const Error&) {
          unknown = true;
        }
        return false;
      }
      return true;
    });
    return !unknown;
  };
  visit(c, nullptr);
  return unknown ? -1 : mask;
}

Relation Translator::join_from_list(std::vector<FromItem> items, std::vector<const PgNode*>& where, const Scope* outer) {
  if (items.size() > 62) fail(ErrorKind::SQLInterface, items[62].location, "more than 62 tables in one FROM list");
  std::vector<double> base_rows;
  for (const auto& it : items) base_rows.push_back(estimate_rows(it.rel.frame));
  // Conditions on one item filter it now; equalities between two items are join edges.
  struct Edge {
    int a, b;             // item indices
    const PgNode* a_side;  // the expression over item a
    const PgNode* b_side;
    double a_distinct;    // the key's distinct values on each side, at most
    double b_distinct;
  };
  // A key's distinct values: at most its table's rows, and for a column with statistics
  // its value range (nationkey: 25, however many rows hold it).
  auto side_distinct = [&](int item, const PgNode* side) {
    double d = base_rows[item];
    if (side->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
      const auto* c = side->column_ref;
      const std::string name = string_of(c->fields[c->n_fields - 1]);
      const std::string qualifier = c->n_fields >= 2 ? string_of(c->fields[c->n_fields - 2]) : "";
      auto found = items[item].rel.find(qualifier, name);
      if (found.size() == 1) {
        auto stats = source_column_stats(items[item].rel.frame, found[0]->internal);
        if (stats && stats->distinct_bound) d = std::min(d, *stats->distinct_bound);
      }
    }
    return std::max(1.0, d);
  };
  std::vector<Edge> edges;
  std::vector<const PgNode*> rest;
  std::vector<std::vector<const PgNode*>> item_filters(items.size());
  for (const PgNode* c : where) {
    const int64_t mask = items_of(c, items);
    if (const int i = single_item(mask); i >= 0) {
      item_filters[i].push_back(c);
      continue;
    }
    // A subquery condition on one table (IN, EXISTS, a comparison with a scalar subquery)
    // is a semi join or filter of that table: applied before the tables are joined. A
    // correlated one is applied after the joins: its decorrelated aggregate per key then
    // only computes the groups of the (fewer) joined rows (the executor's key filter).
    if (mask < 0) {
      bool correlated = false;
      if (const int i = single_item(subquery_items(c, items, outer, &correlated)); i >= 0) {
        if (correlated && items.size() > 1) {
          rest.push_back(c);
          continue;
        }
        item_filters[i].push_back(c);
        continue;
      }
    }
    if (mask > 0 && is_equality_node(c)) {
      const int l = single_item(items_of(c->a_expr->lexpr, items));
      const int r = single_item(items_of(c->a_expr->rexpr, items));
      if (l >= 0 && r >= 0 && l != r) {
        edges.push_back({l, r, c->a_expr->lexpr, c->a_expr->rexpr, side_distinct(l, c->a_expr->lexpr),
                         side_distinct(r, c->a_expr->rexpr)});
        continue;
      }
    }
    rest.push_back(c);
  }
  where = rest;
  for (size_t i = 0; i < items.size(); ++i) {
    if (item_filters[i].empty()) continue;
    Scope s;
    s.rel = &items[i].rel;
    s.outer = outer;
    s.clause = "WHERE";
    items[i].rel = filter_conjuncts(std::move(items[i].rel), item_filters[i], outer, "WHERE");
  }
  // Components: joined groups of items, with their estimated rows.
  struct Component {
    Relation rel;
    double rows;
    std::vector<int> members;
  };
  std::vector<Component> comps;
  for (size_t i = 0; i < items.size(); ++i) {
    const double rows = item_filters[i].empty() ? base_rows[i] : estimate_rows(items[i].rel.frame);
    comps.push_back({std::move(items[i].rel), rows, {static_cast<int>(i)}});
  }
  auto component_of = [&](int item) {
    for (size_t k = 0; k < comps.size(); ++k)
      if (std::find(comps[k].members.begin(), comps[k].members.end(), item) != comps[k].members.end()) return k;
    return comps.size();
  };
  while (comps.size() > 1) {
    // The connected pair with the smallest estimated join.
    double best = std::numeric_limits<double>::infinity();
    size_t best_a = 0, best_b = 0;
    bool found = false;
    for (size_t a = 0; a < comps.size(); ++a) {
      for (size_t b = a + 1; b < comps.size(); ++b) {
        // Per pair of tables joined: the distinct key combinations on each side (at most
        // its rows), the smaller of the two (a primary key bounds its foreign key).
        std::map<std::pair<int, int>, std::pair<double, double>> pairs;
        for (const auto& e : edges) {
          const size_t ca = component_of(e.a), cb = component_of(e.b);
          if (!((ca == a && cb == b) || (ca == b && cb == a))) continue;
          auto key = e.a < e.b ? std::make_pair(e.a, e.b) : std::make_pair(e.b, e.a);
          const double da = e.a < e.b ? e.a_distinct : e.b_distinct;
          const double db = e.a < e.b ? e.b_distinct : e.a_distinct;
          auto [it, fresh] = pairs.try_emplace(key, 1.0, 1.0);
          it->second.first *= da;
          it->second.second *= db;
        }
        if (pairs.empty()) continue;
        double distinct = 1, cap = 1;
        for (const auto& [key, d] : pairs) {
          distinct *= std::min(std::min(d.first, base_rows[key.first]), std::min(d.second, base_rows[key.second]));
          cap = std::max({cap, base_rows[key.first], base_rows[key.second]});
        }
        distinct = std::min(distinct, cap);
        const double rows = comps[a].rows * comps[b].rows / std::max(1.0, distinct);
        if (rows < best) {
          best = rows;
          best_a = a;
          best_b = b;
          found = true;
        }
      }
    }
    if (!found) {
      // Nothing joins the rest by a key: a cross product of the first two, smaller right.
      best_a = 0;
      best_b = 1;
      best = comps[0].rows * comps[1].rows;
    }
    // The larger side probes (left), the smaller one is built (right).
    size_t l = best_a, r = best_b;
    if (comps[r].rows > comps[l].rows) std::swap(l, r);
    std::vector<Expr> lk, rk;
    for (auto& e : edges) {
      const size_t ca = component_of(e.a), cb = component_of(e.b);
      const PgNode* l_node = nullptr;
      const PgNode* r_node = nullptr;
      if (ca == l && cb == r) {
        l_node = e.a_side;
        r_node = e.b_side;
      } else if (ca == r && cb == l) {
        l_node = e.b_side;
        r_node = e.a_side;
      } else {
        continue;
      }
      Scope ls;
      ls.rel = &comps[l].rel;
      ls.outer = outer;
      ls.clause = "WHERE";
      Scope rs = ls;
      rs.rel = &comps[r].rel;
      lk.push_back(expr(l_node, ls));
      rk.push_back(expr(r_node, rs));
    }
    const std::string right_name = comps[r].rel.columns.empty() || comps[r].rel.columns[0].qualifiers.empty()
                                       ? std::string("right")
                                       : comps[r].rel.columns[0].qualifiers[0];
    Relation joined = join_relations(std::move(comps[l].rel), std::move(comps[r].rel), lk, rk,
                                     lk.empty() ? JoinType::Cross : JoinType::Inner, false, right_name);
    Component merged{std::move(joined), std::max(1.0, best), comps[l].members};
    merged.members.insert(merged.members.end(), comps[r].members.begin(), comps[r].members.end());
    const size_t hi = std::max(l, r), lo = std::min(l, r);
    comps.erase(comps.begin() + static_cast<std::ptrdiff_t>(hi));
    comps.erase(comps.begin() + static_cast<std::ptrdiff_t>(lo));
    comps.insert(comps.begin() + static_cast<std::ptrdiff_t>(lo), std::move(merged));
  }
  return std::move(comps[0].rel);
}

}  // namespace frazil::sql
