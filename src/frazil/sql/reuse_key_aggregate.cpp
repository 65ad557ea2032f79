#include "frazil/sql/reuse_key_aggregate.hpp"

#include <memory>
#include <string>
#include <unordered_set>

#include "frazil/core/error.hpp"
#include "frazil/sql/expr_util.hpp"

namespace frazil::sql {

using compute::AggKind;
using dsl::DslGroupBy;
using dsl::DslJoin;
using dsl::DslKind;
using dsl::DslPlan;
using dsl::DslPlanRef;
using dsl::ExprKind;

namespace {

// An aggregation `agg(col(c)).alias(name)`.
struct SimpleAgg {
  AggKind kind;
  std::string column;
  std::string name;
};

std::optional<SimpleAgg> simple_agg(const Expr& e) {
  if (e.kind() != ExprKind::Alias) return std::nullopt;
  const Expr& a = e.node().inputs[0];
  if (a.kind() != ExprKind::Agg) return std::nullopt;
  const std::string* c = plain_column_name(a.node().inputs[0]);
  if (!c) return std::nullopt;
  return SimpleAgg{a.node().agg, *c, e.node().names[0]};
}

// Whether summing per key, then summing the sums, gives the sum (and its dtype): integers,
// whose sums wrap or widen alike either way. Floats would change with the order of adding.
bool decomposes(AggKind kind, const DataType& t) {
  if (kind == AggKind::Min || kind == AggKind::Max) return !t.is_nested();
  return kind == AggKind::Sum && t.is_integer();
}

// The GroupBy of `table` by exactly `table_keys` at or under `node`, or nullptr.
const DslPlanRef* find_key_aggregate(const DslPlanRef& node, const DslPlanRef& table,
                                     const std::vector<std::string>& table_keys,
                                     std::unordered_set<const DslPlan*>& seen) {
  if (!seen.insert(node.get()).second) return nullptr;
  if (node->kind() == DslKind::GroupBy && node->inputs[0] == table) {
    const auto& g = node->as<DslGroupBy>();
    bool same = g.keys.size() == table_keys.size();
    for (size_t i = 0; same && i < g.keys.size(); ++i) {
      const std::string* k = plain_column_name(g.keys[i]);
      same = k && *k == table_keys[i];
    }
    if (same) return &node;
  }
  for (const auto& in : node->inputs)
    if (const DslPlanRef* found = find_key_aggregate(in, table, table_keys, seen)) return found;
  return nullptr;
}

// The aggregation of `other` computing `want`, by name, or nullptr.
const std::string* computed_by(const DslGroupBy& other, const SimpleAgg& want) {
  for (const auto& e : other.aggs) {
    auto a = simple_agg(e);
    if (a && a->kind == want.kind && a->column == want.column) return &e.node().names[0];
  }
  return nullptr;
}

// Whether `e` reads plain columns only, none of them a column of `table` but `keys`.
bool reads_table_keys_only(const Expr& e, const Schema& table, const std::unordered_set<std::string>& keys) {
  bool ok = true;
  visit_expr(e, [&](const Expr& x) {
    switch (x.kind()) {
      case ExprKind::Column:
        ok = ok && (!table.contains(x.node().names[0]) || keys.count(x.node().names[0]));
        return false;
      case ExprKind::Columns:
      case ExprKind::Wildcard:
      case ExprKind::Exclude:
      case ExprKind::Nth:
      case ExprKind::Selector:
      case ExprKind::StructFields:
        ok = false;
        return false;
      default:
        return ok;
    }
  });
  return ok;
}

// The rows of `join` that a chain of filters and semi/anti joins keeps, the steps from the
// group-by's input down to the join.
struct RowFilters {
  std::vector<DslPlanRef> steps;  // outermost first; each keeps its left input's columns
  DslPlanRef join;
};

RowFilters row_filters(const DslPlanRef& input) {
  RowFilters r;
  DslPlanRef node = input;
  for (;;) {
    const bool semi = node->kind() == DslKind::Join && (node->as<DslJoin>().options.how == compute::JoinType::Semi ||
                                                        node->as<DslJoin>().options.how == compute::JoinType::Anti);
    if (node->kind() != DslKind::Filter && !semi) break;
    r.steps.push_back(node);
    node = node->inputs[0];
  }
  r.join = node;
  return r;
}

// Whether the steps decide on a row without reading T's columns other than its join keys:
// then they keep or drop all of a key's joined rows of one partner row together.
bool steps_read_only_keys(const RowFilters& r, const Schema& table, const std::unordered_set<std::string>& keys) {
  for (const auto& step : r.steps) {
    if (step->kind() == DslKind::Filter) {
      if (!reads_table_keys_only(step->as<dsl::DslFilter>().predicate, table, keys)) return false;
      continue;
    }
    for (const auto& k : step->as<DslJoin>().left_on)
      if (!reads_table_keys_only(k, table, keys)) return false;
  }
  return true;
}

// `steps` rebuilt over `join`.
DslPlanRef over(const std::vector<DslPlanRef>& steps, DslPlanRef join) {
  DslPlanRef node = std::move(join);
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    std::vector<DslPlanRef> inputs = (*it)->inputs;
    inputs[0] = node;
    node = std::make_shared<DslPlan>(DslPlan{(*it)->node, std::move(inputs)});
  }
  return node;
}

}  // namespace

std::optional<LazyFrame> reuse_key_aggregate(const LazyFrame& input, const std::vector<Expr>& keys,
                                             const std::vector<Expr>& aggs) {
  const RowFilters filters = row_filters(input.plan());
  const DslPlanRef& join_node = filters.join;
  if (join_node->kind() != DslKind::Join || aggs.empty()) return std::nullopt;
  const auto& join = join_node->as<DslJoin>();
  if (join.options.how != compute::JoinType::Inner) return std::nullopt;
  for (size_t side = 0; side < 2; ++side) {
    const DslPlanRef& table = join_node->inputs[side];
    const DslPlanRef& rest = join_node->inputs[1 - side];
    const auto& t_on = side == 0 ? join.left_on : join.right_on;
    std::vector<std::string> t_keys;
    for (const auto& k : t_on)
      if (const std::string* c = plain_column_name(k)) t_keys.push_back(*c);
    if (t_keys.size() != t_on.size()) continue;
    std::unordered_set<const DslPlan*> seen{table.get()};
    const DslPlanRef* other = find_key_aggregate(input.plan(), table, t_keys, seen);
    if (!other) continue;
    Schema t_schema, rest_schema, other_schema;
    try {
      t_schema = LazyFrame(table).collect_schema();
      rest_schema = LazyFrame(rest).collect_schema();
      other_schema = LazyFrame(*other).collect_schema();
    } catch (const Error&) {
      return std::nullopt;
    }
    // Names of one side only: no suffixes, and the group keys say which side they read.
    bool disjoint = true;
    for (const auto& n : other_schema.names()) disjoint = disjoint && !rest_schema.contains(n);
    for (const auto& n : t_schema.names()) disjoint = disjoint && !rest_schema.contains(n);
    if (!disjoint) continue;
    const std::unordered_set<std::string> t_key_set(t_keys.begin(), t_keys.end());
    bool keys_ok = steps_read_only_keys(filters, t_schema, t_key_set);
    for (const auto& k : keys) keys_ok = keys_ok && plain_column_name(k) && reads_table_keys_only(k, t_schema, t_key_set);
    if (!keys_ok) continue;
    std::vector<Expr> reaggs;
    for (const auto& e : aggs) {
      auto a = simple_agg(e);
      if (!a || !t_schema.contains(a->column) || !decomposes(a->kind, t_schema.dtype_of(a->column))) break;
      const std::string* partial = computed_by((*other)->as<DslGroupBy>(), *a);
      if (!partial) break;
      reaggs.push_back(dsl::col(*partial).agg(a->kind).alias(a->name));
    }
    if (reaggs.size() != aggs.size()) continue;
    std::vector<DslPlanRef> inputs = join_node->inputs;
    inputs[side] = *other;
    auto rejoined = std::make_shared<DslPlan>(DslPlan{join_node->node, std::move(inputs)});
    return LazyFrame(over(filters.steps, rejoined)).group_by(keys).agg(reaggs);
  }
  return std::nullopt;
}

}  // namespace frazil::sql
