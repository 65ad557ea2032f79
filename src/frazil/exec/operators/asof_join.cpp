#include "frazil/exec/operators/asof_join.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <type_traits>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/core/warnings.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"
#include "frazil/plan/conversion/asof_join.hpp"

namespace frazil::exec {

namespace asof {

namespace {

using compute::IdxSize;
using compute::kNullIdx;
using dsl::AsofStrategy;

// Total order: NaN after every number and equal to itself, -0.0 equal to 0.0 (Polars).
template <typename T>
inline bool lt(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return false;
    if (std::isnan(b)) return true;
  }
  return a < b;
}
template <typename T>
inline bool eq(T a, T b) {
  return !lt(a, b) && !lt(b, a);
}

// |a - b| compared without overflow: unsigned for integers.
template <typename T>
inline auto distance(T a, T b) {
  if constexpr (std::is_same_v<T, std::string_view>) {
    return static_cast<uint64_t>(0);  // never asked: strings have no nearest or tolerance
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(static_cast<double>(a) - static_cast<double>(b));
  } else {
    return a >= b ? static_cast<uint64_t>(a) - static_cast<uint64_t>(b)
                  : static_cast<uint64_t>(b) - static_cast<uint64_t>(a);
  }
}

// One group's right keys, and where the last left key of the range stood in them: `lb` is
// the first key >= it, `ub` the first key > it (each kept only when the strategy reads it).
// Both only move forward while left keys ascend.
template <typename T>
struct Cursor {
  const T* keys = nullptr;
  int64_t n = 0;
  int64_t lb = 0, ub = 0;
  T last{};
  bool placed = false;
  bool want_lb = true, want_ub = true;

  void reset(const T* k, int64_t len) {
    keys = k;
    n = len;
    placed = false;
  }
  void seek(T x) {
    if (!placed || lt(x, last)) {
      if (want_lb) lb = std::lower_bound(keys, keys + n, x, lt<T>) - keys;
      if (want_ub) ub = std::upper_bound(keys + (want_lb ? lb : 0), keys + n, x, lt<T>) - keys;
      placed = true;
    } else {
      if (want_lb)
        while (lb < n && lt(keys[lb], x)) ++lb;
      if (want_ub) {
        if (want_lb && ub < lb) ub = lb;
        while (ub < n && !lt(x, keys[ub])) ++ub;
      }
    }
    last = x;
  }
  // The end of the run of keys equal to keys[i].
  int64_t run_end(int64_t i) const {
    int64_t j = i + 1;
    while (j < n && eq(keys[j], keys[i])) ++j;
    return j;
  }
};

template <typename T>
int64_t find(Cursor<T>& c, T x, const dsl::AsofJoinOptions& o) {
  c.seek(x);
  const bool exact = o.allow_exact_matches;
  int64_t m = -1;
  switch (o.strategy) {
    case AsofStrategy::Backward: m = (exact ? c.ub : c.lb) - 1; break;
    case AsofStrategy::Forward: m = exact ? c.lb : c.ub; break;
    case AsofStrategy::Nearest: {
      if (exact && c.ub > c.lb) {
        m = c.ub - 1;  // an equal key: the last of them
        break;
      }
      const int64_t below = c.lb - 1;                              // the last key < x
      const int64_t above = c.ub < c.n ? c.run_end(c.ub) - 1 : -1;  // the last of the first keys > x
      if (below < 0) m = above;
      else if (above < 0) m = below;
      else m = distance(c.keys[above], x) <= distance(x, c.keys[below]) ? above : below;
      break;
    }
  }
  if (m < 0 || m >= c.n) return -1;
  if (o.tolerance && !(static_cast<double>(distance(x, c.keys[m])) <= *o.tolerance)) return -1;
  return m;
}

// Backward or forward over ascending left keys and one group: a merge whose only branch is
// the loop's, writing for left[lo, hi) the position of the first right key > x (`upper`) or
// >= x, then turning it into the match.
template <typename T>
void merge_range(const T* left, int64_t lo, int64_t hi, const T* right, int64_t n, bool upper,
                 const dsl::AsofJoinOptions& o, IdxSize* out) {
  int64_t j = upper ? std::upper_bound(right, right + n, left[lo], lt<T>) - right
                    : std::lower_bound(right, right + n, left[lo], lt<T>) - right;
  int64_t i = lo;
  while (i < hi) {
    const T x = left[i];
    const bool step = j < n && (upper ? !lt(x, right[j]) : lt(right[j], x));
    j += step;
    out[i] = static_cast<IdxSize>(j);
    i += !step;
  }
  const bool backward = o.strategy == AsofStrategy::Backward;
  for (i = lo; i < hi; ++i) {
    int64_t m = backward ? static_cast<int64_t>(out[i]) - 1 : static_cast<int64_t>(out[i]);
    if (m < 0 || m >= n || (o.tolerance && !(static_cast<double>(distance(left[i], right[m])) <= *o.tolerance)))
      m = -1;
    out[i] = m < 0 ? kNullIdx : static_cast<IdxSize>(m);
  }
}

}  // namespace

template <typename T>
std::vector<IdxSize> match(const T* left, int64_t n_left, const T* right, int64_t n_right, const IdxSize* left_groups,
                           const IdxSize* right_groups, size_t n_groups, const dsl::AsofJoinOptions& options,
                           bool left_sorted) {
  std::vector<IdxSize> out(static_cast<size_t>(n_left), kNullIdx);
  if (n_left == 0 || n_groups == 0) return out;
  constexpr int64_t kRange = 1 << 16;
  if (left_sorted && !left_groups && !right_groups && options.strategy != AsofStrategy::Nearest) {
    const bool exact = options.allow_exact_matches;
    const bool upper = options.strategy == AsofStrategy::Backward ? exact : !exact;
    const size_t parts = static_cast<size_t>((n_left + kRange - 1) / kRange);
    parallel_for(parts, [&](size_t p) {
      const int64_t lo = static_cast<int64_t>(p) * kRange, hi = std::min(n_left, lo + kRange);
      merge_range(left, lo, hi, right, n_right, upper, options, out.data());
    });
    return out;
  }
  // The right rows bucketed by group, in order (keys and their row numbers).
  std::vector<int64_t> starts(n_groups + 1, 0);
  std::vector<T> rkeys;
  std::vector<IdxSize> rrows;
  const T* rk = right;
  if (right_groups) {
    for (int64_t j = 0; j < n_right; ++j)
      if (right_groups[j] != kNullIdx) ++starts[right_groups[j] + 1];
    for (size_t g = 0; g < n_groups; ++g) starts[g + 1] += starts[g];
    rkeys.resize(static_cast<size_t>(starts[n_groups]));
    rrows.resize(rkeys.size());
    std::vector<int64_t> fill(starts.begin(), starts.end() - 1);
    for (int64_t j = 0; j < n_right; ++j) {
      const IdxSize g = right_groups[j];
      if (g == kNullIdx) continue;
      rkeys[fill[g]] = right[j];
      rrows[fill[g]++] = static_cast<IdxSize>(j);
    }
    rk = rkeys.data();
  } else {
    starts.assign({0, n_right});
  }
  // The left rows grouped the same way (stable), unless there is one group and no nulls.
  std::vector<IdxSize> lperm;
  int64_t n_work = n_left;
  if (left_groups) {
    std::vector<int64_t> lstarts(n_groups + 1, 0);
    for (int64_t i = 0; i < n_left; ++i)
      if (left_groups[i] != kNullIdx) ++lstarts[left_groups[i] + 1];
    for (size_t g = 0; g < n_groups; ++g) lstarts[g + 1] += lstarts[g];
    lperm.resize(static_cast<size_t>(lstarts[n_groups]));
    for (int64_t i = 0; i < n_left; ++i)
      if (left_groups[i] != kNullIdx) lperm[lstarts[left_groups[i]]++] = static_cast<IdxSize>(i);
    n_work = static_cast<int64_t>(lperm.size());
  }
  // Ranges of the (grouped) left rows, one cursor each.
  const size_t parts = static_cast<size_t>(std::max<int64_t>(1, (n_work + kRange - 1) / kRange));
  parallel_for(parts, [&](size_t p) {
    const int64_t lo = static_cast<int64_t>(p) * kRange, hi = std::min(n_work, lo + kRange);
    Cursor<T> cursor;
    const bool exact = options.allow_exact_matches;
    switch (options.strategy) {
      case AsofStrategy::Backward: cursor.want_lb = !exact, cursor.want_ub = exact; break;
      case AsofStrategy::Forward: cursor.want_lb = exact, cursor.want_ub = !exact; break;
      case AsofStrategy::Nearest: break;
    }
    IdxSize group = kNullIdx;
    for (int64_t w = lo; w < hi; ++w) {
      const int64_t i = left_groups ? lperm[w] : w;
      const IdxSize g = left_groups ? left_groups[i] : 0;
      if (g != group) {
        group = g;
        cursor.reset(rk + starts[g], starts[g + 1] - starts[g]);
      }
      const int64_t m = find(cursor, left[i], options);
      if (m >= 0) out[i] = right_groups ? rrows[starts[g] + m] : static_cast<IdxSize>(m);
    }
  });
  return out;
}

template std::vector<IdxSize> match<int64_t>(const int64_t*, int64_t, const int64_t*, int64_t, const IdxSize*,
                                             const IdxSize*, size_t, const dsl::AsofJoinOptions&, bool);
template std::vector<IdxSize> match<double>(const double*, int64_t, const double*, int64_t, const IdxSize*,
                                            const IdxSize*, size_t, const dsl::AsofJoinOptions&, bool);
template std::vector<IdxSize> match<std::string_view>(const std::string_view*, int64_t, const std::string_view*,
                                                      int64_t, const IdxSize*, const IdxSize*, size_t,
                                                      const dsl::AsofJoinOptions&, bool);

}  // namespace asof

namespace {

using compute::IdxSize;
using compute::kNullIdx;

ArrayRef evaluate_key(const plan::ExprIR& key, const plan::ExprArena& ea, const Schema& schema, const DataFrame& df) {
  physical::ExecState state;
  auto expr = physical::create_physical_expr(key, ea, schema);
  return physical::broadcast_to(expr->evaluate(df, state), df.height()).as_array();
}

// String keys as views into their array (compared bytewise, as Polars).
std::vector<std::string_view> string_keys(const Array& keys) {
  std::vector<std::string_view> out(static_cast<size_t>(keys.length()));
  for (int64_t i = 0; i < keys.length(); ++i)
    if (keys.is_valid(i)) out[i] = keys.str_value(i);
  return out;
}

// The key as the physical numbers it is matched on: Int64 for integers, temporals and
// booleans, Float64 for floats; strings as they are.
ArrayRef physical_key(const ArrayRef& key) {
  DataType t = key->dtype();
  if (t.is_string()) return key;
  ArrayRef a = key;
  if (t.is_temporal()) {
    a = a->with_dtype(t.physical());
    t = a->dtype();
  }
  const DataType to = t.is_float() ? DataType::float64() : DataType::int64();
  return t == to ? a : compute::cast(*a, to);
}

// Sorted as Polars asks: ascending, nulls first.
template <typename T>
bool ascending(const T* v, const Array& keys) {
  if (keys.null_count() == 0) {
    for (int64_t i = 1; i < keys.length(); ++i)
      if (asof::lt(v[i], v[i - 1])) return false;
    return true;
  }
  bool have = false;
  T prev{};
  for (int64_t i = 0; i < keys.length(); ++i) {
    if (keys.is_null(i)) {
      if (have) return false;
      continue;
    }
    if (have && asof::lt(v[i], prev)) return false;
    prev = v[i];
    have = true;
  }
  return true;
}

// Each row's group over the `by` columns of both sides together (kNullIdx: a null key or
// `by` value); nullptr-like empty vectors when every row is in group 0.
struct SideGroups {
  std::vector<IdxSize> left, right;
  size_t n = 1;
};

SideGroups side_groups(const DataFrame& left, const DataFrame& right, const ArrayRef& lkey, const ArrayRef& rkey,
                       const dsl::AsofJoinOptions& o) {
  SideGroups g;
  const int64_t nl = left.height(), nr = right.height();
  std::vector<ArrayRef> lby, rby;
  for (const auto& c : o.left_by) lby.push_back(left.column(c).as_array());
  for (const auto& c : o.right_by) rby.push_back(right.column(c).as_array());
  const bool nulls = lkey->null_count() > 0 || rkey->null_count() > 0;
  if (lby.empty() && !nulls) return g;
  g.left.assign(static_cast<size_t>(nl), 0);
  g.right.assign(static_cast<size_t>(nr), 0);
  if (!lby.empty()) {
    std::vector<ArrayRef> both;
    for (size_t i = 0; i < lby.size(); ++i) both.push_back(concat_arrays({lby[i], rby[i]}));
    compute::Groups groups = compute::group_rows(both);
    g.n = groups.num_groups();
    for (int64_t i = 0; i < nl; ++i) g.left[i] = groups.group_ids[i];
    for (int64_t j = 0; j < nr; ++j) g.right[j] = groups.group_ids[nl + j];
    // A null `by` value matches nothing (Polars: nulls are not equal here).
    for (const auto& a : lby)
      if (a->null_count() > 0)
        for (int64_t i = 0; i < nl; ++i)
          if (a->is_null(i)) g.left[i] = kNullIdx;
    for (const auto& a : rby)
      if (a->null_count() > 0)
        for (int64_t j = 0; j < nr; ++j)
          if (a->is_null(j)) g.right[j] = kNullIdx;
  }
  for (int64_t i = 0; i < nl; ++i)
    if (lkey->is_null(i)) g.left[i] = kNullIdx;
  for (int64_t j = 0; j < nr; ++j)
    if (rkey->is_null(j)) g.right[j] = kNullIdx;
  return g;
}

// Whether the keys ascend within each group (rows of group kNullIdx aside).
template <typename T>
bool ascending_in_groups(const T* keys, const std::vector<IdxSize>& groups, size_t n_groups) {
  std::vector<T> last(n_groups);
  std::vector<bool> seen(n_groups, false);
  for (size_t i = 0; i < groups.size(); ++i) {
    const IdxSize g = groups[i];
    if (g == kNullIdx) continue;
    if (seen[g] && asof::lt(keys[i], last[g])) return false;
    last[g] = keys[i];
    seen[g] = true;
  }
  return true;
}

// Gathers `df`'s rows by index on every core, range by range.
DataFrame gather(const DataFrame& df, const std::vector<IdxSize>& idx) {
  constexpr size_t kRange = 1 << 18;
  const size_t n = idx.size();
  if (n <= kRange || df.width() == 0) return compute::take_frame(df, idx);
  const size_t parts = (n + kRange - 1) / kRange;
  std::vector<DataFrame> out(parts);
  parallel_for(parts, [&](size_t p) {
    const size_t lo = p * kRange, hi = std::min(n, lo + kRange);
    out[p] = compute::take_frame(df, std::vector<IdxSize>(idx.begin() + lo, idx.begin() + hi));
  });
  return concat_frames(out);
}

}  // namespace

DataFrame execute_asof_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right_in,
                            const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea) {
  const auto& node = ir.as<plan::AsofJoinNode>();
  const auto& o = node.options;
  const DataFrame right = right_in.rechunk();
  const ArrayRef lkey_raw = evaluate_key(node.left_on, ea, left_schema, left);
  const ArrayRef rkey_raw = evaluate_key(node.right_on, ea, right_schema, right);
  const ArrayRef lkey = physical_key(lkey_raw), rkey = physical_key(rkey_raw);
  const bool is_float = lkey->dtype().is_float();
  const bool is_string = lkey->dtype().is_string();
  std::vector<std::string_view> lstr, rstr;
  if (is_string) {
    if (o.strategy == dsl::AsofStrategy::Nearest)
      throw InvalidOperationError("asof join with strategy 'nearest' is not supported on String keys");
    lstr = string_keys(*lkey);
    rstr = string_keys(*rkey);
  }
  const bool checked = o.check_sortedness && o.left_by.empty();
  if (checked) {
    const bool sorted = is_string ? ascending(lstr.data(), *lkey) && ascending(rstr.data(), *rkey)
                        : is_float ? ascending(lkey->values<double>(), *lkey) && ascending(rkey->values<double>(), *rkey)
                                   : ascending(lkey->values<int64_t>(), *lkey) && ascending(rkey->values<int64_t>(), *rkey);
    if (!sorted)
      throw InvalidOperationError(
          "argument in operation 'asof_join' is not sorted, please sort the 'expr/series/column' first");
  }
  const SideGroups groups = side_groups(left, right, lkey, rkey, o);
  if (o.check_sortedness && !o.left_by.empty()) {
    // Polars cannot promise a result over groups out of order: it warns.
    const bool sorted =
        is_string  ? ascending_in_groups(lstr.data(), groups.left, groups.n) &&
                         ascending_in_groups(rstr.data(), groups.right, groups.n)
        : is_float ? ascending_in_groups(lkey->values<double>(), groups.left, groups.n) &&
                         ascending_in_groups(rkey->values<double>(), groups.right, groups.n)
                   : ascending_in_groups(lkey->values<int64_t>(), groups.left, groups.n) &&
                         ascending_in_groups(rkey->values<int64_t>(), groups.right, groups.n);
    if (!sorted) add_warning("Sortedness of columns cannot be checked when 'by' groups provided");
  }
  const IdxSize* lg = groups.left.empty() ? nullptr : groups.left.data();
  const IdxSize* rg = groups.right.empty() ? nullptr : groups.right.data();
  const std::vector<IdxSize> idx =
      is_string ? asof::match<std::string_view>(lstr.data(), lkey->length(), rstr.data(), rkey->length(), lg, rg,
                                                groups.n, o, checked)
      : is_float ? asof::match<double>(lkey->values<double>(), lkey->length(), rkey->values<double>(), rkey->length(),
                                     lg, rg, groups.n, o, checked)
               : asof::match<int64_t>(lkey->values<int64_t>(), lkey->length(), rkey->values<int64_t>(),
                                      rkey->length(), lg, rg, groups.n, o, checked);
  // The output: the left rows as they are, the right columns gathered behind them.
  std::vector<Column> right_cols, out;
  std::vector<std::string> names;
  const auto columns = plan::asof_join_columns(left_schema, right_schema, node, ea);
  for (const auto& c : columns) {
    if (!c.from_right) continue;
    right_cols.push_back(c.right_key ? Column(c.input, rkey_raw) : right.column(c.input));
    names.push_back(c.output);
  }
  DataFrame taken = right_cols.empty() ? DataFrame() : gather(DataFrame(std::move(right_cols)), idx);
  for (const auto& c : columns)
    if (!c.from_right) out.push_back(left.column(c.input));
  for (size_t i = 0; i < names.size(); ++i) out.push_back(taken.columns()[i].rename(names[i]));
  if (out.empty()) return DataFrame::empty_with_height(left.height());
  return DataFrame(std::move(out));
}

}  // namespace frazil::exec
