#include "frazil/compute/rank.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "frazil/compute/hash.hpp"
#include "frazil/compute/sort.hpp"

namespace frazil::compute {

using namespace detail;

ArrayRef rank(const Array& values, Segments seg, RankMethod method, bool descending, std::optional<uint64_t> seed) {
  const int64_t n = values.length();
  check_segments(seg, n, "rank");
  const bool average = method == RankMethod::Average;
  const DataType out_type = average ? DataType::float64() : DataType::uint32();
  if (values.dtype().is_nested())
    throw InvalidOperationError(err_msg("`rank` operation not supported for dtype `", values.dtype().short_name(), "`"));
  if (n == 0 || values.dtype().is_null()) return make_null_array(out_type, n);
  // One sort by (segment, value), nulls after the values of their segment: ties stay in row
  // order (the sort is stable), which the ordinal method relies on.
  SortOptions so;
  so.stable = true;
  std::vector<ArrayRef> keys;
  const size_t nseg = seg.size() - 1;
  if (nseg > 1) {
    Buffer ids = alloc_values<uint32_t>(n);
    uint32_t* id = ids.mutable_as<uint32_t>();
    for (size_t k = 0; k < nseg; ++k) std::fill(id + seg[k], id + seg[k + 1], static_cast<uint32_t>(k));
    keys.push_back(make_fixed(DataType::uint32(), n, Buffer(), std::move(ids)));
    so.descending = {false, descending};
    so.nulls_last = {true, true};
  } else {
    so.descending = {descending};
    so.nulls_last = {true};
  }
  keys.push_back(share(values));
  const std::vector<IdxSize> order = arg_sort(keys, so);
  std::mt19937_64 rng(seed ? *seed : std::random_device{}());
  Buffer buf = average ? alloc_values<double>(n) : alloc_values<uint32_t>(n);
  double* of = average ? buf.mutable_as<double>() : nullptr;
  uint32_t* ou = average ? nullptr : buf.mutable_as<uint32_t>();
  std::vector<IdxSize> tie;
  // order[seg[k] .. seg[k + 1]) lists segment k's rows: its values first, then its nulls.
  for (size_t k = 0; k < nseg; ++k) {
    const int64_t b = seg[k], e = seg[k + 1];
    int64_t pos = b;
    uint32_t dense = 0;
    while (pos < e && values.is_valid(order[pos])) {
      int64_t end = pos + 1;
      while (end < e && values.is_valid(order[end]) && values_equal(values, order[end], values, order[pos])) ++end;
      const int64_t lo = pos - b + 1, hi = end - b;  // 1-based positions of the tie run
      ++dense;
      if (method == RankMethod::Random && end - pos > 1) {
        tie.assign(order.begin() + pos, order.begin() + end);
        std::shuffle(tie.begin(), tie.end(), rng);
        for (int64_t j = 0; j < end - pos; ++j) ou[tie[j]] = static_cast<uint32_t>(lo + j);
        pos = end;
        continue;
      }
      for (int64_t j = pos; j < end; ++j) {
        const IdxSize r = order[j];
        switch (method) {
          case RankMethod::Average: of[r] = 0.5 * static_cast<double>(lo + hi); break;
          case RankMethod::Min: ou[r] = static_cast<uint32_t>(lo); break;
          case RankMethod::Max: ou[r] = static_cast<uint32_t>(hi); break;
          case RankMethod::Dense: ou[r] = dense; break;
          case RankMethod::Ordinal:
          case RankMethod::Random: ou[r] = static_cast<uint32_t>(j - b + 1); break;
        }
      }
      pos = end;
    }
    for (; pos < e; ++pos) {  // the nulls' slots, unread
      if (average) of[order[pos]] = 0;
      else ou[order[pos]] = 0;
    }
  }
  return make_fixed(out_type, n, aligned_validity(values), std::move(buf));
}

}  // namespace frazil::compute
