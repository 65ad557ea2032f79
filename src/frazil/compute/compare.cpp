#include "frazil/compute/compare.hpp"

#include <algorithm>
#include <cstring>
#include <bit>
#include <type_traits>
#include <unordered_set>

#include "frazil/compute/boolean.hpp"
#include "frazil/compute/categorical/categorical.hpp"
#include "frazil/compute/range_bitset.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/wide_int/wide_int.hpp"
#include "frazil/core/cpu_dispatch.hpp"

namespace frazil::compute {

using namespace detail;

const char* cmp_op_symbol(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "==";
    case CmpOp::NotEq: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::LtEq: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::GtEq: return ">=";
    case CmpOp::EqMissing: return "eq_missing";
    case CmpOp::NotEqMissing: return "ne_missing";
  }
  return "?";
}

namespace {

// Calls f(Tag<T>) for the physical value type of any fixed-width dtype.
template <typename F>
decltype(auto) dispatch_physical(const DataType& t, F&& f) {
  switch (t.id()) {
    case TypeId::Date: return f(Tag<int32_t>{});
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return f(Tag<int64_t>{});
    case TypeId::Decimal:
    case TypeId::Int128: return f(Tag<__int128>{});
    case TypeId::UInt128: return f(Tag<unsigned __int128>{});
    case TypeId::Categorical:
    case TypeId::Enum: return f(Tag<uint32_t>{});
    default: return dispatch_numeric(t.id(), std::forward<F>(f));
  }
}

// String ordering and equality on views, using the inline prefix before touching data.
struct StrCmp {
  const Array& a;
  const Array& b;
  bool eq(int64_t i, int64_t j) const {
    const View& x = a.views()[i];
    const View& y = b.views()[j];
    uint64_t hx, hy;
    std::memcpy(&hx, &x, 8);  // length + 4-byte prefix
    std::memcpy(&hy, &y, 8);
    if (hx != hy) return false;
    if (x.is_inline()) return std::memcmp(x.data + 4, y.data + 4, 8) == 0;
    return a.str_value(i) == b.str_value(j);
  }
  // <0, 0, >0
  int cmp(int64_t i, int64_t j) const {
    const View& x = a.views()[i];
    const View& y = b.views()[j];
    const uint32_t px = __builtin_bswap32(x.prefix()), py = __builtin_bswap32(y.prefix());
    if (px != py) return px < py ? -1 : 1;
    const int c = a.str_value(i).compare(b.str_value(j));
    return c;
  }
};

bool cmp_result(CmpOp op, int c) {
  switch (op) {
    case CmpOp::Eq:
    case CmpOp::EqMissing: return c == 0;
    case CmpOp::NotEq:
    case CmpOp::NotEqMissing: return c != 0;
    case CmpOp::Lt: return c < 0;
    case CmpOp::LtEq: return c <= 0;
    case CmpOp::Gt: return c > 0;
    case CmpOp::GtEq: return c >= 0;
  }
  return false;
}

// Fills `out` (offset 0, n bits) with op applied to every row, ignoring validity.
template <typename T>
void compare_values(CmpOp op, const Array& a, const Array& b, int64_t n, uint8_t* out) {
  const T* pa = a.values<T>();
  const T* pb = b.values<T>();
  with_broadcast(is_broadcast(a, n), is_broadcast(b, n), [&](auto SA, auto SB) {
    constexpr bool sa = decltype(SA)::value, sb = decltype(SB)::value;
    auto run = [&](auto pred) {
      pack_bits(n, out, [&](int64_t i) { return pred(pa[sa ? 0 : i], pb[sb ? 0 : i]); });
    };
    switch (op) {
      case CmpOp::Eq:
      case CmpOp::EqMissing: run([](T x, T y) { return total_eq(x, y); }); break;
      case CmpOp::NotEq:
      case CmpOp::NotEqMissing: run([](T x, T y) { return !total_eq(x, y); }); break;
      case CmpOp::Lt: run([](T x, T y) { return total_lt(x, y); }); break;
      case CmpOp::LtEq: run([](T x, T y) { return !total_lt(y, x); }); break;
      case CmpOp::Gt: run([](T x, T y) { return total_lt(y, x); }); break;
      case CmpOp::GtEq: run([](T x, T y) { return !total_lt(x, y); }); break;
    }
  });
}

void compare_strings(CmpOp op, const Array& a, const Array& b, int64_t n, uint8_t* out) {
  StrCmp c{a, b};
  with_broadcast(is_broadcast(a, n), is_broadcast(b, n), [&](auto SA, auto SB) {
    constexpr bool sa = decltype(SA)::value, sb = decltype(SB)::value;
    if (op == CmpOp::Eq || op == CmpOp::EqMissing)
      pack_bits(n, out, [&](int64_t i) { return c.eq(sa ? 0 : i, sb ? 0 : i); });
    else if (op == CmpOp::NotEq || op == CmpOp::NotEqMissing)
      pack_bits(n, out, [&](int64_t i) { return !c.eq(sa ? 0 : i, sb ? 0 : i); });
    else
      pack_bits(n, out, [&](int64_t i) { return cmp_result(op, c.cmp(sa ? 0 : i, sb ? 0 : i)); });
  });
}

void compare_booleans(CmpOp op, const Array& a, const Array& b, int64_t n, uint8_t* out) {
  auto src = [n](const Array& x) {
    return is_broadcast(x, n) ? BitSource::all(x.bool_value(0)) : BitSource::of(x.buffer(0).data(), x.offset());
  };
  auto run = [&](auto f) { bitmap_binary(src(a), src(b), n, out, f); };
  switch (op) {
    case CmpOp::Eq:
    case CmpOp::EqMissing: run([](uint64_t x, uint64_t y) { return ~(x ^ y); }); break;
    case CmpOp::NotEq:
    case CmpOp::NotEqMissing: run([](uint64_t x, uint64_t y) { return x ^ y; }); break;
    case CmpOp::Lt: run([](uint64_t x, uint64_t y) { return ~x & y; }); break;
    case CmpOp::LtEq: run([](uint64_t x, uint64_t y) { return ~x | y; }); break;
    case CmpOp::Gt: run([](uint64_t x, uint64_t y) { return x & ~y; }); break;
    case CmpOp::GtEq: run([](uint64_t x, uint64_t y) { return x | ~y; }); break;
  }
}

bool is_missing_op(CmpOp op) { return op == CmpOp::EqMissing || op == CmpOp::NotEqMissing; }

// Validity of one operand as a bit source for the broadcast shape.
BitSource valid_source(const Array& x, int64_t n) {
  if (x.dtype().is_null()) return BitSource::all(false);
  if (is_broadcast(x, n)) return BitSource::all(x.is_valid(0));
  return validity_source(x);
}

}  // namespace

FRAZIL_MULTIVERSION ArrayRef compare(CmpOp op, const Array& a, const Array& b) {
  // Float16 compares as the Float32 it widens to exactly (NaN and -0.0 rules included).
  if (a.dtype().id() == TypeId::Float16 || b.dtype().id() == TypeId::Float16)
    return compare(op, *widen_float16(a), *widen_float16(b));
  const int64_t n = broadcast_length(a, b, cmp_op_symbol(op));
  const DataType& t = a.dtype();
  const bool null_side = t.is_null() || b.dtype().is_null();
  if (!null_side && t != b.dtype() &&
      !(t.is_view() && b.dtype().is_view() && t.id() == b.dtype().id()))
    throw InvalidOperationError(err_msg("cannot compare `", t.short_name(), "` with `",
                                        b.dtype().short_name(), "`"));
  // Categorical orders by its strings: compare the lexical ranks (equality stays on codes).
  if (t.id() == TypeId::Categorical && !null_side && op != CmpOp::Eq && op != CmpOp::NotEq && !is_missing_op(op))
    return compare(op, *categorical_order_key(a), *categorical_order_key(b));
  Buffer values = alloc_bits(n);
  uint8_t* out = values.mutable_data();
  if (null_side) {
    if (!is_missing_op(op)) return make_null_array(DataType::boolean(), n);
    std::memset(out, 0, static_cast<size_t>(bitmap_bytes(n)));
  } else if (t.is_boolean()) {
    compare_booleans(op, a, b, n, out);
  } else if (t.is_view()) {
    compare_strings(op, a, b, n, out);
  } else if (t.is_fixed_width()) {
    dispatch_physical(t, [&](auto tag) {
      using T = typename decltype(tag)::type;
      compare_values<T>(op, a, b, n, out);
    });
  } else if (t.id() == TypeId::Struct && (op == CmpOp::Eq || op == CmpOp::NotEq || is_missing_op(op))) {
    // Structs are equal when every field is (a null field equals a null field), as in Polars.
    std::memset(out, 0xFF, static_cast<size_t>(bitmap_bytes(n)));
    for (size_t f = 0; f < t.fields().size(); ++f) {
      ArrayRef fa = a.child(f)->slice(a.offset(), a.length()), fb = b.child(f)->slice(b.offset(), b.length());
      ArrayRef eq = compare(CmpOp::EqMissing, *fa, *fb);
      bitmap_binary(BitSource::of(out, 0), BitSource::of(eq->buffer(0).data(), eq->offset()), n, out,
                    [](uint64_t x, uint64_t y) { return x & y; });
    }
    if (op == CmpOp::NotEq || op == CmpOp::NotEqMissing)
      bitmap_unary(BitSource::of(out, 0), n, out, [](uint64_t x) { return ~x; });
  } else if (t.is_list_like() && (op == CmpOp::Eq || op == CmpOp::NotEq || is_missing_op(op))) {
    // Lists and Arrays are equal when their values are, one by one (null equals null).
    std::memset(out, 0, static_cast<size_t>(bitmap_bytes(n)));
    const bool ne = op == CmpOp::NotEq || op == CmpOp::NotEqMissing;
    const int64_t la = a.length(), lb = b.length();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t x = la == 1 ? 0 : i, y = lb == 1 ? 0 : i;
      if (!a.is_valid(x) || !b.is_valid(y)) continue;  // the validity (or the missing rule) decides
      if (values_equal(a, x, b, y) != ne) set_bit(out, i);
    }
  } else {
    throw InvalidOperationError(err_msg("comparison `", cmp_op_symbol(op), "` is not supported for dtype `",
                                        t.short_name(), "`"));
  }
  if (!is_missing_op(op)) {
    bool all_null = false;
    Buffer validity = combine_validity(a, b, n, &all_null);
    if (all_null) return make_null_array(DataType::boolean(), n);
    return Array::make(DataType::boolean(), n, std::move(validity), {std::move(values)});
  }
  // eq_missing: (va & vb & eq) | (~va & ~vb); ne_missing is its complement.
  const BitSource va = valid_source(a, n), vb = valid_source(b, n);
  const bool ne = op == CmpOp::NotEqMissing;
  Buffer valid_both = alloc_bits(n), none_valid = alloc_bits(n);
  bitmap_binary(va, vb, n, valid_both.mutable_data(), [](uint64_t x, uint64_t y) { return x & y; });
  bitmap_binary(va, vb, n, none_valid.mutable_data(), [](uint64_t x, uint64_t y) { return ~x & ~y; });
  Buffer result = alloc_bits(n);
  // eq bits: for ne ops `out` holds "not equal", so flip it back first.
  bitmap_binary(BitSource::of(out, 0), BitSource::of(valid_both.data(), 0), n, result.mutable_data(),
                [ne](uint64_t v, uint64_t both) { return (ne ? ~v : v) & both; });
  bitmap_binary(BitSource::of(result.data(), 0), BitSource::of(none_valid.data(), 0), n,
                result.mutable_data(), [ne](uint64_t eq, uint64_t none) {
                  const uint64_t r = eq | none;
                  return ne ? ~r : r;
                });
  return Array::make(DataType::boolean(), n, Buffer(), {std::move(result)});
}

// ---- is_in ----------------------------------------------------------------------------

namespace {

// is_in for strings when every candidate is at most 12 bytes: such a candidate is wholly
// inline in its view, so a row matches iff its two view words equal the candidate's. The
// row's words are masked to the candidate's length first, so bytes after an inline string
// need not be zero; a row of another length differs in the length word (a long row's
// buffer index and offset never matter). No branch per row: N candidates are 2N compares.
struct InlineCandidates {
  static constexpr int kMax = 16;
  int count = 0;
  uint64_t head[kMax], rest[kMax], head_mask[kMax], rest_mask[kMax];

  void add(const BytesKey& k) {
    const uint32_t len = k.length();
    head[count] = k.head;
    rest[count] = k.rest;
    head_mask[count] = len >= 4 ? ~uint64_t{0} : (uint64_t{1} << (32 + 8 * len)) - 1;
    rest_mask[count] = len <= 4 ? 0 : len >= 12 ? ~uint64_t{0} : (uint64_t{1} << (8 * (len - 4))) - 1;
    ++count;
  }
  bool match(int c, uint64_t h, uint64_t r) const {
    return ((h & head_mask[c]) == head[c]) & ((r & rest_mask[c]) == rest[c]);
  }
};

template <int N>  // N > 0: exactly N candidates, unrolled; 0: any count
void is_in_inline_views(const View* xv, int64_t n, const InlineCandidates& cand, uint8_t* out) {
  pack_bits(n, out, [&](int64_t i) {
    uint64_t words[2];
    std::memcpy(words, &xv[i], 16);
    bool hit = false;
    if constexpr (N > 0) {
      for (int c = 0; c < N; ++c) hit |= cand.match(c, words[0], words[1]);
    } else {
      for (int c = 0; c < cand.count; ++c) hit |= cand.match(c, words[0], words[1]);
    }
    return hit;
  });
}

template <typename T>
ArrayRef is_in_fixed(const Array& x, const Array& values, Buffer validity) {
  // A sorted vector of the distinct non-null values; binary search per row. Tiny sets are
  // scanned linearly (cheaper than branching through a search).
  std::vector<T> set;
  const T* pv = values.values<T>();
  for (int64_t i = 0; i < values.length(); ++i)
    if (values.is_valid(i)) set.push_back(pv[i]);
  std::sort(set.begin(), set.end(), [](T p, T q) { return total_lt(p, q); });
  set.erase(std::unique(set.begin(), set.end(), [](T p, T q) { return total_eq(p, q); }), set.end());
  const int64_t n = x.length();
  Buffer bits = alloc_bits(n);
  const T* px = x.values<T>();
  if (set.size() <= 8) {
    pack_bits(n, bits.mutable_data(), [&](int64_t i) {
      bool hit = false;
      for (const T& s : set) hit |= total_eq(px[i], s);
      return hit;
    });
    return Array::make(DataType::boolean(), n, std::move(validity), {std::move(bits)});
  }
  if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
    // Integers within a modest range: one bit per value of the range, one test per row.
    using U = std::make_unsigned_t<T>;
    const U lo = static_cast<U>(set.front()), range = static_cast<U>(static_cast<U>(set.back()) - lo);
    if (uint64_t(range) < (uint64_t{1} << 24)) {
      // Offsets from lo in T's own width (a signed range never wraps there).
      RangeBitset member(0, uint64_t(range) + 1);
      for (T v : set) member.insert(static_cast<U>(static_cast<U>(v) - lo));
      pack_bits(n, bits.mutable_data(),
                [&](int64_t i) { return member.contains(static_cast<U>(static_cast<U>(px[i]) - lo)); });
      return Array::make(DataType::boolean(), n, std::move(validity), {std::move(bits)});
    }
  }
  pack_bits(n, bits.mutable_data(), [&](int64_t i) {
    auto it = std::lower_bound(set.begin(), set.end(), px[i], [](T p, T q) { return total_lt(p, q); });
    return it != set.end() && total_eq(*it, px[i]);
  });
  return Array::make(DataType::boolean(), n, std::move(validity), {std::move(bits)});
}

}  // namespace

ArrayRef is_in(const Array& x, const Array& values, bool nulls_equal) {
  if (x.dtype().id() == TypeId::Float16 || values.dtype().id() == TypeId::Float16)
    return is_in(*widen_float16(x), *widen_float16(values), nulls_equal);
  const int64_t n = x.length();
  const DataType& t = x.dtype();
  const bool values_have_null = values.null_count() > 0;
  // Rows where x is null: null (default) or, with nulls_equal, whether values hold a null.
  Buffer validity = aligned_validity(x);
  auto fix_nulls = [&](ArrayRef r) -> ArrayRef {
    if (!nulls_equal || x.null_count() == 0) return r;
    Buffer bits = alloc_bits(n);
    bitmap_binary(BitSource::of(r->buffer(0).data(), 0), validity_source(x), n, bits.mutable_data(),
                  [values_have_null](uint64_t v, uint64_t valid) {
                    return (v & valid) | (values_have_null ? ~valid : 0);
                  });
    return Array::make(DataType::boolean(), n, Buffer(), {std::move(bits)});
  };
  if (t.is_null()) {
    ArrayRef r = nulls_equal ? nullptr : make_null_array(DataType::boolean(), n);
    if (r) return r;
    Buffer bits = alloc_bits(n);
    std::memset(bits.mutable_data(), values_have_null ? 0xff : 0, static_cast<size_t>(bitmap_bytes(n)));
    return Array::make(DataType::boolean(), n, Buffer(), {std::move(bits)});
  }
  if (!values.dtype().is_null() && values.dtype() != t)
    throw InvalidOperationError(err_msg("is_in: `", t.short_name(), "` cannot be checked against values of dtype `",
                                        values.dtype().short_name(), "`"));
  if (values.dtype().is_null() || values.length() == values.null_count()) {
    Buffer bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(n)));
    return fix_nulls(Array::make(DataType::boolean(), n, validity, {std::move(bits)}));
  }
  if (t.is_boolean()) {
    bool has_true = false, has_false = false;
    for (int64_t i = 0; i < values.length(); ++i)
      if (values.is_valid(i)) (values.bool_value(i) ? has_true : has_false) = true;
    Buffer bits = alloc_bits(n);
    bitmap_unary(BitSource::of(x.buffer(0).data(), x.offset()), n, bits.mutable_data(),
                 [has_true, has_false](uint64_t v) {
                   return (has_true ? v : 0) | (has_false ? ~v : 0);
                 });
    return fix_nulls(Array::make(DataType::boolean(), n, validity, {std::move(bits)}));
  }
  if (t.is_view()) {
    // Rows are compared by their 16-byte views (length and prefix first; short strings
    // are wholly inline), so most rows never touch string data.
    const auto xbufs = view_buffer_pointers(x);
    const auto vbufs = view_buffer_pointers(values);
    const View* xv = x.views();
    std::vector<BytesKey> set;
    for (int64_t i = 0; i < values.length(); ++i)
      if (values.is_valid(i)) {
        BytesKey k = BytesKey::from_view(values.views()[i], vbufs.data());
        if (std::find(set.begin(), set.end(), k) == set.end()) set.push_back(k);
      }
    Buffer bits = alloc_bits(n);
    const bool all_inline = std::all_of(set.begin(), set.end(), [](const BytesKey& k) { return k.length() <= 12; });
    if (all_inline && set.size() <= static_cast<size_t>(InlineCandidates::kMax)) {
      InlineCandidates cand;
      for (const BytesKey& k : set) cand.add(k);
      uint8_t* out = bits.mutable_data();
      switch (cand.count) {
        case 1: is_in_inline_views<1>(xv, n, cand, out); break;
        case 2: is_in_inline_views<2>(xv, n, cand, out); break;
        case 3: is_in_inline_views<3>(xv, n, cand, out); break;
        case 4: is_in_inline_views<4>(xv, n, cand, out); break;
        default: is_in_inline_views<0>(xv, n, cand, out); break;
      }
    } else if (set.size() <= 8) {
      // The first 8 bytes of a view (length, 4-byte prefix) settle most rows; only a row
      // whose head matches a candidate's is compared in full.
      pack_bits(n, bits.mutable_data(), [&](int64_t i) {
        uint64_t head;
        std::memcpy(&head, &xv[i], 8);
        const uint32_t len = static_cast<uint32_t>(head);
        if (len < 4) head &= (uint64_t{1} << (32 + 8 * len)) - 1;
        bool hit = false;
        for (const BytesKey& s : set)
          hit |= s.head == head && s == BytesKey::from_view(xv[i], xbufs.data());
        return hit;
      });
    } else {
      struct KeyHash {
        size_t operator()(const BytesKey& k) const { return static_cast<size_t>(k.hash()); }
      };
      std::unordered_set<BytesKey, KeyHash> hashed(set.begin(), set.end());
      pack_bits(n, bits.mutable_data(),
                [&](int64_t i) { return hashed.count(BytesKey::from_view(xv[i], xbufs.data())) > 0; });
    }
    return fix_nulls(Array::make(DataType::boolean(), n, validity, {std::move(bits)}));
  }
  if (!t.is_fixed_width())
    throw InvalidOperationError(err_msg("is_in is not supported for dtype `", t.short_name(), "`"));
  return fix_nulls(dispatch_physical(t, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return is_in_fixed<T>(x, values, validity);
  }));
}

ArrayRef is_between(const Array& x, const Array& lo, const Array& hi, const std::string& closed) {
  CmpOp lo_op, hi_op;
  if (closed == "both") lo_op = CmpOp::GtEq, hi_op = CmpOp::LtEq;
  else if (closed == "left") lo_op = CmpOp::GtEq, hi_op = CmpOp::Lt;
  else if (closed == "right") lo_op = CmpOp::Gt, hi_op = CmpOp::LtEq;
  else if (closed == "none") lo_op = CmpOp::Gt, hi_op = CmpOp::Lt;
  else
    throw InvalidOperationError(err_msg("is_between: closed must be one of 'both', 'left', 'right', 'none', got '",
                                        closed, "'"));
  ArrayRef a = compare(lo_op, x, lo);
  ArrayRef b = compare(hi_op, x, hi);
  return and_kleene(*a, *b);
}

}  // namespace frazil::compute
