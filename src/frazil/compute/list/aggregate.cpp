#include "frazil/compute/list/aggregate.hpp"

#include "frazil/compute/cumulative.hpp"
#include "frazil/compute/list/list_util.hpp"

namespace frazil::compute {

using list_detail::Lists;

Groups list_groups(const Array& list) {
  Lists l(list, "list aggregation");
  Groups g;
  g.group_ids.resize(static_cast<size_t>(l.values()->length()));
  g.first_rows.resize(static_cast<size_t>(l.size()), kNullIdx);
  for (int64_t i = 0; i < l.size(); ++i) {
    if (l.len(i)) g.first_rows[static_cast<size_t>(i)] = static_cast<IdxSize>(l.start(i));
    for (int64_t k = l.start(i); k < l.end(i); ++k) g.group_ids[static_cast<size_t>(k)] = static_cast<IdxSize>(i);
  }
  return g;
}

namespace {

// `result` (one row per list) null where the list is null.
ArrayRef null_where_list_null(ArrayRef result, const Array& list) {
  if (list.null_count() == 0) return result;
  const int64_t n = list.length();
  ValidityBuilder v;
  for (int64_t i = 0; i < n; ++i) v.push(list.is_valid(i) && result->is_valid(i));
  const int64_t nulls = v.null_count();
  return result->with_validity(v.finish(), nulls);
}

}  // namespace

ArrayRef list_aggregate(AggKind kind, const Array& list, const AggOptions& options) {
  if (list.dtype().is_null()) return make_null_array(agg_result_dtype(kind, DataType::null()), list.length());
  Lists l(list, agg_name(kind));
  Groups g = list_groups(list);
  return null_where_list_null(aggregate_grouped(kind, *l.values(), g, options), list);
}

ArrayRef list_reduce(StatKind kind, const Array& list, const StatOptions& options) {
  if (list.dtype().is_null()) return make_null_array(stat_dtype(kind, DataType::null()), list.length());
  Lists l(list, stat_name(kind));
  Groups g = list_groups(list);
  return null_where_list_null(reduce_grouped(kind, *l.values(), g, options), list);
}

ArrayRef list_diff(const Array& list, int64_t n) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.diff");
  std::vector<int64_t> seg(static_cast<size_t>(l.size()) + 1, 0);
  for (int64_t i = 0; i < l.size(); ++i) seg[static_cast<size_t>(i) + 1] = l.end(i);
  ArrayRef child = diff(*l.values(), seg, n);
  Buffer off = Buffer::allocate(seg.size() * sizeof(int64_t));
  std::memcpy(off.mutable_data(), seg.data(), seg.size() * sizeof(int64_t));
  ValidityBuilder v;
  for (int64_t i = 0; i < l.size(); ++i) v.push(l.valid(i));
  const int64_t nulls = v.null_count();
  DataType dt = DataType::list(child->dtype());
  return Array::make(std::move(dt), l.size(), v.finish(), {std::move(off)}, {std::move(child)}, 0, nulls);
}

}  // namespace frazil::compute
