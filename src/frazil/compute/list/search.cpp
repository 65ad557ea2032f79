#include "frazil/compute/list/search.hpp"

#include <unordered_map>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/list/list_util.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::compute {

using list_detail::broadcast_length;
using list_detail::ListGather;
using list_detail::Lists;

namespace {

// `item` in the list's inner dtype (strings stay strings only for a String list).
ArrayRef item_as_inner(const Lists& l, const Array& item, const char* what) {
  if (item.dtype() == l.inner() || item.dtype().is_null()) return item.dtype().is_null() ? make_null_array(l.inner(), item.length()) : detail::share(item);
  if (l.inner().is_null()) return detail::share(item);
  if (item.dtype().is_string() != l.inner().is_string() && !item.dtype().is_null())
    throw InvalidOperationError(err_msg("'", what, "' is not supported for a ", item.dtype(), " item in a list of ",
                                        l.inner()));
  return cast(item, l.inner(), false);
}

template <typename F>
void for_matches(const Array& list, const Array& item, const char* what, F&& f) {
  // A string looked for in a list of Categorical/Enum is compared with the categories'
  // strings, as Polars does (a string outside the categories matches nothing).
  if (list.dtype().is_list_like() && list.dtype().inner().is_categorical() && item.dtype().is_string()) {
    ArrayRef strings = cast(list, strings_for_categories(list.dtype()));
    for_matches(*strings, item, what, std::forward<F>(f));
    return;
  }
  Lists l(list, what);
  ArrayRef it = item_as_inner(l, item, what);
  const bool comparable = it->dtype() == l.values()->dtype();
  const int64_t n = broadcast_length(l.size(), it->length(), what);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const int64_t j = it->length() == 1 ? 0 : i;
    if (!l.valid(r)) {
      f(i, -1, it->is_valid(j));
      continue;
    }
    int64_t count = 0;
    if (comparable)
      for (int64_t k = l.start(r); k < l.end(r); ++k) count += values_equal(*l.values(), k, *it, j);
    else if (!it->is_valid(j))
      for (int64_t k = l.start(r); k < l.end(r); ++k) count += l.values()->is_null(k);
    f(i, count, it->is_valid(j));
  }
}

}  // namespace

ArrayRef list_contains(const Array& list, const Array& item, bool nulls_equal) {
  if (list.dtype().is_null()) return make_null_array(DataType::boolean(), std::max(list.length(), item.length()));
  BooleanBuilder out;
  for_matches(list, item, "list.contains", [&](int64_t, int64_t count, bool item_valid) {
    if (count < 0 || (!item_valid && !nulls_equal)) out.push_null();
    else out.push(count > 0);
  });
  return out.finish();
}

ArrayRef list_count_matches(const Array& list, const Array& item) {
  if (list.dtype().is_null()) return make_null_array(DataType::uint32(), std::max(list.length(), item.length()));
  PrimitiveBuilder<uint32_t> out(DataType::uint32());
  for_matches(list, item, "list.count_matches", [&](int64_t, int64_t count, bool) {
    if (count < 0) out.push_null();
    else out.push(static_cast<uint32_t>(count));
  });
  return out.finish();
}

ArrayRef list_join(const Array& list, const Array& separator, bool ignore_nulls) {
  if (list.dtype().is_null()) return make_null_array(DataType::string(), list.length());
  Lists l(list, "list.join");
  if (!l.inner().is_string() && !l.inner().is_null())
    throw InvalidOperationError(err_msg("list.join operation not supported for dtype `", list.dtype().short_name(),
                                        "`: expected a list of strings"));
  if (!separator.dtype().is_string() && !separator.dtype().is_null())
    throw InvalidOperationError(err_msg("list.join: the separator must be a String, got ", separator.dtype()));
  const int64_t n = broadcast_length(l.size(), separator.length(), "list.join");
  const Array& v = *l.values();
  const bool null_inner = l.inner().is_null();
  ViewBuilder out(DataType::string(), n);
  std::string buf;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const int64_t j = separator.length() == 1 ? 0 : i;
    if (!l.valid(r) || separator.is_null(j)) {
      out.push_null();
      continue;
    }
    const std::string_view sep = separator.str_value(j);
    buf.clear();
    bool null_row = false;
    bool first = true;
    for (int64_t k = l.start(r); k < l.end(r); ++k) {
      if (null_inner || v.is_null(k)) {
        if (ignore_nulls) continue;
        null_row = true;
        break;
      }
      if (!first) buf += sep;
      first = false;
      buf += v.str_value(k);
    }
    if (null_row) out.push_null();
    else out.push(buf);
  }
  return out.finish();
}

ArrayRef list_set_operation(SetOp op, const Array& left, const Array& right) {
  const int64_t n0 = std::max(left.length(), right.length());
  if (left.dtype().is_null() || right.dtype().is_null()) {
    const Array& other = left.dtype().is_null() ? right : left;
    return make_null_array(other.dtype().is_null() ? DataType::null() : other.dtype(), n0);
  }
  if (left.dtype().id() != TypeId::List || right.dtype().id() != TypeId::List)
    throw InvalidOperationError(err_msg("set operations need two lists, got ", left.dtype(), " and ", right.dtype()));
  auto st = get_supertype(left.dtype().inner(), right.dtype().inner());
  if (!st)
    throw SchemaError(err_msg("failed to determine supertype of ", left.dtype(), " and ", right.dtype(),
                              " in a list set operation"));
  const DataType lt = DataType::list(*st);
  ArrayRef a = left.dtype() == lt ? detail::share(left) : cast(left, lt);
  ArrayRef b = right.dtype() == lt ? detail::share(right) : cast(right, lt);
  Lists la(*a, "list set operation");
  Lists lb(*b, "list set operation");
  const int64_t n = broadcast_length(la.size(), lb.size(), "list set operation");
  const int64_t na = la.values()->length();
  ArrayRef values = concat_arrays({la.values(), lb.values()});
  std::vector<uint64_t> h(static_cast<size_t>(values->length()));
  hash_array(*values, h.data(), false);
  ListGather g(n);
  std::unordered_multimap<uint64_t, IdxSize> seen_a, seen_b, out;
  auto find = [&](const std::unordered_multimap<uint64_t, IdxSize>& m, IdxSize k) {
    auto [lo, hi] = m.equal_range(h[k]);
    for (auto it = lo; it != hi; ++it)
      if (values_equal(*values, it->second, *values, k)) return true;
    return false;
  };
  auto emit = [&](IdxSize k) {
    if (find(out, k)) return;
    out.emplace(h[k], k);
    g.push(k);
  };
  for (int64_t i = 0; i < n; ++i) {
    const int64_t ra = la.size() == 1 ? 0 : i;
    const int64_t rb = lb.size() == 1 ? 0 : i;
    const bool valid = la.valid(ra) && lb.valid(rb);
    if (valid) {
      seen_a.clear();
      seen_b.clear();
      out.clear();
      const IdxSize a0 = static_cast<IdxSize>(la.start(ra)), a1 = static_cast<IdxSize>(la.end(ra));
      const IdxSize b0 = static_cast<IdxSize>(na + lb.start(rb)), b1 = static_cast<IdxSize>(na + lb.end(rb));
      for (IdxSize k = a0; k < a1; ++k) seen_a.emplace(h[k], k);
      for (IdxSize k = b0; k < b1; ++k) seen_b.emplace(h[k], k);
      switch (op) {
        case SetOp::Union:
          for (IdxSize k = a0; k < a1; ++k) emit(k);
          for (IdxSize k = b0; k < b1; ++k) emit(k);
          break;
        case SetOp::Intersection:
          for (IdxSize k = a0; k < a1; ++k)
            if (find(seen_b, k)) emit(k);
          break;
        case SetOp::Difference:
          for (IdxSize k = a0; k < a1; ++k)
            if (!find(seen_b, k)) emit(k);
          break;
        case SetOp::SymmetricDifference:
          for (IdxSize k = a0; k < a1; ++k)
            if (!find(seen_b, k)) emit(k);
          for (IdxSize k = b0; k < b1; ++k)
            if (!find(seen_a, k)) emit(k);
          break;
      }
    }
    g.end_row(valid);
  }
  return g.finish(*values);
}

}  // namespace frazil::compute
