#include "frazil/compute/sort.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "frazil/compute/hash.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

using u128 = unsigned __int128;

// ---- Order-preserving unsigned images of fixed-width values ----

inline uint64_t f64_order_bits(double d) {
  uint64_t b = canonical_f64_bits(d);  // -0.0 ties with 0.0, NaN is one positive NaN
  return (b >> 63) ? ~b : (b | (1ULL << 63));
}
inline uint32_t f32_order_bits(float f) {
  uint32_t b = canonical_f32_bits(f);
  return (b >> 31) ? ~b : (b | (1U << 31));
}

// Bits needed for a sort key's values; -1 for non fixed-width types.
int order_bits(const DataType& t) {
  switch (t.id()) {
    case TypeId::Null: return 0;
    case TypeId::Boolean: return 1;
    case TypeId::Decimal: return 128;
    default: return t.is_fixed_width() ? t.byte_width() * 8 : -1;
  }
}

// Calls f(i, bits) with the ascending order bits of every row (nulls included, any value).
template <typename F>
void for_each_order_bits(const Array& a, F&& f) {
  const int64_t n = a.length();
  auto run = [&](const auto* v, auto map) {
    for (int64_t i = 0; i < n; ++i) f(i, static_cast<u128>(map(v[i])));
  };
  switch (a.dtype().id()) {
    case TypeId::Boolean: {
      const uint8_t* bits = a.buffer(0).data();
      for (int64_t i = 0; i < n; ++i) f(i, static_cast<u128>(get_bit(bits, a.offset() + i)));
      return;
    }
    case TypeId::Int8: return run(a.values<uint8_t>(), [](uint8_t x) { return uint8_t(x ^ 0x80); });
    case TypeId::UInt8: return run(a.values<uint8_t>(), [](uint8_t x) { return x; });
    case TypeId::Int16: return run(a.values<uint16_t>(), [](uint16_t x) { return uint16_t(x ^ 0x8000); });
    case TypeId::UInt16: return run(a.values<uint16_t>(), [](uint16_t x) { return x; });
    case TypeId::Int32:
    case TypeId::Date: return run(a.values<uint32_t>(), [](uint32_t x) { return x ^ 0x80000000U; });
    case TypeId::UInt32: return run(a.values<uint32_t>(), [](uint32_t x) { return x; });
    case TypeId::Int64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time:
      return run(a.values<uint64_t>(), [](uint64_t x) { return x ^ (1ULL << 63); });
    case TypeId::UInt64: return run(a.values<uint64_t>(), [](uint64_t x) { return x; });
    case TypeId::Float32: return run(a.values<float>(), f32_order_bits);
    case TypeId::Float64: return run(a.values<double>(), f64_order_bits);
    case TypeId::Decimal:
      return run(a.values<u128>(), [](u128 x) { return x ^ (u128(1) << 127); });
    default: FRAZIL_CHECK(false);
  }
}

inline u128 low_mask(int bits) { return bits >= 128 ? ~u128(0) : (u128(1) << bits) - 1; }

struct KeyIdx {
  uint64_t key;
  IdxSize idx;
  bool operator<(const KeyIdx& o) const { return key < o.key || (key == o.key && idx < o.idx); }
};

// LSD radix sort on 8-bit digits; stable, so equal keys keep their (ascending) idx order.
// Digits shared by every key are skipped.
void radix_sort(std::vector<KeyIdx>& v) {
  const size_t n = v.size();
  if (n < 256) {
    std::sort(v.begin(), v.end());
    return;
  }
  std::vector<std::array<uint32_t, 256>> hist(8);
  for (auto& h : hist) h.fill(0);
  for (const auto& e : v)
    for (int d = 0; d < 8; ++d) ++hist[d][(e.key >> (8 * d)) & 0xff];
  std::vector<KeyIdx> tmp(n);
  for (int d = 0; d < 8; ++d) {
    auto& h = hist[d];
    if (h[(v[0].key >> (8 * d)) & 0xff] == n) continue;  // one digit value: nothing moves
    uint32_t sum = 0;
    for (auto& c : h) {
      uint32_t x = c;
      c = sum;
      sum += x;
    }
    for (const auto& e : v) tmp[h[(e.key >> (8 * d)) & 0xff]++] = e;
    v.swap(tmp);
  }
}

// Sorts fully, or only the first k entries (top-k), by operator< / cmp.
template <typename T, typename Cmp>
void sort_prefix(std::vector<T>& v, size_t k, Cmp cmp) {
  if (k >= v.size()) {
    std::sort(v.begin(), v.end(), cmp);
  } else if (k > 0) {
    std::nth_element(v.begin(), v.begin() + k, v.end(), cmp);
    std::sort(v.begin(), v.begin() + k, cmp);
    v.resize(k);
  } else {
    v.clear();
  }
}

void sort_key_idx(std::vector<KeyIdx>& v, size_t k) {
  if (k >= v.size()) radix_sort(v);
  else sort_prefix(v, k, [](const KeyIdx& a, const KeyIdx& b) { return a < b; });
}

// ---- Generic comparison of rows over several columns ----

enum class ColKind { Fixed, Wide, Bytes, Constant };

struct SortColumn {
  ColKind kind = ColKind::Constant;
  bool descending = false;
  bool nulls_last = false;
  const Array* array = nullptr;
  const uint8_t* validity = nullptr;  // nullptr: no nulls
  int64_t offset = 0;
  std::vector<uint64_t> fixed;  // ascending order bits, inverted when descending
  std::vector<u128> wide;
  std::vector<BytesKey> bytes;

  bool is_null(IdxSize i) const { return validity && !get_bit(validity, offset + i); }
};

// Big-endian first 8 bytes: compares like the bytes themselves.
inline uint64_t bytes_prefix(const BytesKey& k) {
  uint8_t buf[8] = {0};
  uint32_t n = k.length();
  std::memcpy(buf, k.data(), n < 8 ? n : 8);
  uint64_t v;
  std::memcpy(&v, buf, 8);
  return __builtin_bswap64(v);
}

inline int compare_bytes(const BytesKey& a, const BytesKey& b) {
  uint32_t na = a.length(), nb = b.length();
  int c = std::memcmp(a.data(), b.data(), std::min(na, nb));
  if (c != 0) return c;
  return na < nb ? -1 : (na > nb ? 1 : 0);
}

int compare_column(const SortColumn& c, IdxSize i, IdxSize j) {
  if (c.validity) {
    bool ni = c.is_null(i), nj = c.is_null(j);
    if (ni || nj) {
      if (ni && nj) return 0;
      return (ni == c.nulls_last) ? 1 : -1;
    }
  }
  switch (c.kind) {
    case ColKind::Fixed: return c.fixed[i] < c.fixed[j] ? -1 : (c.fixed[i] > c.fixed[j] ? 1 : 0);
    case ColKind::Wide: return c.wide[i] < c.wide[j] ? -1 : (c.wide[i] > c.wide[j] ? 1 : 0);
    case ColKind::Bytes: {
      int r = compare_bytes(c.bytes[i], c.bytes[j]);
      return c.descending ? -r : r;
    }
    case ColKind::Constant: return 0;
  }
  return 0;
}

SortColumn make_sort_column(const Array& a, bool descending, bool nulls_last) {
  SortColumn c;
  c.descending = descending;
  c.nulls_last = nulls_last;
  c.array = &a;
  if (a.dtype().is_null()) return c;  // all null: every row ties
  if (a.null_count() > 0) {
    c.validity = a.validity_bits();
    c.offset = a.offset();
  }
  const int64_t n = a.length();
  if (a.dtype().is_view()) {
    c.kind = ColKind::Bytes;
    c.bytes.resize(static_cast<size_t>(n));
    auto bufs = view_buffer_pointers(a);
    const View* v = a.views();
    for (int64_t i = 0; i < n; ++i) c.bytes[i] = BytesKey::from_view(v[i], bufs.data());
    return c;
  }
  int bits = order_bits(a.dtype());
  if (bits < 0)
    throw InvalidOperationError(err_msg("sort is not supported for dtype ", a.dtype()));
  if (bits == 128) {
    c.kind = ColKind::Wide;
    c.wide.resize(static_cast<size_t>(n));
    for_each_order_bits(a, [&](int64_t i, u128 v) { c.wide[i] = descending ? ~v : v; });
  } else {
    c.kind = ColKind::Fixed;
    c.fixed.resize(static_cast<size_t>(n));
    const uint64_t flip = descending ? uint64_t(low_mask(bits)) : 0;
    for_each_order_bits(a, [&](int64_t i, u128 v) { c.fixed[i] = uint64_t(v) ^ flip; });
  }
  return c;
}

// First-column sort prefix (ascending u64 with descending applied).
uint64_t first_prefix(const SortColumn& c, IdxSize i) {
  switch (c.kind) {
    case ColKind::Fixed: return c.fixed[i];
    case ColKind::Wide: return uint64_t(c.wide[i] >> 64);
    case ColKind::Bytes: {
      uint64_t p = bytes_prefix(c.bytes[i]);
      return c.descending ? ~p : p;
    }
    case ColKind::Constant: return 0;
  }
  return 0;
}

std::vector<IdxSize> generic_sort(const std::vector<ArrayRef>& keys, const std::vector<bool>& desc,
                                  const std::vector<bool>& nlast, size_t k) {
  const int64_t n = keys[0]->length();
  std::vector<SortColumn> cols;
  cols.reserve(keys.size());
  for (size_t c = 0; c < keys.size(); ++c) cols.push_back(make_sort_column(*keys[c], desc[c], nlast[c]));
  const SortColumn& c0 = cols[0];
  // The prefix decides column 0 fully for fixed-width values of up to 64 bits.
  const size_t rest_from = c0.kind == ColKind::Fixed || c0.kind == ColKind::Constant ? 1 : 0;
  std::vector<KeyIdx> valid, nulls;
  valid.reserve(static_cast<size_t>(n) - (c0.validity ? keys[0]->null_count() : 0));
  for (int64_t i = 0; i < n; ++i) {
    IdxSize r = static_cast<IdxSize>(i);
    if (c0.is_null(r)) nulls.push_back({0, r});
    else valid.push_back({first_prefix(c0, r), r});
  }
  auto cmp_from = [&](size_t from) {
    return [&cols, from](const KeyIdx& a, const KeyIdx& b) {
      if (a.key != b.key) return a.key < b.key;
      for (size_t c = from; c < cols.size(); ++c) {
        int r = compare_column(cols[c], a.idx, b.idx);
        if (r != 0) return r < 0;
      }
      return a.idx < b.idx;
    };
  };
  std::vector<KeyIdx>& first = c0.nulls_last ? valid : nulls;
  std::vector<KeyIdx>& second = c0.nulls_last ? nulls : valid;
  const size_t from_first = c0.nulls_last ? rest_from : 1;
  const size_t from_second = c0.nulls_last ? 1 : rest_from;
  sort_prefix(first, k, cmp_from(from_first));
  size_t k2 = k > first.size() ? k - first.size() : 0;
  sort_prefix(second, k2, cmp_from(from_second));
  std::vector<IdxSize> out;
  out.reserve(first.size() + second.size());
  for (const auto& e : first) out.push_back(e.idx);
  for (const auto& e : second) out.push_back(e.idx);
  return out;
}

// All keys fixed-width and together (with a null bit for each key that has nulls) at most
// 64 bits: one packed order key per row, sorted by radix.
bool packed_sort(const std::vector<ArrayRef>& keys, const std::vector<bool>& desc,
                 const std::vector<bool>& nlast, size_t k, std::vector<IdxSize>& out) {
  int total = 0;
  for (const auto& a : keys) {
    int b = order_bits(a->dtype());
    if (b < 0 || b > 64) return false;
    if (!a->dtype().is_null()) total += b + (a->null_count() > 0 ? 1 : 0);
  }
  if (total > 64) return false;
  const int64_t n = keys[0]->length();
  std::vector<KeyIdx> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = {0, static_cast<IdxSize>(i)};
  int used = 0;
  for (size_t c = 0; c < keys.size(); ++c) {
    const Array& a = *keys[c];
    if (a.dtype().is_null()) continue;
    const int bits = order_bits(a.dtype());
    const uint64_t flip = desc[c] ? uint64_t(low_mask(bits)) : 0;
    const int shift = total - used - bits;  // this key's value bits sit at [shift, shift+bits)
    if (a.null_count() > 0) {
      // The null bit sits just above the value bits: set for nulls when they go last, set
      // for valid values when nulls go first.
      const uint8_t* valid = a.validity_bits();
      const int64_t off = a.offset();
      const bool last = nlast[c];
      for_each_order_bits(a, [&](int64_t i, u128 x) {
        bool ok = get_bit(valid, off + i);
        uint64_t part = ok ? (uint64_t(x) ^ flip) : 0;
        uint64_t nb = (ok != last) ? 1 : 0;
        v[i].key |= (part << shift) | (nb << (shift + bits));
      });
      used += bits + 1;
    } else {
      for_each_order_bits(a, [&](int64_t i, u128 x) { v[i].key |= (uint64_t(x) ^ flip) << shift; });
      used += bits;
    }
  }
  sort_key_idx(v, k);
  out.resize(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].idx;
  return true;
}

std::vector<bool> per_key(const std::vector<bool>& flags, size_t nkeys, const char* what) {
  if (flags.empty()) return std::vector<bool>(nkeys, false);
  if (flags.size() == 1) return std::vector<bool>(nkeys, flags[0]);
  if (flags.size() != nkeys)
    throw InvalidOperationError(err_msg("the length of `", what, "` (", flags.size(),
                                        ") does not match the number of sort keys (", nkeys, ")"));
  return flags;
}

}  // namespace

std::vector<IdxSize> arg_sort(const std::vector<ArrayRef>& keys, const SortOptions& options) {
  if (keys.empty()) throw InvalidOperationError("sort needs at least one key");
  const int64_t n = keys[0]->length();
  for (const auto& a : keys)
    if (a->length() != n)
      throw ShapeError(err_msg("sort keys differ in length: ", n, " vs ", a->length()));
  if (n >= static_cast<int64_t>(kNullIdx))
    throw ComputeError("sort: more rows than the 32-bit row index supports");
  auto desc = per_key(options.descending, keys.size(), "descending");
  auto nlast = per_key(options.nulls_last, keys.size(), "nulls_last");
  const size_t k = options.limit < 0 || options.limit > n ? static_cast<size_t>(n)
                                                          : static_cast<size_t>(options.limit);
  std::vector<IdxSize> out;
  if (packed_sort(keys, desc, nlast, k, out)) return out;
  // One 64-bit key with nulls: the nulls form their own run, the rest is radix sorted.
  if (keys.size() == 1 && order_bits(keys[0]->dtype()) == 64) {
    const Array& a = *keys[0];
    const uint64_t flip = desc[0] ? ~0ULL : 0;
    std::vector<KeyIdx> valid;
    std::vector<IdxSize> nulls;
    valid.reserve(static_cast<size_t>(n - a.null_count()));
    for_each_order_bits(a, [&](int64_t i, u128 x) {
      if (a.is_valid(i)) valid.push_back({uint64_t(x) ^ flip, static_cast<IdxSize>(i)});
      else nulls.push_back(static_cast<IdxSize>(i));
    });
    if (!nlast[0]) {
      if (nulls.size() >= k) {
        nulls.resize(k);
        return nulls;
      }
      out = std::move(nulls);
    }
    sort_key_idx(valid, k - std::min(k, out.size()));
    for (const auto& e : valid) out.push_back(e.idx);
    if (nlast[0])
      for (size_t i = 0; i < nulls.size() && out.size() < k; ++i) out.push_back(nulls[i]);
    return out;
  }
  return generic_sort(keys, desc, nlast, k);
}

ArrayRef sort_array(const Array& values, bool descending, bool nulls_last) {
  SortOptions opt;
  opt.descending = {descending};
  opt.nulls_last = {nulls_last};
  ArrayRef ref = values.slice(0, values.length());
  return take(values, arg_sort({ref}, opt));
}

}  // namespace frazil::compute
