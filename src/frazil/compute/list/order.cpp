#include "frazil/compute/list/order.hpp"

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/list/list_util.hpp"
#include "frazil/compute/sort.hpp"

namespace frazil::compute {

using list_detail::ListGather;
using list_detail::Lists;

namespace {

// The row of each element, as a UInt32 array aligned with the elements.
ArrayRef element_rows(const Lists& l) {
  const int64_t m = l.values()->length();
  Buffer ids = Buffer::allocate(static_cast<size_t>(m) * sizeof(uint32_t));
  auto* p = ids.mutable_as<uint32_t>();
  for (int64_t i = 0; i < l.size(); ++i)
    for (int64_t k = l.start(i); k < l.end(i); ++k) p[k] = static_cast<uint32_t>(i);
  return Array::make(DataType::uint32(), m, Buffer(), {std::move(ids)});
}

// The list rebuilt from `order` (element positions grouped by row, rows ascending).
ArrayRef from_row_order(const Lists& l, const std::vector<IdxSize>& order, const uint32_t* row_of) {
  ListGather g(l.size());
  size_t k = 0;
  for (int64_t i = 0; i < l.size(); ++i) {
    while (k < order.size() && row_of[order[k]] == static_cast<uint32_t>(i)) g.push(order[k++]);
    g.end_row(l.valid(i));
  }
  return g.finish(*l.values());
}

}  // namespace

ArrayRef list_sort(const Array& list, bool descending, bool nulls_last) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.sort");
  ArrayRef rows = element_rows(l);
  SortOptions o;
  o.descending = {false, descending};
  o.nulls_last = {false, nulls_last};
  o.stable = true;
  std::vector<IdxSize> order = arg_sort({rows, l.values()}, o);
  return from_row_order(l, order, rows->values<uint32_t>());
}

ArrayRef list_unique(const Array& list) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.unique");
  ArrayRef rows = element_rows(l);
  Groups g = group_rows({rows, l.values()});
  // first_rows are in order of first appearance: ascending, so grouped by row.
  std::vector<IdxSize> order(g.first_rows.begin(), g.first_rows.end());
  return from_row_order(l, order, rows->values<uint32_t>());
}

}  // namespace frazil::compute
