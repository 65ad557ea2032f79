#include "frazil/compute/sort.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/categorical/categorical.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/struct/struct.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/half.hpp"
#include "frazil/core/cancel.hpp"

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
    case TypeId::Int128:
      return run(a.values<u128>(), [](u128 x) { return x ^ (u128(1) << 127); });
    case TypeId::UInt128: return run(a.values<u128>(), [](u128 x) { return x; });
    case TypeId::Float16: return run(a.values<uint16_t>(), half_order_bits);
    default: FRAZIL_CHECK(false);
  }
}

inline u128 low_mask(int bits) { return bits >= 128 ? ~u128(0) : (u128(1) << bits) - 1; }

template <typename W>
struct KeyIdxT {
  W key;
  IdxSize idx;
  bool operator<(const KeyIdxT& o) const { return key < o.key || (key == o.key && idx < o.idx); }
};
using KeyIdx = KeyIdxT<uint64_t>;

// LSD radix sort on 8-bit digits; stable, so equal keys keep their (ascending) idx order.
// Digits shared by every key are skipped.
template <typename W>
void radix_sort(std::vector<KeyIdxT<W>>& v) {
  constexpr int kDigits = sizeof(W);
  const size_t n = v.size();
  if (n < 256) {
    std::sort(v.begin(), v.end());
    return;
  }
  std::vector<std::array<uint32_t, 256>> hist(kDigits);
  for (auto& h : hist) h.fill(0);
  // In blocks of kCheckRows, so that a cancelled query stops within a block.
  for (size_t b = 0; b < n; b += kCheckRows) {
    check_cancelled();
    for (size_t i = b, e = std::min(n, b + kCheckRows); i < e; ++i)
      for (int d = 0; d < kDigits; ++d) ++hist[d][static_cast<uint8_t>(v[i].key >> (8 * d))];
  }
  std::vector<KeyIdxT<W>> tmp(n);
  for (int d = 0; d < kDigits; ++d) {
    auto& h = hist[d];
    if (h[static_cast<uint8_t>(v[0].key >> (8 * d))] == n) continue;  // nothing moves
    uint32_t sum = 0;
    for (auto& c : h) {
      uint32_t x = c;
      c = sum;
      sum += x;
    }
    for (size_t b = 0; b < n; b += kCheckRows) {
      check_cancelled();
      for (size_t i = b, e = std::min(n, b + kCheckRows); i < e; ++i)
        tmp[h[static_cast<uint8_t>(v[i].key >> (8 * d))]++] = v[i];
    }
    v.swap(tmp);
  }
}

// `cmp`, checking for cancellation every 2^20 comparisons: std::sort compares n log n
// times without another way in. The count is shared by every copy std::sort makes.
template <typename Cmp>
struct CheckedCmp {
  Cmp cmp;
  uint32_t* calls;
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    if ((++*calls & 0xFFFFF) == 0) check_cancelled();
    return cmp(a, b);
  }
};

// Sorts fully, or only the first k entries (top-k), by operator< / cmp.
template <typename T, typename Cmp>
void sort_prefix(std::vector<T>& v, size_t k, Cmp plain_cmp) {
  uint32_t calls = 0;
  const CheckedCmp<Cmp> cmp{plain_cmp, &calls};
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

// The k smallest (key, row) pairs in order, streaming over the keys with a bounded heap:
// no per-row allocation, for top-k with k much smaller than n.
template <typename W>
class TopK {
 public:
  explicit TopK(size_t k) : k_(k) { heap_.reserve(k); }
  // Rows must arrive in ascending order: a tie with the current k-th loses.
  void push(W key, IdxSize row) {
    if (heap_.size() < k_) {
      heap_.push_back({key, row});
      std::push_heap(heap_.begin(), heap_.end());
    } else if (k_ > 0 && key < heap_.front().key) {
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.back() = {key, row};
      std::push_heap(heap_.begin(), heap_.end());
    }
  }
  std::vector<IdxSize> finish() {
    std::sort_heap(heap_.begin(), heap_.end());
    std::vector<IdxSize> out(heap_.size());
    for (size_t i = 0; i < heap_.size(); ++i) out[i] = heap_[i].idx;
    return out;
  }

 private:
  size_t k_;
  std::vector<KeyIdxT<W>> heap_;
};

template <typename W>
std::vector<IdxSize> heap_top_k(const std::vector<W>& keys, size_t k) {
  TopK<W> top(k);
  for (size_t i = 0; i < keys.size(); ++i) top.push(keys[i], static_cast<IdxSize>(i));
  return top.finish();
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

// Big-endian bytes [from, from + 8), zero padded: compares like the bytes themselves.
inline uint64_t bytes_prefix(const BytesKey& k, uint32_t from) {
  uint8_t buf[8] = {0};
  uint32_t n = k.length();
  if (n > from) std::memcpy(buf, k.data() + from, std::min<uint32_t>(n - from, 8));
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

// Row entry of the generic sort: a 128-bit prefix of the first column (ascending, with
// descending applied) settles most comparisons without touching the columns.
struct Entry {
  uint64_t k0, k1;
  IdxSize idx;
};

Entry make_entry(const SortColumn& c, IdxSize i) {
  switch (c.kind) {
    case ColKind::Fixed: return {c.fixed[i], 0, i};
    case ColKind::Wide: return {uint64_t(c.wide[i] >> 64), uint64_t(c.wide[i]), i};
    case ColKind::Bytes: {
      uint64_t p0 = bytes_prefix(c.bytes[i], 0), p1 = bytes_prefix(c.bytes[i], 8);
      return c.descending ? Entry{~p0, ~p1, i} : Entry{p0, p1, i};
    }
    case ColKind::Constant: break;
  }
  return {0, 0, i};
}

std::vector<IdxSize> generic_sort(const std::vector<ArrayRef>& keys, const std::vector<bool>& desc,
                                  const std::vector<bool>& nlast, size_t k) {
  const int64_t n = keys[0]->length();
  std::vector<SortColumn> cols;
  cols.reserve(keys.size());
  for (size_t c = 0; c < keys.size(); ++c) cols.push_back(make_sort_column(*keys[c], desc[c], nlast[c]));
  const SortColumn& c0 = cols[0];
  // The prefix settles column 0 unless it holds byte strings (longer than the prefix, or
  // differing only in trailing zero bytes).
  const size_t rest_from = c0.kind == ColKind::Bytes ? 0 : 1;
  std::vector<Entry> valid, nulls;
  valid.reserve(static_cast<size_t>(n - (c0.validity ? keys[0]->null_count() : 0)));
  for (int64_t i = 0; i < n; ++i) {
    IdxSize r = static_cast<IdxSize>(i);
    if (c0.is_null(r)) nulls.push_back({0, 0, r});
    else valid.push_back(make_entry(c0, r));
  }
  check_cancelled();
  auto cmp_from = [&](size_t from) {
    return [&cols, from](const Entry& a, const Entry& b) {
      if (a.k0 != b.k0) return a.k0 < b.k0;
      if (a.k1 != b.k1) return a.k1 < b.k1;
      for (size_t c = from; c < cols.size(); ++c) {
        int r = compare_column(cols[c], a.idx, b.idx);
        if (r != 0) return r < 0;
      }
      return a.idx < b.idx;
    };
  };
  std::vector<Entry>& first = c0.nulls_last ? valid : nulls;
  std::vector<Entry>& second = c0.nulls_last ? nulls : valid;
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

// Fixed-width keys packed, first key most significant, with a null bit above each key
// that has nulls (set for nulls when they go last, for values when nulls go first).
template <typename W>
std::vector<W> pack_order_keys(const std::vector<ArrayRef>& keys, const std::vector<bool>& desc,
                               const std::vector<bool>& nlast, int total) {
  const int64_t n = keys[0]->length();
  std::vector<W> out(static_cast<size_t>(n), 0);
  W* o = out.data();
  int used = 0;
  for (size_t c = 0; c < keys.size(); ++c) {
    check_cancelled();
    const Array& a = *keys[c];
    if (a.dtype().is_null()) continue;
    const int bits = order_bits(a.dtype());
    const W flip = desc[c] ? static_cast<W>(low_mask(bits)) : 0;
    // This key's value bits sit at [shift, shift+bits), its null bit (if any) just above.
    const int shift = total - used - bits - (a.null_count() > 0 ? 1 : 0);
    if (a.null_count() > 0) {
      const uint8_t* valid = a.validity_bits();
      const int64_t off = a.offset();
      const bool last = nlast[c];
      for_each_order_bits(a, [&](int64_t i, u128 x) {
        if ((i & (kCheckRows - 1)) == 0) check_cancelled();
        bool ok = get_bit(valid, off + i);
        W part = ok ? (static_cast<W>(x) ^ flip) : 0;
        W nb = (ok != last) ? 1 : 0;
        o[i] |= (part << shift) | (nb << (shift + bits));
      });
      used += bits + 1;
    } else {
      for_each_order_bits(a, [&](int64_t i, u128 x) {
        if ((i & (kCheckRows - 1)) == 0) check_cancelled();
        o[i] |= (static_cast<W>(x) ^ flip) << shift;
      });
      used += bits;
    }
  }
  return out;
}

template <typename W>
std::vector<IdxSize> sort_packed(const std::vector<ArrayRef>& keys, const std::vector<bool>& desc,
                                 const std::vector<bool>& nlast, int total, size_t k) {
  const size_t n = static_cast<size_t>(keys[0]->length());
  const bool small_k = k < n && k <= 4096 && k * 16 < n;
  if (small_k && keys.size() == 1 && keys[0]->null_count() == 0) {
    // One key without nulls: stream its order bits straight into the heap.
    const W flip = desc[0] ? static_cast<W>(low_mask(total)) : 0;
    TopK<W> top(k);
    for_each_order_bits(*keys[0], [&](int64_t i, u128 x) {
      top.push(static_cast<W>(x) ^ flip, static_cast<IdxSize>(i));
    });
    return top.finish();
  }
  std::vector<W> packed = pack_order_keys<W>(keys, desc, nlast, total);
  check_cancelled();
  if (small_k) return heap_top_k(packed, k);
  std::vector<KeyIdxT<W>> v(n);
  for (size_t b = 0; b < n; b += kCheckRows) {
    check_cancelled();
    for (size_t i = b, e = std::min(n, b + kCheckRows); i < e; ++i) v[i] = {packed[i], static_cast<IdxSize>(i)};
  }
  packed = {};
  if (k >= n) radix_sort(v);
  else sort_prefix(v, k, [](const KeyIdxT<W>& a, const KeyIdxT<W>& b) { return a < b; });
  std::vector<IdxSize> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = v[i].idx;
  return out;
}

// All keys fixed-width and together (with their null bits) at most 128 bits: one packed
// order key per row, radix sorted (or heap-selected for a small limit).
bool packed_sort(const std::vector<ArrayRef>& keys, const std::vector<bool>& desc,
                 const std::vector<bool>& nlast, size_t k, std::vector<IdxSize>& out) {
  int total = 0;
  for (const auto& a : keys) {
    int b = order_bits(a->dtype());
    if (b < 0) return false;
    if (!a->dtype().is_null()) total += b + (a->null_count() > 0 ? 1 : 0);
  }
  if (total <= 64) out = sort_packed<uint64_t>(keys, desc, nlast, total, k);
  else if (total <= 128) out = sort_packed<u128>(keys, desc, nlast, total, k);
  else return false;
  return true;
}

// Value k of every row of an Array, for k in [0, width) (null where the row is null).
std::vector<ArrayRef> array_positions(const Array& a) {
  const int64_t w = a.dtype().width(), n = a.length();
  ArrayRef r = regular_array(a);
  std::vector<ArrayRef> out;
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  for (int64_t k = 0; k < w; ++k) {
    for (int64_t i = 0; i < n; ++i)
      idx[static_cast<size_t>(i)] = r->is_valid(i) ? static_cast<IdxSize>(i * w + k) : kNullIdx;
    out.push_back(take(*r->child(0), idx));
  }
  return out;
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

std::vector<IdxSize> arg_sort(const std::vector<ArrayRef>& keys_in, const SortOptions& options) {
  if (keys_in.empty()) throw InvalidOperationError("sort needs at least one key");
  // Categorical sorts by its strings, Enum by category order: both as uint32 order keys.
  std::vector<ArrayRef> keys = keys_in;
  for (auto& k : keys)
    if (k->dtype().is_categorical()) k = categorical_order_key(*k);
  // A Struct key sorts by its fields in order (lexicographically), each with the key's flags;
  // an Array key by its values in order, as if each position were a field.
  auto by_parts = [](const ArrayRef& a) { return a->dtype().id() == TypeId::Struct || a->dtype().id() == TypeId::Array; };
  if (std::any_of(keys.begin(), keys.end(), by_parts)) {
    auto desc = per_key(options.descending, keys.size(), "descending");
    auto nlast = per_key(options.nulls_last, keys.size(), "nulls_last");
    std::vector<ArrayRef> flat;
    SortOptions o = options;
    o.descending.clear();
    o.nulls_last.clear();
    for (size_t i = 0; i < keys.size(); ++i) {
      std::vector<ArrayRef> parts{keys[i]};
      if (keys[i]->dtype().id() == TypeId::Struct) parts = struct_fields(*keys[i]);
      if (keys[i]->dtype().id() == TypeId::Array) parts = array_positions(*keys[i]);
      for (auto& p : parts) {
        flat.push_back(std::move(p));
        o.descending.push_back(desc[i]);
        o.nulls_last.push_back(nlast[i]);
      }
    }
    if (flat.empty()) flat.push_back(make_null_array(DataType::null(), keys[0]->length()));
    if (o.descending.empty()) o.descending = {false}, o.nulls_last = {false};
    return arg_sort(flat, o);
  }
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
  // One 64-bit key with nulls: the nulls form their own run, the rest is radix sorted.
  if (keys.size() == 1 && order_bits(keys[0]->dtype()) == 64 && keys[0]->null_count() > 0) {
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
  if (packed_sort(keys, desc, nlast, k, out)) return out;
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
