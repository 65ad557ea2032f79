// FROM a, b, c WHERE ...: the comma-separated tables are joined along the WHERE clause's
// equalities between them, and along the equalities those imply (classes of equal keys),
// so that no cross product is built where a key joins two tables. Up to 12 tables, the
// join tree is the cheapest by dynamic programming over connected subsets (rows read and
// written, from estimated row counts); beyond that, the cheapest join first (greedy). The
// conditions on one table filter it first; the others stay in WHERE.
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>

#include "frazil/sql/column_stats.hpp"
#include "frazil/sql/expr_util.hpp"
#include "frazil/sql/translator.hpp"

namespace frazil::sql {

using compute::JoinType;

int relation_sides(const PgNode* node, const Relation& left, const Relation& right);
bool is_equality_node(const PgNode* node);

namespace {

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

// WHERE's equality between an expression over item a and one over item b.
struct Edge {
  int a, b;              // item indices
  const PgNode* a_side;  // the expression over item a
  const PgNode* b_side;
  double a_distinct;  // the key's distinct values on each side, at most
  double b_distinct;
  int key_class = -1;  // its class of equal keys (KeyClasses)
};

// The join keys WHERE makes equal, transitively: c_nationkey = s_nationkey and
// s_nationkey = n_nationkey put all three in one class, so that customer may join nation
// directly (PDS-H q5's good order needs that edge, which the text never writes).
struct KeyMember {
  int item;
  const PgNode* node;  // the key's expression over its item
  double distinct;     // its distinct values, at most
};
struct KeyClasses {
  std::vector<std::vector<KeyMember>> members;  // per class
  std::vector<bool> one_per_table;              // per class: no two members of one item

  // Groups the edges' sides: one member per (item, column), a column-ref side identified by
  // its spelling (`key_of`); any other expression is a member of its own.
  KeyClasses(std::vector<Edge>& edges, const std::function<std::string(int, const PgNode*)>& key_of) {
    std::vector<int> parent;
    std::vector<KeyMember> all;
    std::map<std::string, int> by_key;
    auto member = [&](int item, const PgNode* node, double distinct, const std::string& key) {
      if (!key.empty()) {
        auto [it, fresh] = by_key.try_emplace(key, static_cast<int>(all.size()));
        if (!fresh) {
          all[it->second].distinct = std::min(all[it->second].distinct, distinct);
          return it->second;
        }
      }
      parent.push_back(static_cast<int>(all.size()));
      all.push_back({item, node, distinct});
      return static_cast<int>(all.size()) - 1;
    };
    std::function<int(int)> find = [&](int x) { return parent[x] == x ? x : parent[x] = find(parent[x]); };
    std::vector<int> edge_member;
    for (const Edge& e : edges) {
      const int a = member(e.a, e.a_side, e.a_distinct, key_of(e.a, e.a_side));
      const int b = member(e.b, e.b_side, e.b_distinct, key_of(e.b, e.b_side));
      parent[find(a)] = find(b);
      edge_member.push_back(a);
    }
    std::map<int, int> class_of_root;
    for (size_t m = 0; m < all.size(); ++m) {
      auto [it, fresh] = class_of_root.try_emplace(find(static_cast<int>(m)), static_cast<int>(members.size()));
      if (fresh) members.emplace_back();
      members[it->second].push_back(all[m]);
    }
    for (size_t e = 0; e < edges.size(); ++e) edges[e].key_class = class_of_root.at(find(edge_member[e]));
    for (const auto& cls : members) {
      bool twice = false;
      for (size_t i = 0; i < cls.size(); ++i)
        for (size_t j = i + 1; j < cls.size(); ++j) twice |= cls[i].item == cls[j].item;
      one_per_table.push_back(!twice);
    }
  }
};

inline bool has(uint32_t set, int item) { return (set >> item) & 1u; }

// The best join tree over the FROM items by dynamic programming over connected subsets
// (at most kMaxDpItems items): each join's cost is the rows it reads and writes, summed over
// the tree, with the estimated rows of a join being left * right / the distinct key
// combinations of the classes joining them. split[S]: the left subset of S's best join
// (0 for a single item or a subset no tree without a cross product covers).
constexpr size_t kMaxDpItems = 12;

struct JoinTree {
  std::vector<uint32_t> split;
  std::vector<double> rows;
};

JoinTree best_join_tree(size_t n, const KeyClasses& classes, const std::vector<double>& rows,
                        const std::vector<double>& base_rows) {
  const uint32_t full = (1u << n) - 1;
  JoinTree t{std::vector<uint32_t>(full + 1, 0), std::vector<double>(full + 1, 0)};
  std::vector<double> cost(full + 1, std::numeric_limits<double>::infinity());
  for (size_t i = 0; i < n; ++i) {
    t.rows[1u << i] = rows[i];
    cost[1u << i] = 0;
  }
  // The distinct key combinations joining l and r: per class with members on both sides,
  // the fewer distinct values of the two sides (a primary key bounds its foreign key), all
  // together at most the largest table holding one of those keys; 0 when nothing joins them.
  auto distinct_between = [&](uint32_t l, uint32_t r) {
    double product = 1, cap = 1;
    bool joined = false;
    for (const auto& cls : classes.members) {
      double dl = std::numeric_limits<double>::infinity(), dr = dl;
      for (const KeyMember& m : cls) {
        if (has(l, m.item)) dl = std::min(dl, m.distinct);
        if (has(r, m.item)) dr = std::min(dr, m.distinct);
      }
      if (std::isinf(dl) || std::isinf(dr)) continue;
      joined = true;
      product *= std::max(1.0, std::min(dl, dr));
      for (const KeyMember& m : cls)
        if (has(l | r, m.item)) cap = std::max(cap, base_rows[m.item]);
    }
    return joined ? std::min(product, cap) : 0.0;
  };
  for (uint32_t set = 1; set <= full; ++set) {
    if ((set & (set - 1)) == 0) continue;
    // Each split once: the left part holds the set's lowest item.
    const uint32_t low = set & (~set + 1);
    for (uint32_t l = (set - 1) & set; l != 0; l = (l - 1) & set) {
      if (!(l & low)) continue;
      const uint32_t r = set ^ l;
      if (std::isinf(cost[l]) || std::isinf(cost[r])) continue;
      const double d = distinct_between(l, r);
      if (d == 0) continue;
      if (t.split[set] == 0) t.rows[set] = std::max(1.0, t.rows[l] * t.rows[r] / d);
      const double c = cost[l] + cost[r] + t.rows[l] + t.rows[r] + t.rows[set];
      if (c < cost[set]) {
        cost[set] = c;
        t.split[set] = l;
      }
    }
  }
  return t;
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

namespace {

// NOT (x IN (subquery)), NOT EXISTS (subquery), x <> ALL (subquery): an anti join.
bool is_negated_subquery(const PgNode* c) {
  if (c->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR && c->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR)
    return c->bool_expr->n_args == 1 && c->bool_expr->args[0]->node_case == PG_QUERY__NODE__NODE_SUB_LINK;
  if (c->node_case != PG_QUERY__NODE__NODE_SUB_LINK || c->sub_link->sub_link_type != PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK ||
      c->sub_link->n_oper_name == 0)
    return false;
  const std::string op = string_of(c->sub_link->oper_name[c->sub_link->n_oper_name - 1]);
  return op == "<>" || op == "!=";
}

}  // namespace

Relation Translator::join_from_list(std::vector<FromItem> items, std::vector<const PgNode*>& where, const Scope* outer) {
  if (items.size() > 62) fail(ErrorKind::SQLInterface, items[62].location, "more than 62 tables in one FROM list");
  std::vector<double> base_rows;
  for (const auto& it : items) base_rows.push_back(estimate_rows(it.rel.frame));
  // Conditions on one item filter it now; equalities between two items are join edges.
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
  std::vector<std::pair<int, const PgNode*>> anti_filters;  // NOT IN / NOT EXISTS on one item
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
        if (items.size() > 1 && is_negated_subquery(c)) {
          anti_filters.emplace_back(i, c);
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
  std::vector<double> rows(items.size());
  for (size_t i = 0; i < items.size(); ++i)
    rows[i] = item_filters[i].empty() ? base_rows[i] : estimate_rows(items[i].rel.frame);
  // A column-ref key's identity: its item and the frame column it resolves to.
  auto key_of = [&](int item, const PgNode* side) -> std::string {
    if (side->node_case != PG_QUERY__NODE__NODE_COLUMN_REF) return "";
    const auto* c = side->column_ref;
    const std::string name = string_of(c->fields[c->n_fields - 1]);
    const std::string qualifier = c->n_fields >= 2 ? string_of(c->fields[c->n_fields - 2]) : "";
    auto found = items[item].rel.find(qualifier, name);
    return found.size() == 1 ? std::to_string(item) + ":" + found[0]->internal : "";
  };
  const KeyClasses classes(edges, key_of);

  // An uncorrelated NOT IN / NOT EXISTS on one table is an anti join that usually keeps
  // most rows: it costs a probe per row wherever it stands and reduces the joins' work
  // little. It is applied where fewer rows reach it: after the joins when they are
  // estimated to leave fewer rows than its table has after its own filters (PDS-H q16:
  // partsupp's 800k rows before the part join, about 120k after it).
  if (!anti_filters.empty()) {
    double joined_rows = std::numeric_limits<double>::infinity();
    if (items.size() <= kMaxDpItems) {
      const JoinTree tree = best_join_tree(items.size(), classes, rows, base_rows);
      const uint32_t full = (1u << items.size()) - 1;
      if (tree.split[full] != 0) joined_rows = tree.rows[full];
    }
    std::vector<std::vector<const PgNode*>> early(items.size());
    for (const auto& [i, c] : anti_filters) {
      if (joined_rows < rows[i])
        where.push_back(c);
      else
        early[i].push_back(c);
    }
    for (size_t i = 0; i < items.size(); ++i)
      if (!early[i].empty()) items[i].rel = filter_conjuncts(std::move(items[i].rel), early[i], outer, "WHERE");
  }

  // Components: joined groups of items, with their estimated rows.
  struct Component {
    Relation rel;
    double rows;
    std::vector<int> items;  // the FROM items joined in it
  };
  // Joins two components on one key of each class of equal keys with members on both
  // sides: within a component, a class's keys are already equal (each join equated them),
  // so one pair stands for every WHERE equality of the class between the two. A class that
  // holds two columns of one table (a.x = b.y and a.z = b.y) is joined on each of its
  // equalities instead, for nothing has equated those two yet. The larger side probes
  // (left), the smaller one is built (right).
  auto join_components = [&](Component a, Component b, double rows_after) {
    if (b.rows > a.rows) std::swap(a, b);
    Scope ls;
    ls.rel = &a.rel;
    ls.outer = outer;
    ls.clause = "WHERE";
    Scope rs = ls;
    rs.rel = &b.rel;
    auto in = [](const Component& c, int item) { return std::find(c.items.begin(), c.items.end(), item) != c.items.end(); };
    std::vector<Expr> lk, rk;
    std::vector<bool> class_joined(classes.members.size(), false);
    for (const auto& e : edges) {
      const PgNode* l_node = nullptr;
      const PgNode* r_node = nullptr;
      if (in(a, e.a) && in(b, e.b)) {
        l_node = e.a_side;
        r_node = e.b_side;
      } else if (in(a, e.b) && in(b, e.a)) {
        l_node = e.b_side;
        r_node = e.a_side;
      } else {
        continue;
      }
      if (classes.one_per_table[e.key_class]) continue;
      class_joined[e.key_class] = true;
      lk.push_back(expr(l_node, ls));
      rk.push_back(expr(r_node, rs));
    }
    for (size_t k = 0; k < classes.members.size(); ++k) {
      if (class_joined[k]) continue;
      const KeyMember* l_key = nullptr;
      const KeyMember* r_key = nullptr;
      for (const KeyMember& m : classes.members[k]) {
        if (!l_key && in(a, m.item)) l_key = &m;
        if (!r_key && in(b, m.item)) r_key = &m;
      }
      if (!l_key || !r_key) continue;
      lk.push_back(expr(l_key->node, ls));
      rk.push_back(expr(r_key->node, rs));
    }
    const std::string right_name = b.rel.columns.empty() || b.rel.columns[0].qualifiers.empty()
                                       ? std::string("right")
                                       : b.rel.columns[0].qualifiers[0];
    Relation joined = join_relations(std::move(a.rel), std::move(b.rel), lk, rk,
                                     lk.empty() ? JoinType::Cross : JoinType::Inner, false, right_name);
    Component merged{std::move(joined), std::max(1.0, rows_after), a.items};
    merged.items.insert(merged.items.end(), b.items.begin(), b.items.end());
    return merged;
  };
  std::vector<std::optional<Component>> singles;
  for (size_t i = 0; i < items.size(); ++i)
    singles.push_back(Component{std::move(items[i].rel), rows[i], {static_cast<int>(i)}});

  // Up to kMaxDpItems items: the best tree that needs no cross product.
  if (items.size() >= 2 && items.size() <= kMaxDpItems) {
    const JoinTree tree = best_join_tree(items.size(), classes, rows, base_rows);
    const uint32_t full = (1u << items.size()) - 1;
    if (tree.split[full] != 0) {
      std::function<Component(uint32_t)> build = [&](uint32_t set) -> Component {
        if ((set & (set - 1)) == 0) return std::move(*singles[static_cast<size_t>(std::countr_zero(set))]);
        const uint32_t l = tree.split[set];
        return join_components(build(l), build(set ^ l), tree.rows[set]);
      };
      return std::move(build(full).rel);
    }
  }

  // Otherwise greedily: the connected pair with the smallest estimated join first.
  std::vector<Component> comps;
  for (auto& single : singles) comps.push_back(std::move(*single));
  auto component_of = [&](int item) {
    for (size_t k = 0; k < comps.size(); ++k)
      if (std::find(comps[k].items.begin(), comps[k].items.end(), item) != comps[k].items.end()) return k;
    return comps.size();
  };
  while (comps.size() > 1) {
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
        const double joined_rows = comps[a].rows * comps[b].rows / std::max(1.0, distinct);
        if (joined_rows < best) {
          best = joined_rows;
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
    Component merged = join_components(std::move(comps[best_a]), std::move(comps[best_b]), best);
    comps.erase(comps.begin() + static_cast<std::ptrdiff_t>(best_b));
    comps.erase(comps.begin() + static_cast<std::ptrdiff_t>(best_a));
    comps.insert(comps.begin() + static_cast<std::ptrdiff_t>(best_a), std::move(merged));
  }
  return std::move(comps[0].rel);
}

}  // namespace frazil::sql
