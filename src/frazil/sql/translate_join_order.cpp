// FROM a, b, c WHERE ...: the comma-separated tables are joined along the WHERE clause's
// equalities between them, cheapest join first (greedy operator ordering over estimated
// row counts), so that no cross product is built where a key joins two tables. The
// conditions on one table filter it first; the others stay in WHERE.
#include <cmath>

#include "frazil/optimizer/cse/cost_model.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
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
    auto cost = optimizer::cse::estimate_cost(root, lp, ea);
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

Relation Translator::join_from_list(std::vector<FromItem> items, std::vector<const PgNode*>& where, const Scope* outer) {
  if (items.size() > 62) fail(ErrorKind::SQLInterface, items[62].location, "more than 62 tables in one FROM list");
  std::vector<double> base_rows;
  for (const auto& it : items) base_rows.push_back(estimate_rows(it.rel.frame));
  // Conditions on one item filter it now; equalities between two items are join edges.
  struct Edge {
    int a, b;             // item indices
    const PgNode* a_side;  // the expression over item a
    const PgNode* b_side;
    bool used = false;
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
    if (mask > 0 && is_equality_node(c)) {
      const int l = single_item(items_of(c->a_expr->lexpr, items));
      const int r = single_item(items_of(c->a_expr->rexpr, items));
      if (l >= 0 && r >= 0 && l != r) {
        edges.push_back({l, r, c->a_expr->lexpr, c->a_expr->rexpr});
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
    std::optional<Expr> pred;
    std::vector<const PgNode*> subqueries;
    for (const PgNode* c : item_filters[i]) {
      Expr e = expr(c, s);
      pred = pred ? (*pred & e) : e;
    }
    items[i].rel.frame = items[i].rel.frame.filter(*pred);
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
        double distinct = 0;
        bool connected = false;
        for (const auto& e : edges) {
          const size_t ca = component_of(e.a), cb = component_of(e.b);
          if ((ca == a && cb == b) || (ca == b && cb == a)) {
            connected = true;
            // A key's distinct values: about the rows of the smaller table (its primary key).
            distinct = std::max(distinct, std::min(base_rows[e.a], base_rows[e.b]));
          }
        }
        if (!connected) continue;
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
      e.used = true;
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
