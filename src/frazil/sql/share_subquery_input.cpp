#include "frazil/sql/share_subquery_input.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "frazil/sql/column_stats.hpp"
#include "frazil/sql/expr_util.hpp"

namespace frazil::sql {

using dsl::DslJoin;
using dsl::DslKind;
using dsl::DslPlan;
using dsl::DslPlanRef;

namespace {

// X must be this many times smaller than T (by the cost model's estimates) to be cached.
constexpr double kMinReduction = 4.0;

struct Search {
  const DslPlanRef& table;  // T
  const std::vector<Expr>& inner_keys;
  const std::vector<Expr>& outer_keys;
  DslPlanRef semi;     // X, once found
  DslPlanRef rest;     // R
  std::string t_key;  // T's first join key
};

// Whether `join` joins T (input `side`) to the rest on keys that the correlation covers: each
// of T's join keys is an inner key whose outer key is that column or its partner.
bool joins_on_correlation(const DslJoin& join, size_t side, const Search& s) {
  const auto& t_keys = side == 0 ? join.left_on : join.right_on;
  const auto& r_keys = side == 0 ? join.right_on : join.left_on;
  if (t_keys.empty()) return false;
  for (size_t j = 0; j < t_keys.size(); ++j) {
    const std::string* c = plain_column_name(t_keys[j]);
    if (!c) return false;
    const std::string* y = plain_column_name(r_keys[j]);
    bool covered = false;
    for (size_t i = 0; i < s.inner_keys.size() && !covered; ++i) {
      const std::string* in = plain_column_name(s.inner_keys[i]);
      const std::string* out = plain_column_name(s.outer_keys[i]);
      covered = in && out && *in == *c && (*out == *c || (y && *out == *y));
    }
    if (!covered) return false;
  }
  return true;
}

DslPlanRef with_inputs(const DslPlan& node, std::vector<DslPlanRef> inputs) {
  return std::make_shared<DslPlan>(DslPlan{node.node, std::move(inputs)});
}

// `node` with T's join replaced by X JOIN R, or nullptr when it has none on the path.
DslPlanRef rewrite(const DslPlanRef& node, Search& s) {
  if (node->kind() == DslKind::Filter) {
    DslPlanRef in = rewrite(node->inputs[0], s);
    return in ? with_inputs(*node, {in}) : nullptr;
  }
  if (node->kind() != DslKind::Join) return nullptr;
  const auto& join = node->as<DslJoin>();
  if (join.options.how != compute::JoinType::Inner) return nullptr;
  for (size_t side = 0; side < 2; ++side) {
    if (node->inputs[side] != s.table || !joins_on_correlation(join, side, s)) continue;
    const DslPlanRef& rest = node->inputs[1 - side];
    DslJoin semi;
    semi.left_on = side == 0 ? join.left_on : join.right_on;
    semi.right_on = side == 0 ? join.right_on : join.left_on;
    semi.options.how = compute::JoinType::Semi;
    s.t_key = *plain_column_name(semi.left_on[0]);
    s.semi = std::make_shared<DslPlan>(DslPlan{std::move(semi), {s.table, rest}});
    s.rest = rest;
    std::vector<DslPlanRef> inputs = node->inputs;
    inputs[side] = s.semi;
    return with_inputs(*node, std::move(inputs));
  }
  for (size_t side = 0; side < 2; ++side) {
    DslPlanRef in = rewrite(node->inputs[side], s);
    if (!in) continue;
    std::vector<DslPlanRef> inputs = node->inputs;
    inputs[side] = in;
    return with_inputs(*node, std::move(inputs));
  }
  return nullptr;
}

}  // namespace

std::optional<SharedSubqueryInput> share_subquery_input(const LazyFrame& outer, const LazyFrame& inner,
                                                        const std::vector<Expr>& inner_keys,
                                                        const std::vector<Expr>& outer_keys) {
  if (inner_keys.empty() || inner_keys.size() != outer_keys.size()) return std::nullopt;
  Search s{inner.plan(), inner_keys, outer_keys, nullptr, nullptr, {}};
  DslPlanRef rewritten = rewrite(outer.plan(), s);
  if (!rewritten) return std::nullopt;
  // X keeps T's rows whose key R has: at most R's rows among T's distinct keys.
  const double t_rows = estimate_rows(inner);
  double t_keys = t_rows;
  if (auto stats = source_column_stats(inner, s.t_key); stats && stats->distinct_bound)
    t_keys = std::max(1.0, std::min(t_keys, *stats->distinct_bound));
  const double x_rows = t_rows * std::min(1.0, estimate_rows(LazyFrame(s.rest)) / t_keys);
  if (x_rows * kMinReduction > t_rows) return std::nullopt;
  return SharedSubqueryInput{LazyFrame(rewritten), LazyFrame(s.semi)};
}

}  // namespace frazil::sql
