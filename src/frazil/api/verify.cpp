#include "frazil/api/verify.hpp"

#include "frazil/api/result_order.hpp"

#include <algorithm>
#include <cmath>

#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/env.hpp"
#include "frazil/core/error.hpp"

namespace frazil {

using plan::IR;
using plan::IRKind;
using plan::Node;

VerifyMode verify_mode_from_env() {
  auto v = env_choice("FRAZIL_VERIFY", {"0", "false", "no", "off", "1", "true", "yes", "on", "passes"});
  if (!v || *v == "0" || *v == "false" || *v == "no" || *v == "off") return VerifyMode::Off;
  return *v == "passes" ? VerifyMode::EachPass : VerifyMode::Unoptimized;
}

namespace {

ResultOrder node_order(const IR& ir, ResultOrder in) {
  // Without maintain_order the groups (distinct rows) come in any order; with it, in
  // first-appearance order, which is only defined when the input's order is.
  if (const auto* g = ir.get_if<plan::GroupByNode>()) {
    if (in == ResultOrder::Count) return in;
    return g->maintain_order ? in : ResultOrder::Rows;
  }
  if (const auto* d = ir.get_if<plan::DistinctNode>()) {
    if (in == ResultOrder::Count) return in;
    return d->maintain_order ? in : ResultOrder::Rows;
  }
  switch (ir.kind()) {
    case IRKind::Slice: return in == ResultOrder::Defined ? in : ResultOrder::Count;
    // Row indices numbered in an undefined order are themselves undefined.
    case IRKind::RowIndex: return in == ResultOrder::Defined ? in : ResultOrder::Count;
    default: return in;  // a sort of rows in any order gives them in key order, up to ties
  }
}

}  // namespace

ResultOrder result_order(Node root, const plan::IRArena& lp) {
  // Post-order over an explicit stack: plans can be thousands of nodes deep.
  std::vector<int> order(lp.size(), -1);
  std::vector<std::pair<Node, bool>> stack{{root, false}};
  while (!stack.empty()) {
    auto [n, expanded] = stack.back();
    stack.pop_back();
    if (order[n.idx] >= 0) continue;
    const IR& ir = lp.get(n);
    if (!expanded) {
      stack.push_back({n, true});
      for (Node in : ir.inputs)
        if (order[in.idx] < 0) stack.push_back({in, false});
      continue;
    }
    ResultOrder in = ResultOrder::Defined;
    for (Node i : ir.inputs) in = std::max(in, static_cast<ResultOrder>(order[i.idx]));
    order[n.idx] = static_cast<int>(node_order(ir, in));
  }
  return static_cast<ResultOrder>(order[root.idx]);
}

namespace {

bool close(double a, double b, double rel_tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;  // also inf == inf and -0.0 == 0.0
  if (std::isinf(a) || std::isinf(b)) return false;
  return std::fabs(a - b) <= rel_tol * std::max(std::fabs(a), std::fabs(b)) + 1e-300;
}

bool same_value(const Scalar& a, const Scalar& b, double rel_tol);

bool same_arrays(const Array& a, const Array& b, double rel_tol) {
  if (a.length() != b.length()) return false;
  for (int64_t i = 0; i < a.length(); ++i)
    if (!same_value(array_get(a, i), array_get(b, i), rel_tol)) return false;
  return true;
}

bool same_value(const Scalar& a, const Scalar& b, double rel_tol) {
  if (a.is_null() || b.is_null()) return a.is_null() && b.is_null();
  if (a.dtype().is_float() && b.dtype().is_float()) return close(a.as_double(), b.as_double(), rel_tol);
  if (a.dtype().id() == TypeId::List && b.dtype().id() == TypeId::List)
    return same_arrays(*a.as_list(), *b.as_list(), rel_tol);
  if (a.dtype().id() == TypeId::Struct && b.dtype().id() == TypeId::Struct) {
    const auto& x = a.as_struct();
    const auto& y = b.as_struct();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!same_value(x[i], y[i], rel_tol)) return false;
    return true;
  }
  return a == b;
}

// The rows of `df` sorted by every column that can be sorted (a canonical order for
// comparing two results as multisets).
DataFrame canonical_rows(const DataFrame& df) {
  std::vector<ArrayRef> keys;
  for (const auto& c : df.columns()) {
    const TypeId id = c.dtype().id();
    if (id != TypeId::List && id != TypeId::Struct && !c.dtype().is_null()) keys.push_back(c.as_array());
  }
  if (keys.empty() || df.height() < 2) return df;
  compute::SortOptions opts;
  opts.descending = {false};
  opts.nulls_last = {false};
  opts.stable = true;
  return compute::take_frame(df, compute::arg_sort(keys, opts));
}

}  // namespace

std::optional<std::string> result_difference(const DataFrame& expected, const DataFrame& got, ResultOrder order,
                                             double rel_tol) {
  if (expected.names() != got.names())
    return err_msg("the columns differ: ", expected.schema().to_string(), " vs ", got.schema().to_string());
  for (size_t c = 0; c < expected.width(); ++c)
    if (expected.column(c).dtype() != got.column(c).dtype())
      return err_msg("column '", expected.column(c).name(), "' is ", expected.column(c).dtype(), " vs ",
                     got.column(c).dtype());
  if (expected.height() != got.height()) return err_msg(expected.height(), " rows vs ", got.height());
  if (order == ResultOrder::Count) return std::nullopt;
  const DataFrame a = order == ResultOrder::Rows ? canonical_rows(expected) : expected;
  const DataFrame b = order == ResultOrder::Rows ? canonical_rows(got) : got;
  for (size_t c = 0; c < a.width(); ++c) {
    const ArrayRef x = a.column(c).as_array(), y = b.column(c).as_array();
    for (int64_t i = 0; i < a.height(); ++i) {
      const Scalar u = array_get(*x, i), v = array_get(*y, i);
      if (!same_value(u, v, rel_tol))
        return err_msg(order == ResultOrder::Rows ? "sorted row " : "row ", i, " of column '", a.column(c).name(),
                       "': ", u.to_string(), " vs ", v.to_string());
    }
  }
  return std::nullopt;
}

}  // namespace frazil
