#include "frazil/compute/list/elements.hpp"

#include <algorithm>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/list/list_util.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::compute {

using list_detail::broadcast_length;
using list_detail::IntArg;
using list_detail::ListGather;
using list_detail::Lists;

ArrayRef list_len(const Array& list) {
  if (list.dtype().is_null()) return make_null_array(DataType::uint32(), list.length());
  Lists l(list, "list.len");
  PrimitiveBuilder<uint32_t> out(DataType::uint32(), l.size());
  for (int64_t i = 0; i < l.size(); ++i) {
    if (l.valid(i)) out.push(static_cast<uint32_t>(l.len(i)));
    else out.push_null();
  }
  return out.finish();
}

namespace {

// Polars' slice bounds of a list of `len` elements: [start, stop).
std::pair<int64_t, int64_t> slice_bounds(int64_t offset, std::optional<int64_t> length, int64_t len) {
  const int64_t s = offset < 0 ? offset + len : offset;
  const int64_t stop = !length ? len : (s > 0 && *length > INT64_MAX - s ? INT64_MAX : s + *length);
  const int64_t start = std::clamp<int64_t>(s, 0, len);
  return {start, std::clamp<int64_t>(stop, 0, len)};
}

// A kernel of (list, int argument) -> list row by row: f(gather, start, end, arg) pushes the
// row's elements.
template <typename F>
ArrayRef gather_with_int(const Array& list, const Array& arg, const char* what, F f) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), std::max(list.length(), arg.length()));
  Lists l(list, what);
  IntArg a(arg, what);
  const int64_t n = broadcast_length(l.size(), a.length(), what);
  ListGather g(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const bool valid = l.valid(r) && !a.is_null(i);
    if (valid) f(g, l.start(r), l.end(r), a.get(i));
    g.end_row(valid);
  }
  return g.finish(*l.values());
}

}  // namespace

ArrayRef list_get(const Array& list, const Array& index, bool null_on_oob) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), std::max(list.length(), index.length()));
  Lists l(list, "list.get");
  IntArg a(index, "list.get");
  const int64_t n = broadcast_length(l.size(), a.length(), "list.get");
  std::vector<IdxSize> idx(static_cast<size_t>(n), kNullIdx);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    if (!l.valid(r) || a.is_null(i)) continue;
    const int64_t len = l.len(r);
    const int64_t k = a.get(i);
    const int64_t p = k < 0 ? k + len : k;
    if (p < 0 || p >= len) {
      if (null_on_oob) continue;
      throw ComputeError(err_msg("get index is out of bounds: index ", k, " in row ", i, " of a list of length ", len));
    }
    idx[static_cast<size_t>(i)] = static_cast<IdxSize>(l.start(r) + p);
  }
  return take(*l.values(), idx);
}

ArrayRef list_gather(const Array& list, const Array& indices, bool null_on_oob) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), std::max(list.length(), indices.length()));
  Lists l(list, "list.gather");
  if (indices.dtype().is_null()) return make_null_array(list.dtype(), std::max(list.length(), indices.length()));
  Lists ix(indices, "list.gather");
  if (!ix.inner().is_integer() && !ix.inner().is_null())
    throw InvalidOperationError(err_msg("list.gather expects a list of integers, got ", indices.dtype()));
  IntArg iv(*ix.values(), "list.gather");
  const int64_t n = broadcast_length(l.size(), ix.size(), "list.gather");
  ListGather g(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const int64_t j = ix.size() == 1 ? 0 : i;
    const bool valid = l.valid(r) && ix.valid(j);
    if (valid) {
      const int64_t len = l.len(r);
      for (int64_t k = ix.start(j); k < ix.end(j); ++k) {
        if (iv.is_null(k)) {
          g.push(kNullIdx);
          continue;
        }
        const int64_t q = iv.get(k);
        const int64_t p = q < 0 ? q + len : q;
        if (p < 0 || p >= len) {
          if (null_on_oob) {
            g.push(kNullIdx);
            continue;
          }
          throw OutOfBoundsError(err_msg("gather indices are out of bounds: index ", q, " in row ", i,
                                     " of a list of length ", len));
        }
        g.push(static_cast<IdxSize>(l.start(r) + p));
      }
    }
    g.end_row(valid);
  }
  return g.finish(*l.values());
}

ArrayRef list_gather_every(const Array& list, const Array& n, const Array& offset) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.gather_every");
  IntArg step(n, "list.gather_every");
  IntArg off(offset, "list.gather_every");
  const int64_t rows = broadcast_length(broadcast_length(l.size(), step.length(), "list.gather_every"), off.length(),
                                        "list.gather_every");
  ListGather g(rows);
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const bool valid = l.valid(r) && !step.is_null(i) && !off.is_null(i);
    if (valid) {
      const int64_t s = step.get(i);
      const int64_t o = off.get(i);
      if (s <= 0) throw ComputeError(err_msg("list.gather_every: n must be positive, got ", s));
      if (o < 0) throw ComputeError(err_msg("list.gather_every: offset must be non-negative, got ", o));
      for (int64_t k = l.start(r) + o; k < l.end(r); k += s) g.push(static_cast<IdxSize>(k));
    }
    g.end_row(valid);
  }
  return g.finish(*l.values());
}

ArrayRef list_slice(const Array& list, const Array& offset, const Array& length) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.slice");
  IntArg off(offset, "list.slice");
  IntArg len(length, "list.slice");
  const int64_t n =
      broadcast_length(broadcast_length(l.size(), off.length(), "list.slice"), len.length(), "list.slice");
  ListGather g(n);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = l.size() == 1 ? 0 : i;
    const bool valid = l.valid(r) && !off.is_null(i);
    if (valid) {
      std::optional<int64_t> want;
      if (!len.is_null(i)) want = std::max<int64_t>(len.get(i), 0);
      auto [s, e] = slice_bounds(off.get(i), want, l.len(r));
      g.push_range(l.start(r) + s, l.start(r) + e);
    }
    g.end_row(valid);
  }
  return g.finish(*l.values());
}

ArrayRef list_head(const Array& list, const Array& n) {
  return gather_with_int(list, n, "list.head", [](ListGather& g, int64_t s, int64_t e, int64_t k) {
    const int64_t len = e - s;
    const int64_t take_n = k >= 0 ? std::min(k, len) : len;  // Polars: a negative n keeps the list
    g.push_range(s, s + take_n);
  });
}

ArrayRef list_tail(const Array& list, const Array& n) {
  return gather_with_int(list, n, "list.tail", [](ListGather& g, int64_t s, int64_t e, int64_t k) {
    const int64_t len = e - s;
    const int64_t take_n = k >= 0 ? std::min(k, len) : len;  // Polars: a negative n keeps the list
    g.push_range(e - take_n, e);
  });
}

ArrayRef list_reverse(const Array& list) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.reverse");
  ListGather g(l.size());
  for (int64_t i = 0; i < l.size(); ++i) {
    if (l.valid(i))
      for (int64_t k = l.end(i) - 1; k >= l.start(i); --k) g.push(static_cast<IdxSize>(k));
    g.end_row(l.valid(i));
  }
  return g.finish(*l.values());
}

ArrayRef list_shift(const Array& list, const Array& n) {
  return gather_with_int(list, n, "list.shift", [](ListGather& g, int64_t s, int64_t e, int64_t k) {
    const int64_t len = e - s;
    for (int64_t p = 0; p < len; ++p) {
      const int64_t from = p - k;
      g.push(from >= 0 && from < len ? static_cast<IdxSize>(s + from) : kNullIdx);
    }
  });
}

ArrayRef list_drop_nulls(const Array& list) {
  if (list.dtype().is_null()) return make_null_array(DataType::null(), list.length());
  Lists l(list, "list.drop_nulls");
  const Array& v = *l.values();
  ListGather g(l.size());
  for (int64_t i = 0; i < l.size(); ++i) {
    if (l.valid(i))
      for (int64_t k = l.start(i); k < l.end(i); ++k)
        if (v.is_valid(k)) g.push(static_cast<IdxSize>(k));
    g.end_row(l.valid(i));
  }
  return g.finish(v);
}

ArrayRef concat_list(std::span<const ArrayRef> inputs) {
  if (inputs.empty()) throw ComputeError("concat_list needs at least one input");
  // The inner dtype of the result: the supertype of the lists' inner dtypes and the values.
  DataType inner = DataType::null();
  int64_t n = 1;
  for (const ArrayRef& a : inputs) {
    const DataType& t = a->dtype().id() == TypeId::List ? a->dtype().inner() : a->dtype();
    auto s = get_supertype(inner, t);
    if (!s) throw SchemaError(err_msg("failed to determine supertype of ", inner, " and ", t, " in concat_list"));
    inner = *s;
    if (a->length() != 1) n = broadcast_length(n, a->length(), "concat_list");
  }
  // Every input as a List(inner) (a value as a list of one) and its elements as one array.
  std::vector<ArrayRef> lists;
  std::vector<ArrayRef> parts;
  std::vector<int64_t> part_start;
  int64_t total = 0;
  for (const ArrayRef& a : inputs) {
    ArrayRef as_list;
    if (a->dtype().id() == TypeId::List) {
      as_list = a->dtype().inner() == inner ? a : cast(*a, DataType::list(inner));
    } else {
      ArrayRef v = a->dtype() == inner ? a : cast(*a, inner);
      const int64_t m = v->length();
      Buffer off = Buffer::allocate(static_cast<size_t>(m + 1) * sizeof(int64_t));
      for (int64_t i = 0; i <= m; ++i) off.mutable_as<int64_t>()[i] = i;
      as_list = Array::make(DataType::list(inner), m, Buffer(), {std::move(off)}, {std::move(v)});
    }
    lists.push_back(std::move(as_list));
  }
  std::vector<Lists> rows;
  rows.reserve(lists.size());
  for (const ArrayRef& a : lists) {
    rows.emplace_back(*a, "concat_list");
    part_start.push_back(total);
    total += rows.back().values()->length();
    parts.push_back(rows.back().values());
  }
  ArrayRef values = parts.size() == 1 ? parts[0] : concat_arrays(parts);
  ListGather g(n);
  for (int64_t i = 0; i < n; ++i) {
    bool valid = true;
    for (size_t j = 0; j < lists.size() && valid; ++j) valid = lists[j]->is_valid(lists[j]->length() == 1 ? 0 : i);
    if (valid) {
      for (size_t j = 0; j < lists.size(); ++j) {
        const Lists& l = rows[j];
        const int64_t r = l.size() == 1 ? 0 : i;
        g.push_range(part_start[j] + l.start(r), part_start[j] + l.end(r));
      }
    }
    g.end_row(valid);
  }
  return g.finish(*values);
}

}  // namespace frazil::compute
