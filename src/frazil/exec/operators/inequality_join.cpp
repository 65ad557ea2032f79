#include "frazil/exec/operators/inequality_join.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"
#include "frazil/plan/expr/rewrite.hpp"

namespace frazil::exec {

namespace {

using compute::IdxSize;

ArrayRef evaluate(const plan::ExprIR& e, const plan::ExprArena& ea, const Schema& schema, const DataFrame& df) {
  physical::ExecState state;
  auto expr = physical::create_physical_expr(e, ea, schema);
  return physical::broadcast_to(expr->evaluate(df, state), df.height()).as_array();
}

// Keys as doubles or int64 (a pair of sides in one representation), nulls apart.
struct Keys {
  std::vector<double> f;
  std::vector<int64_t> i;
  std::vector<bool> valid;
  bool is_float = false;
};

ArrayRef physical(const ArrayRef& a) {
  const DataType& t = a->dtype();
  return t.is_temporal() ? a->with_dtype(t.physical()) : a;
}

std::pair<Keys, Keys> key_pair(const ArrayRef& l_in, const ArrayRef& r_in) {
  ArrayRef l = physical(l_in), r = physical(r_in);
  const bool is_float = l->dtype().is_float() || r->dtype().is_float();
  const DataType to = is_float ? DataType::float64() : DataType::int64();
  if (l->dtype() != to) l = compute::cast(*l, to);
  if (r->dtype() != to) r = compute::cast(*r, to);
  auto fill = [&](const Array& a) {
    Keys k;
    k.is_float = is_float;
    k.valid.resize(static_cast<size_t>(a.length()));
    for (int64_t i = 0; i < a.length(); ++i) k.valid[i] = a.is_valid(i);
    if (is_float) k.f.assign(a.values<double>(), a.values<double>() + a.length());
    else k.i.assign(a.values<int64_t>(), a.values<int64_t>() + a.length());
    return k;
  };
  return {fill(*l), fill(*r)};
}

// a op b on one representation; NaN compares as the largest value, equal to itself.
template <typename T>
bool holds(T a, T b, const std::string& op) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool an = std::isnan(a), bn = std::isnan(b);
    if (an || bn) {
      const int c = an && bn ? 0 : an ? 1 : -1;
      return op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0;
    }
  }
  return op == "<" ? a < b : op == "<=" ? a <= b : op == ">" ? a > b : a >= b;
}

bool holds_at(const Keys& l, int64_t i, const Keys& r, int64_t j, const std::string& op) {
  if (!l.valid[i] || !r.valid[j]) return false;
  return l.is_float ? holds(l.f[i], r.f[j], op) : holds(l.i[i], r.i[j], op);
}

DataFrame assemble(const DataFrame& left, const DataFrame& right, const std::vector<IdxSize>& li,
                   const std::vector<IdxSize>& ri, const Schema& out_schema) {
  const DataFrame l = compute::take_frame(left, li), r = compute::take_frame(right, ri);
  std::vector<Column> cols;
  for (const auto& c : l.columns()) cols.push_back(c);
  for (const auto& c : r.columns()) cols.push_back(c);
  FRAZIL_CHECK_EQ(cols.size(), out_schema.size());
  for (size_t i = 0; i < cols.size(); ++i) cols[i] = cols[i].rename(out_schema.field(i).name);
  if (cols.empty()) return DataFrame::empty_with_height(static_cast<int64_t>(li.size()));
  return DataFrame(std::move(cols));
}

DataFrame ie_join(const plan::InequalityJoinNode& j, const DataFrame& left, const DataFrame& right,
                  const Schema& ls, const Schema& rs, const Schema& out, const plan::ExprArena& ea) {
  std::vector<std::pair<Keys, Keys>> keys;
  for (size_t k = 0; k < j.left_on.size(); ++k)
    keys.push_back(key_pair(evaluate(j.left_on[k], ea, ls, left), evaluate(j.right_on[k], ea, rs, right)));
  const Keys& l0 = keys[0].first;
  const Keys& r0 = keys[0].second;
  // The right rows with a first key, in its order (NaN last).
  std::vector<IdxSize> order;
  for (int64_t r = 0; r < right.height(); ++r)
    if (r0.valid[r]) order.push_back(static_cast<IdxSize>(r));
  auto less = [&](IdxSize a, IdxSize b) { return holds_at(r0, a, r0, b, "<"); };
  std::stable_sort(order.begin(), order.end(), less);
  // A lower and an upper bound on one right expression (lo <= r < hi) bound the run at both
  // ends: the second inequality needs no test per pair.
  // (Both bounds compared in one representation, as the sorted keys.)
  const bool both_ends = keys.size() == 2 && expr_equal(j.right_on[0].node(), j.right_on[1].node(), ea) &&
                         keys[0].first.is_float == keys[1].first.is_float;
  std::vector<IdxSize> li, ri;
  for (int64_t i = 0; i < left.height(); ++i) {
    if (!l0.valid[i]) continue;
    // The run of sorted right rows r with left op r: above the left key for < and <=,
    // below it for > and >=.
    auto lo = order.begin(), hi = order.end();
    auto narrow = [&](const Keys& l, const std::string& op) {
      auto below = [&](IdxSize r) { return holds_at(r0, r, l, i, "<"); };     // r < l
      auto at_most = [&](IdxSize r) { return holds_at(r0, r, l, i, "<="); };  // r <= l
      if (op == "<") lo = std::max(lo, std::partition_point(order.begin(), order.end(), at_most));
      else if (op == "<=") lo = std::max(lo, std::partition_point(order.begin(), order.end(), below));
      else if (op == ">") hi = std::min(hi, std::partition_point(order.begin(), order.end(), below));
      else hi = std::min(hi, std::partition_point(order.begin(), order.end(), at_most));
    };
    narrow(l0, j.ops[0]);
    if (both_ends) {
      if (!keys[1].first.valid[i]) continue;
      narrow(keys[1].first, j.ops[1]);
    }
    for (auto it = lo; it < hi; ++it) {
      bool ok = true;
      for (size_t k = both_ends ? 2 : 1; k < keys.size() && ok; ++k)
        ok = holds_at(keys[k].first, i, keys[k].second, *it, j.ops[k]);
      if (!ok) continue;
      li.push_back(static_cast<IdxSize>(i));
      ri.push_back(*it);
    }
  }
  return assemble(left, right, li, ri, out);
}

DataFrame nested_loop(const plan::InequalityJoinNode& j, const DataFrame& left, const DataFrame& right,
                      const Schema& out, const plan::ExprArena& ea) {
  const int64_t nr = right.height();
  std::vector<DataFrame> parts;
  if (nr == 0 || left.height() == 0) return assemble(left, right, {}, {}, out);
  auto pred = physical::create_physical_expr(*j.predicate, ea, out);
  // About a million pairs per block.
  const int64_t block = std::max<int64_t>(1, (1 << 20) / nr);
  for (int64_t lo = 0; lo < left.height(); lo += block) {
    const int64_t hi = std::min(left.height(), lo + block);
    std::vector<IdxSize> li, ri;
    for (int64_t i = lo; i < hi; ++i)
      for (int64_t r = 0; r < nr; ++r) {
        li.push_back(static_cast<IdxSize>(i));
        ri.push_back(static_cast<IdxSize>(r));
      }
    DataFrame pairs = assemble(left, right, li, ri, out);
    physical::ExecState state;
    const ArrayRef mask = physical::broadcast_to(pred->evaluate(pairs, state), pairs.height()).as_array();
    parts.push_back(compute::filter_frame(pairs, *mask));
  }
  return concat_frames(parts);
}

}  // namespace

DataFrame execute_inequality_join(const plan::IR& ir, const DataFrame& left_in, const DataFrame& right_in,
                                  const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea) {
  const auto& j = ir.as<plan::InequalityJoinNode>();
  const DataFrame left = left_in.rechunk(), right = right_in.rechunk();
  if (j.nested_loop) return nested_loop(j, left, right, *ir.schema, ea);
  return ie_join(j, left, right, left_schema, right_schema, *ir.schema, ea);
}

}  // namespace frazil::exec
