#include "frazil/compute/rank.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "frazil/compute/hash.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// An order-preserving 64-bit key of a number: integers with the sign bit flipped, floats in
// total order (NaN above every number, -0.0 == 0.0).
template <typename T>
uint64_t order_key(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    double d = static_cast<double>(v);
    if (d != d) return ~uint64_t{0};
    if (d == 0.0) d = 0.0;
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return (b >> 63) ? ~b : b | (uint64_t{1} << 63);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v)) ^ (uint64_t{1} << 63);
  } else {
    return static_cast<uint64_t>(v);
  }
}

// Stable LSD radix sort of (key, row) pairs by key, 11 bits per pass; passes whose digit is
// the same for every key are skipped.
void radix_sort(std::vector<std::pair<uint64_t, IdxSize>>& a) {
  std::vector<std::pair<uint64_t, IdxSize>> tmp(a.size());
  uint64_t all_or = 0, all_and = ~uint64_t{0};
  for (const auto& p : a) {
    all_or |= p.first;
    all_and &= p.first;
  }
  const uint64_t varying = all_or ^ all_and;
  for (int shift = 0; shift < 64; shift += 11) {
    if (((varying >> shift) & 0x7FF) == 0) continue;
    size_t count[2049] = {};
    for (const auto& p : a) ++count[((p.first >> shift) & 0x7FF) + 1];
    for (int d = 0; d < 2048; ++d) count[d + 1] += count[d];
    for (const auto& p : a) tmp[count[(p.first >> shift) & 0x7FF]++] = p;
    a.swap(tmp);
  }
}

// Ranks of one segment of keys: (key, row) pairs sorted (ties in row order), runs of equal keys.
template <typename Emit>
void rank_keys(std::vector<std::pair<uint64_t, IdxSize>>& buf, Emit&& emit_run) {
  if (buf.size() >= 4096) radix_sort(buf);
  else std::sort(buf.begin(), buf.end());  // (key, row): row breaks ties, as a stable sort
  size_t pos = 0;
  uint32_t dense = 0;
  while (pos < buf.size()) {
    size_t end = pos + 1;
    while (end < buf.size() && buf[end].first == buf[pos].first) ++end;
    ++dense;
    emit_run(buf, pos, end, dense);
    pos = end;
  }
}

}  // namespace

ArrayRef rank(const Array& values, Segments seg, RankMethod method, bool descending, std::optional<uint64_t> seed) {
  const int64_t n = values.length();
  check_segments(seg, n, "rank");
  const bool average = method == RankMethod::Average;
  const DataType out_type = average ? DataType::float64() : DataType::uint32();
  if (values.dtype().is_nested())
    throw InvalidOperationError(err_msg("`rank` operation not supported for dtype `", values.dtype().short_name(), "`"));
  if (n == 0 || values.dtype().is_null()) return make_null_array(out_type, n);
  const size_t segments = seg.size() - 1;
  const DataType& t = values.dtype();
  if (t.id() == TypeId::Float16) return rank(*float16_to_float32(values), seg, method, descending, seed);
  // (128-bit integers take the general path below: their order keys do not fit 64 bits.)
  if ((t.is_primitive_numeric() && !t.is_128_bit_integer()) || t.is_temporal()) {
    // Numbers: each segment's (value, row) pairs sorted on their own (small sorts stay in
    // cache; one typed sort beats the general multi-key arg_sort).
    std::mt19937_64 rng(seed ? *seed : std::random_device{}());
    Buffer buf = average ? alloc_values<double>(n) : alloc_values<uint32_t>(n);
    double* of = average ? buf.mutable_as<double>() : nullptr;
    uint32_t* ou = average ? nullptr : buf.mutable_as<uint32_t>();
    if (average) std::fill(of, of + n, 0.0);
    else std::fill(ou, ou + n, 0u);
    dispatch_numeric(t.physical().id(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      std::vector<std::pair<uint64_t, IdxSize>> pairs;
      const T* v = values.values<T>();
      const bool nulls = values.null_count() > 0;
      for (size_t k = 0; k < segments; ++k) {
        pairs.clear();
        for (int64_t i = seg[k]; i < seg[k + 1]; ++i)
          if (!nulls || values.is_valid(i)) {
            const uint64_t key = order_key(v[i]);
            pairs.emplace_back(descending ? ~key : key, static_cast<IdxSize>(i));
          }
        rank_keys(pairs, [&](auto& run, size_t lo, size_t hi, uint32_t dense) {
          if (method == RankMethod::Random && hi - lo > 1) std::shuffle(run.begin() + lo, run.begin() + hi, rng);
          for (size_t j = lo; j < hi; ++j) {
            const IdxSize r = run[j].second;
            switch (method) {
              case RankMethod::Average: of[r] = 0.5 * static_cast<double>(lo + 1 + hi); break;
              case RankMethod::Min: ou[r] = static_cast<uint32_t>(lo + 1); break;
              case RankMethod::Max: ou[r] = static_cast<uint32_t>(hi); break;
              case RankMethod::Dense: ou[r] = dense; break;
              case RankMethod::Ordinal:
              case RankMethod::Random: ou[r] = static_cast<uint32_t>(j + 1); break;
            }
          }
        });
      }
      return 0;
    });
    return make_fixed(out_type, n, aligned_validity(values), std::move(buf));
  }
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
