#include "frazil/compute/replace.hpp"

#include <vector>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

// For each row of `values`, the index k of the old value it equals (-1 for none).
std::vector<int64_t> match_old(const Array& values, const Array& old) {
  const int64_t n = values.length(), m = old.length();
  ArrayRef o = old.dtype() == values.dtype() ? old.slice(0, m) : cast(old, values.dtype(), /*strict=*/false);
  // old's rows first, then the values: equal values share a group.
  ArrayRef keys = concat_arrays({o, values.slice(0, n)});
  const Groups g = group_rows({keys});
  std::vector<int64_t> k_of_group(g.num_groups(), -1);
  for (int64_t k = 0; k < m; ++k) {
    // A value that did not survive the cast to the values' dtype matches nothing.
    if (o->is_null(k) && old.is_valid(k)) continue;
    int64_t& slot = k_of_group[g.group_ids[k]];
    if (slot < 0) slot = k;
  }
  std::vector<int64_t> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out[i] = k_of_group[g.group_ids[m + i]];
  return out;
}

void check_lengths(const Array& old, const Array& new_values) {
  if (new_values.length() != 1 && new_values.length() != old.length())
    throw InvalidOperationError(err_msg("`replace`: `new` has ", new_values.length(), " values for ", old.length(),
                                        " in `old`"));
}

}  // namespace

ArrayRef replace(const Array& values, const Array& old, const Array& new_values) {
  check_lengths(old, new_values);
  const int64_t n = values.length();
  if (old.length() == 0) return values.slice(0, n);
  const std::vector<int64_t> k = match_old(values, old);
  ArrayRef nv = new_values.dtype() == values.dtype() ? new_values.slice(0, new_values.length())
                                                     : cast(new_values, values.dtype());
  const bool one = nv->length() == 1;
  // new values first, then the values themselves.
  ArrayRef pool = concat_arrays({nv, values.slice(0, n)});
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    idx[i] = k[i] >= 0 ? static_cast<IdxSize>(one ? 0 : k[i]) : static_cast<IdxSize>(nv->length() + i);
  return take(*pool, idx);
}

ArrayRef replace_strict(const Array& values, const Array& old, const Array& new_values, const Array* fallback,
                        const DataType& out) {
  check_lengths(old, new_values);
  const int64_t n = values.length();
  const std::vector<int64_t> k = old.length() ? match_old(values, old) : std::vector<int64_t>(n, -1);
  ArrayRef nv = new_values.dtype() == out ? new_values.slice(0, new_values.length()) : cast(new_values, out);
  const bool one = nv->length() == 1;
  std::vector<ArrayRef> parts{nv};
  int64_t fb_base = nv->length();
  bool fb_one = false;
  if (fallback) {
    ArrayRef f = fallback->dtype() == out ? fallback->slice(0, fallback->length()) : cast(*fallback, out);
    fb_one = f->length() == 1 && n != 1;
    if (!fb_one && f->length() != n)
      throw ShapeError(err_msg("`replace_strict`: `default` has ", f->length(), " rows for ", n));
    parts.push_back(f);
  }
  ArrayRef pool = concat_arrays(parts);
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (k[i] >= 0) {
      idx[i] = static_cast<IdxSize>(one ? 0 : k[i]);
    } else if (fallback) {
      idx[i] = static_cast<IdxSize>(fb_base + (fb_one ? 0 : i));
    } else if (values.is_null(i)) {
      idx[i] = kNullIdx;
    } else {
      throw InvalidOperationError(
          "incomplete mapping specified for `replace_strict`\n\nHint: Pass a `default` value to set "
          "unmapped values.");
    }
  }
  return take(*pool, idx);
}

}  // namespace frazil::compute
