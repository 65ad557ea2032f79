#include "frazil/compute/positions.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"

namespace frazil::compute {

using namespace detail;

ArrayRef slice_clamped(const Array& values, int64_t offset, std::optional<int64_t> length) {
  const int64_t n = values.length();
  int64_t begin = offset < 0 ? n + offset : offset;
  int64_t end = length ? (begin + *length) : n;
  begin = std::clamp<int64_t>(begin, 0, n);
  end = std::clamp<int64_t>(end, begin, n);
  return values.slice(begin, end - begin);
}

ArrayRef gather(const Array& values, const Array& indices, bool null_on_oob) {
  if (!(indices.dtype().is_integer() || indices.dtype().is_null()))
    throw InvalidOperationError(err_msg("`gather` indices must be integers, got `", indices.dtype().short_name(), "`"));
  const int64_t n = values.length(), m = indices.length();
  ArrayRef idx = cast(indices, DataType::int64(), /*strict=*/false);
  const int64_t* p = idx->values<int64_t>();
  std::vector<IdxSize> rows(static_cast<size_t>(m));
  for (int64_t i = 0; i < m; ++i) {
    if (idx->is_null(i)) {
      rows[i] = kNullIdx;
      continue;
    }
    const int64_t k = p[i] < 0 ? p[i] + n : p[i];
    if (k < 0 || k >= n) {
      if (!null_on_oob) throw OutOfBoundsError("gather indices are out of bounds");
      rows[i] = kNullIdx;
      continue;
    }
    rows[i] = static_cast<IdxSize>(k);
  }
  return take(values, rows);
}

ArrayRef gather_every(const Array& values, int64_t n, int64_t offset) {
  if (n <= 0) throw InvalidOperationError(err_msg("gather_every(n): n should be positive, got ", n));
  if (offset < 0) throw InvalidOperationError(err_msg("gather_every: offset should be non-negative, got ", offset));
  std::vector<IdxSize> rows;
  for (int64_t i = offset; i < values.length(); i += n) rows.push_back(static_cast<IdxSize>(i));
  return take(values, rows);
}

ArrayRef arg_sort_segments(const Array& values, Segments seg, bool descending, bool nulls_last) {
  const int64_t n = values.length();
  check_segments(seg, n, "arg_sort");
  SortOptions so;
  so.stable = true;
  std::vector<ArrayRef> keys;
  if (seg.size() > 2) {
    Buffer ids = alloc_values<uint32_t>(n);
    uint32_t* id = ids.mutable_as<uint32_t>();
    for (size_t k = 0; k + 1 < seg.size(); ++k) std::fill(id + seg[k], id + seg[k + 1], static_cast<uint32_t>(k));
    keys.push_back(make_fixed(DataType::uint32(), n, Buffer(), std::move(ids)));
    so.descending = {false, descending};
    so.nulls_last = {false, nulls_last};
  } else {
    so.descending = {descending};
    so.nulls_last = {nulls_last};
  }
  keys.push_back(share(values));
  std::vector<IdxSize> order = n ? arg_sort(keys, so) : std::vector<IdxSize>{};
  // Positions relative to each segment's first row.
  for (size_t k = 0; k + 1 < seg.size(); ++k)
    for (int64_t i = seg[k]; i < seg[k + 1]; ++i) order[i] -= static_cast<IdxSize>(seg[k]);
  Buffer out = alloc_values<uint32_t>(n);
  std::copy(order.begin(), order.end(), out.mutable_as<uint32_t>());
  return make_fixed(DataType::uint32(), n, Buffer(), std::move(out));
}

ArrayRef arg_unique(const Array& values) {
  std::vector<IdxSize> rows = unique_rows({share(values)}, "first");
  Buffer out = alloc_values<uint32_t>(static_cast<int64_t>(rows.size()));
  std::copy(rows.begin(), rows.end(), out.mutable_as<uint32_t>());
  return make_fixed(DataType::uint32(), static_cast<int64_t>(rows.size()), Buffer(), std::move(out));
}

ArrayRef arg_true(const Array& mask) {
  if (!(mask.dtype().is_boolean() || mask.dtype().is_null()))
    throw InvalidOperationError(err_msg("`arg_true` operation not supported for dtype `", mask.dtype().short_name(), "`"));
  std::vector<IdxSize> rows = mask.dtype().is_null() ? std::vector<IdxSize>{} : mask_to_indices(mask);
  Buffer out = alloc_values<uint32_t>(static_cast<int64_t>(rows.size()));
  std::copy(rows.begin(), rows.end(), out.mutable_as<uint32_t>());
  return make_fixed(DataType::uint32(), static_cast<int64_t>(rows.size()), Buffer(), std::move(out));
}

ArrayRef search_sorted(const Array& values, const Array& elements, const std::string& side, bool descending) {
  if (values.dtype().id() == TypeId::Float16)  // searched as the Float32 values it widens to
    return search_sorted(*float16_to_float32(values), *cast(elements, DataType::float32()), side, descending);
  const int64_t n = values.length(), m = elements.length();
  ArrayRef el = elements.dtype() == values.dtype() ? share(elements) : cast(elements, values.dtype());
  // The values' nulls come first; binary search runs over the rest.
  int64_t first = 0;
  while (first < n && values.is_null(first)) ++first;
  Buffer out = alloc_values<uint32_t>(m);
  uint32_t* o = out.mutable_as<uint32_t>();
  ArrayRef vs = values.slice(first, n - first);
  // -1, 0, 1 comparing value vi with element ei (total order: NaN above every number).
  auto cmp = [&](int64_t vi, int64_t ei) -> int {
    const DataType& t = vs->dtype();
    if (t.is_view()) {
      const auto a = vs->str_value(vi), b = el->str_value(ei);
      return a < b ? -1 : b < a ? 1 : 0;
    }
    if (t.is_boolean()) return static_cast<int>(vs->bool_value(vi)) - static_cast<int>(el->bool_value(ei));
    auto typed = [&](auto tag) -> int {
      using T = typename decltype(tag)::type;
      const T a = vs->values<T>()[vi], b = el->values<T>()[ei];
      return total_lt(a, b) ? -1 : total_lt(b, a) ? 1 : 0;
    };
    if (t.id() == TypeId::Decimal || t.id() == TypeId::Int128) return typed(Tag<__int128>{});
    if (t.id() == TypeId::UInt128) return typed(Tag<unsigned __int128>{});
    if (!(t.is_numeric() || t.is_temporal()))
      throw InvalidOperationError(err_msg("`search_sorted` operation not supported for dtype `", t.short_name(), "`"));
    return dispatch_numeric(t.physical().id(), typed);
  };
  const int64_t len = n - first;
  const bool right = side == "right";
  const DataType& t = vs->dtype();
  if ((t.is_numeric() || t.is_temporal()) && !t.is_boolean()) {
    // Numbers: the dtype is dispatched once, then a typed binary search per element.
    auto typed = [&](auto tag) -> int {
      using T = typename decltype(tag)::type;
      const T* v = vs->values<T>();
      const T* x = el->values<T>();
      auto before = [&](T a, T b) { return descending ? total_lt(b, a) : total_lt(a, b); };
      for (int64_t e = 0; e < m; ++e) {
        if (el->is_null(e)) {  // among the nulls, which come first
          o[e] = static_cast<uint32_t>(right ? first : 0);
          continue;
        }
        const T key = x[e];
        const T* at = right ? std::upper_bound(v, v + len, key, before) : std::lower_bound(v, v + len, key, before);
        o[e] = static_cast<uint32_t>(first + (at - v));
      }
      return 0;
    };
    if (t.id() == TypeId::Decimal || t.id() == TypeId::Int128) typed(Tag<__int128>{});
    else if (t.id() == TypeId::UInt128) typed(Tag<unsigned __int128>{});
    else dispatch_numeric(t.physical().id(), typed);
    return make_fixed(DataType::uint32(), m, Buffer(), std::move(out));
  }
  auto less = [&](int64_t vi, int64_t ei) { return descending ? cmp(vi, ei) > 0 : cmp(vi, ei) < 0; };
  auto greater = [&](int64_t vi, int64_t ei) { return descending ? cmp(vi, ei) < 0 : cmp(vi, ei) > 0; };
  for (int64_t e = 0; e < m; ++e) {
    if (el->is_null(e)) {  // among the nulls, which come first
      o[e] = static_cast<uint32_t>(right ? first : 0);
      continue;
    }
    int64_t lo = 0, hi = len;
    if (right) {
      while (lo < hi) {  // first value after the element
        const int64_t mid = (lo + hi) / 2;
        if (!greater(mid, e)) lo = mid + 1;
        else hi = mid;
      }
    } else {
      while (lo < hi) {  // first value not before the element
        const int64_t mid = (lo + hi) / 2;
        if (less(mid, e)) lo = mid + 1;
        else hi = mid;
      }
    }
    o[e] = static_cast<uint32_t>(first + lo);
  }
  return make_fixed(DataType::uint32(), m, Buffer(), std::move(out));
}

ArrayRef sample(const Array& values, int64_t n, bool with_replacement, bool shuffle, std::optional<uint64_t> seed) {
  const int64_t len = values.length();
  if (n < 0) throw InvalidOperationError("sample: n must be non-negative");
  if (!with_replacement && n > len)
    throw ShapeError("cannot take a larger sample than the total population when `with_replacement=false`");
  std::mt19937_64 rng(seed ? *seed : std::random_device{}());
  std::vector<IdxSize> rows(static_cast<size_t>(n));
  if (with_replacement) {
    if (len == 0) rows.clear();  // nothing to draw from: empty, as Polars
    std::uniform_int_distribution<int64_t> d(0, std::max<int64_t>(len - 1, 0));
    for (auto& r : rows) r = static_cast<IdxSize>(d(rng));
  } else {
    std::vector<IdxSize> all(static_cast<size_t>(len));
    std::iota(all.begin(), all.end(), IdxSize{0});
    for (int64_t i = 0; i < n; ++i) {  // partial Fisher-Yates
      std::uniform_int_distribution<int64_t> d(i, len - 1);
      std::swap(all[i], all[d(rng)]);
    }
    std::copy(all.begin(), all.begin() + n, rows.begin());
  }
  if (!shuffle) std::sort(rows.begin(), rows.end());
  return take(values, rows);
}

ArrayRef shuffle_segments(const Array& values, Segments seg, std::optional<uint64_t> seed) {
  check_segments(seg, values.length(), "shuffle");
  std::mt19937_64 rng(seed ? *seed : std::random_device{}());
  std::vector<IdxSize> rows(static_cast<size_t>(values.length()));
  std::iota(rows.begin(), rows.end(), IdxSize{0});
  for (size_t k = 0; k + 1 < seg.size(); ++k) std::shuffle(rows.begin() + seg[k], rows.begin() + seg[k + 1], rng);
  return take(values, rows);
}

ArrayRef extend_constant(const Array& values, const Array& value, int64_t n) {
  if (n < 0) throw InvalidOperationError("extend_constant: n must be non-negative");
  if (value.length() != 1)
    throw InvalidOperationError(err_msg("`extend_constant`: the value must be one row, got ", value.length()));
  ArrayRef v = value.dtype() == values.dtype() ? share(value) : cast(value, values.dtype());
  std::vector<IdxSize> rows(static_cast<size_t>(n), 0);
  return concat_arrays({values.slice(0, values.length()), take(*v, rows)});
}

ArrayRef repeat_by(const Array& values, const Array& by) {
  const int64_t n = values.length() == 1 ? by.length() : by.length() == 1 ? values.length()
                                                                         : std::max(values.length(), by.length());
  if (!(by.dtype().is_integer() || by.dtype().is_null()))
    throw InvalidOperationError(err_msg("`repeat_by` needs integer counts, got `", by.dtype().short_name(), "`"));
  // (A 128-bit count past Int64 is an error, not a null row.)
  ArrayRef counts = cast(by, DataType::int64(), by.dtype().is_128_bit_integer(), "repeat_by");
  const bool vb = values.length() == 1 && n != 1, cb = counts->length() == 1 && n != 1;
  if ((!vb && values.length() != n) || (!cb && counts->length() != n))
    throw ShapeError(err_msg("`repeat_by`: lengths ", values.length(), " and ", by.length(), " differ"));
  std::vector<IdxSize> rows;
  Buffer off = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int64_t));
  int64_t* o = off.mutable_as<int64_t>();
  OutValidity valid(n);
  o[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = cb ? 0 : i;
    const bool ok = counts->is_valid(c);
    valid.set(i, ok);
    const int64_t k = ok ? counts->values<int64_t>()[c] : 0;
    if (k < 0) throw InvalidOperationError("`repeat_by`: a count is negative");
    for (int64_t j = 0; j < k; ++j) rows.push_back(static_cast<IdxSize>(vb ? 0 : i));
    o[i + 1] = o[i] + k;
  }
  ArrayRef flat = take(values, rows);
  return Array::make(DataType::list(values.dtype()), n, valid.finish(), {off}, {flat});
}

}  // namespace frazil::compute
