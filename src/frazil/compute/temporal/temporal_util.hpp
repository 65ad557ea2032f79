// Internal helpers of the temporal kernels: dtype checks, int64 maps whose rows may fail
// (become null), and the calendar arithmetic several kernels share.
#pragma once

#include <cstring>
#include <optional>
#include <vector>

#include "frazil/compute/kernel_util.hpp"
#include "frazil/core/calendar.hpp"

namespace frazil::compute::detail {

// Polars' "`op` operation not supported for dtype `x`".
[[noreturn]] inline void temporal_not_supported(const char* what, const DataType& t) {
  throw InvalidOperationError(err_msg("`", what, "` operation not supported for dtype `", t.short_name(), "`"));
}

inline bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
inline unsigned month_days(int64_t y, unsigned m) {
  static const unsigned d[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : d[m - 1];
}

// Units of a Datetime/Duration unit per day.
inline int64_t units_per_day(TimeUnit u) { return units_per_second(u) * 86'400; }

// The validity `base` (offset-0, possibly shared with an input, or empty for all valid) with
// the rows of `failed` cleared; a copy is made before writing.
inline Buffer clear_rows(Buffer base, int64_t n, const std::vector<int64_t>& failed) {
  if (failed.empty()) return base;
  Buffer out;
  if (base.empty()) {
    out = alloc_bits(n);
    std::memset(out.mutable_data(), 0xFF, static_cast<size_t>(bitmap_bytes(n)));
  } else {
    out = copy_bitmap(base.data(), 0, n);
  }
  for (int64_t i : failed) clear_bit(out.mutable_data(), i);
  return out;
}

// out[i] = f(i, in[i]) for the valid rows of a fixed-width array; f returns an optional
// (nullopt: the row becomes null). Null rows are never passed to f.
template <typename T, typename R, typename F>
ArrayRef map_optional(const Array& a, const DataType& out, F f) {
  const int64_t n = a.length();
  if (a.dtype().is_null()) return make_null_array(out, n);
  Buffer values = alloc_values<R>(n);
  R* o = values.mutable_as<R>();
  const T* p = a.values<T>();
  const bool nulls = a.null_count() > 0;
  std::vector<int64_t> failed;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && a.is_null(i)) {
      o[i] = R{};
      continue;
    }
    std::optional<R> r = f(i, p[i]);
    if (r) {
      o[i] = *r;
    } else {
      o[i] = R{};
      failed.push_back(i);
    }
  }
  return make_fixed(out, n, clear_rows(aligned_validity(a), n, failed), std::move(values));
}

}  // namespace frazil::compute::detail
