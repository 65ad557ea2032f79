#include "frazil/compute/key_encoding.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "frazil/core/error.hpp"
#include "frazil/core/half.hpp"

namespace frazil::compute {

namespace {

using u128 = unsigned __int128;

// Bits a fixed-width key column needs in a packed key; 0 for types that do not pack.
int value_bits(const DataType& t) {
  switch (t.id()) {
    case TypeId::Null: return 0;
    case TypeId::Boolean: return 1;
    case TypeId::Decimal: return 128;
    default: return t.is_fixed_width() ? t.byte_width() * 8 : -1;
  }
}

// Calls f(i, bits) for every row with the column's canonical bits (0 for null rows).
template <typename F>
void for_each_bits(const Array& a, F&& f) {
  const int64_t n = a.length();
  auto run = [&](auto* v, auto canon) {
    for (int64_t i = 0; i < n; ++i) f(i, static_cast<u128>(canon(v[i])));
  };
  auto id = [](auto x) { return x; };
  switch (a.dtype().id()) {
    case TypeId::Boolean: {
      const uint8_t* bits = a.buffer(0).data();
      for (int64_t i = 0; i < n; ++i) f(i, static_cast<u128>(get_bit(bits, a.offset() + i)));
      return;
    }
    // Signed values get their sign bit flipped so that small ranges around 0 stay dense
    // (direct indexing); any injective map would do for equality.
    case TypeId::Int8: return run(a.values<uint8_t>(), [](uint8_t x) { return uint8_t(x ^ 0x80); });
    case TypeId::UInt8: return run(a.values<uint8_t>(), id);
    case TypeId::Int16: return run(a.values<uint16_t>(), [](uint16_t x) { return uint16_t(x ^ 0x8000); });
    case TypeId::UInt16: return run(a.values<uint16_t>(), id);
    case TypeId::Int32:
    case TypeId::Date: return run(a.values<uint32_t>(), [](uint32_t x) { return x ^ 0x80000000U; });
    case TypeId::UInt32:
    case TypeId::Categorical:
    case TypeId::Enum: return run(a.values<uint32_t>(), id);
    case TypeId::Int64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time:
      return run(a.values<uint64_t>(), [](uint64_t x) { return x ^ 0x8000000000000000ULL; });
    case TypeId::UInt64: return run(a.values<uint64_t>(), id);
    case TypeId::Float32: return run(a.values<float>(), [](float x) { return canonical_f32_bits(x); });
    case TypeId::Float64: return run(a.values<double>(), [](double x) { return canonical_f64_bits(x); });
    case TypeId::Decimal:
    case TypeId::Int128:
    case TypeId::UInt128: return run(a.values<u128>(), id);
    case TypeId::Float16: return run(a.values<uint16_t>(), [](uint16_t x) { return canonical_half_bits(x); });
    default: FRAZIL_CHECK(false);
  }
}

// Packs fixed-width columns into one word per row (W = uint64_t or u128). The first
// packed column assigns every word, later ones OR their bits in, so the words need no
// zeroing first.
template <typename W>
ScratchVector<W> pack_columns(const std::vector<ArrayRef>& keys, bool null_bits) {
  const int64_t n = keys[0]->length();
  ScratchVector<W> out(static_cast<size_t>(n));
  W* o = out.data();
  int shift = 0;
  bool first = true;
  for (const auto& k : keys) {
    const Array& a = *k;
    if (a.dtype().is_null()) continue;  // a constant: adds nothing to equality
    const int bits = value_bits(a.dtype());
    const bool nulls = a.null_count() > 0;
    auto pack = [&](auto assign) {
      auto put = [&](int64_t i, W w) {
        if constexpr (decltype(assign)::value) o[i] = w;
        else o[i] |= w;
      };
      if (!nulls) {
        for_each_bits(a, [&](int64_t i, u128 v) { put(i, static_cast<W>(v) << shift); });
        return;
      }
      const uint8_t* valid = a.validity_bits();
      const int64_t off = a.offset();
      if (null_bits) {
        // null -> value bits 0 and the null bit set
        for_each_bits(a, [&](int64_t i, u128 v) {
          const bool ok = get_bit(valid, off + i);
          put(i, (static_cast<W>(ok ? v : 0) << shift) | (static_cast<W>(!ok) << (shift + bits)));
        });
      } else {
        for_each_bits(a, [&](int64_t i, u128 v) { put(i, static_cast<W>(get_bit(valid, off + i) ? v : 0) << shift); });
      }
    };
    if (first) pack(std::true_type{});
    else pack(std::false_type{});
    first = false;
    shift += bits + (null_bits && nulls ? 1 : 0);
  }
  if (first) std::fill(out.begin(), out.end(), W{0});  // only Null columns
  return out;
}

// --- Row encoding: [valid byte][value] per column; values are canonical fixed-width bytes,
// or a 4-byte length and the bytes, or (nested) the encoded elements. Injective, not
// order-preserving.

void encode_value(const Array& a, int64_t i, std::vector<uint8_t>& out);

void append(std::vector<uint8_t>& out, const void* p, size_t n) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  out.insert(out.end(), b, b + n);
}

// Slow path for nested values (one call per row and element).
void encode_value(const Array& a, int64_t i, std::vector<uint8_t>& out) {
  bool valid = a.is_valid(i);
  out.push_back(valid ? 1 : 0);
  if (!valid) return;
  switch (a.dtype().id()) {
    case TypeId::Null: return;
    case TypeId::Boolean: out.push_back(a.bool_value(i) ? 1 : 0); return;
    case TypeId::String:
    case TypeId::Binary: {
      std::string_view s = a.str_value(i);
      uint32_t len = static_cast<uint32_t>(s.size());
      append(out, &len, 4);
      append(out, s.data(), s.size());
      return;
    }
    case TypeId::Float32: {
      uint32_t b = canonical_f32_bits(a.values<float>()[i]);
      append(out, &b, 4);
      return;
    }
    case TypeId::Float64: {
      uint64_t b = canonical_f64_bits(a.values<double>()[i]);
      append(out, &b, 8);
      return;
    }
    case TypeId::Float16: {
      uint16_t b = canonical_half_bits(a.values<uint16_t>()[i]);
      append(out, &b, 2);
      return;
    }
    case TypeId::Array:
    case TypeId::List: {
      const int64_t* o = a.list_offsets();
      uint32_t len = static_cast<uint32_t>(o[i + 1] - o[i]);
      append(out, &len, 4);
      for (int64_t j = o[i]; j < o[i + 1]; ++j) encode_value(*a.child(0), j, out);
      return;
    }
    case TypeId::Struct:
      for (const auto& c : a.children()) encode_value(*c, a.offset() + i, out);
      return;
    default: {
      int w = a.dtype().byte_width();
      append(out, a.buffer(0).data() + (a.offset() + i) * w, w);
      return;
    }
  }
}

void row_encode(const std::vector<ArrayRef>& keys, EncodedKeys& enc) {
  const int64_t n = keys[0]->length();
  // Per-row sizes, column by column.
  ScratchVector<uint64_t> offsets(static_cast<size_t>(n) + 1, 0);
  uint64_t* size = offsets.data() + 1;
  bool nested = false;
  for (const auto& k : keys) {
    const Array& a = *k;
    if (a.dtype().is_nested()) {
      nested = true;
      continue;
    }
    if (a.dtype().is_view()) {
      const View* v = a.views();
      for (int64_t i = 0; i < n; ++i) size[i] += a.is_valid(i) ? 5 + v[i].length : 1;
    } else {
      int w = a.dtype().is_null() ? 0 : a.dtype().is_boolean() ? 1 : a.dtype().byte_width();
      for (int64_t i = 0; i < n; ++i) size[i] += 1 + w;
    }
  }
  std::vector<std::vector<uint8_t>> nested_rows;
  if (nested) {
    // Encode nested columns per row once; their sizes join the others.
    nested_rows.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      for (const auto& k : keys)
        if (k->dtype().is_nested()) encode_value(*k, i, nested_rows[i]);
      size[i] += nested_rows[i].size();
    }
  }
  for (int64_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
  if (offsets[n] > UINT32_MAX * uint64_t(64))
    throw ComputeError("group/join keys too large to encode");
  // Every byte of the rows is written below; only the tail padding needs zeros.
  enc.storage.resize(offsets[n] + 16);
  std::memset(enc.storage.data() + offsets[n], 0, 16);
  uint8_t* base = enc.storage.data();
  ScratchVector<uint64_t> cursor(offsets.begin(), offsets.end() - 1);
  for (const auto& k : keys) {
    const Array& a = *k;
    if (a.dtype().is_nested()) continue;
    const bool nulls = a.null_count() > 0;
    switch (a.dtype().id()) {
      case TypeId::Null:
        for (int64_t i = 0; i < n; ++i) base[cursor[i]++] = 0;
        break;
      case TypeId::String:
      case TypeId::Binary: {
        const View* v = a.views();
        auto bufs = view_buffer_pointers(a);
        for (int64_t i = 0; i < n; ++i) {
          uint8_t* p = base + cursor[i];
          if (nulls && !a.is_valid(i)) {
            *p = 0;
            cursor[i] += 1;
            continue;
          }
          *p = 1;
          uint32_t len = v[i].length;
          std::memcpy(p + 1, &len, 4);
          const uint8_t* src = v[i].is_inline() ? v[i].data : bufs[v[i].buffer_index()] + v[i].offset();
          if (len) std::memcpy(p + 5, src, len);
          cursor[i] += 5 + len;
        }
        break;
      }
      default: {
        const int w = a.dtype().is_boolean() ? 1 : a.dtype().byte_width();
        for_each_bits(a, [&](int64_t i, u128 v) {
          uint8_t* p = base + cursor[i];
          bool ok = !nulls || a.is_valid(i);
          *p = ok ? 1 : 0;
          if (!ok) v = 0;
          std::memcpy(p + 1, &v, w);  // little-endian: the low w bytes
          cursor[i] += 1 + w;
        });
      }
    }
  }
  if (nested)
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(base + cursor[i], nested_rows[i].data(), nested_rows[i].size());
      cursor[i] += nested_rows[i].size();
    }
  enc.kind = KeyKind::Bytes;
  enc.bytes.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    enc.bytes[i] = BytesKey::from_bytes(base + offsets[i], static_cast<uint32_t>(offsets[i + 1] - offsets[i]));
}

// Rows where every key is valid, as an offset-0 bitmap; empty when all rows are.
Buffer all_valid_bitmap(const std::vector<ArrayRef>& keys, int64_t n) {
  bool any = false;
  for (const auto& k : keys) any |= k->null_count() > 0;
  if (!any) return Buffer();
  Buffer out = Buffer::allocate(bitmap_bytes(n));
  std::memset(out.mutable_data(), 0xff, bitmap_bytes(n));
  uint8_t* bits = out.mutable_data();
  for (const auto& k : keys) {
    if (k->null_count() == 0) continue;
    if (k->dtype().is_null()) {
      std::memset(bits, 0, bitmap_bytes(n));
      continue;
    }
    const uint8_t* v = k->validity_bits();
    const int64_t off = k->offset();
    for (int64_t i = 0; i < n; ++i)
      if (!get_bit(v, off + i)) clear_bit(bits, i);
  }
  return out;
}

}  // namespace

EncodedKeys encode_keys(const std::vector<ArrayRef>& keys, NullKeys nulls) {
  FRAZIL_CHECK(!keys.empty());
  const int64_t n = keys[0]->length();
  for (const auto& k : keys)
    if (k->length() != n)
      throw ShapeError(err_msg("key columns differ in length: ", n, " vs ", k->length()));
  EncodedKeys enc;
  enc.length = n;

  if (keys.size() == 1) {
    const Array& a = *keys[0];
    const int bits = value_bits(a.dtype());
    const bool fixed = bits >= 0 && !a.dtype().is_null();
    if (fixed || a.dtype().is_view() || a.dtype().is_null()) {
      // Nulls stay outside the key: the validity says which rows are null.
      if (a.null_count() > 0) {
        if (a.dtype().is_null()) {
          enc.validity_owned = Buffer::zeroed(bitmap_bytes(n));
          enc.validity = enc.validity_owned.data();
        } else {
          enc.validity = a.validity_bits();
          enc.validity_offset = a.offset();
        }
      }
      if (a.dtype().is_view()) {
        enc.kind = KeyKind::Bytes;
        enc.bytes.resize(static_cast<size_t>(n));
        auto bufs = view_buffer_pointers(a);
        const View* v = a.views();
        for (int64_t i = 0; i < n; ++i) enc.bytes[i] = BytesKey::from_view(v[i], bufs.data());
      } else if (bits == 128) {
        enc.kind = KeyKind::U128;
        auto w = pack_columns<u128>(keys, false);
        enc.u128.resize(w.size());
        for (size_t i = 0; i < w.size(); ++i) enc.u128[i] = {uint64_t(w[i]), uint64_t(w[i] >> 64)};
      } else {
        enc.kind = KeyKind::U64;
        enc.u64 = pack_columns<uint64_t>(keys, false);
      }
      return enc;
    }
  }

  // Several columns (or one nested column).
  const bool group_nulls = nulls == NullKeys::Group;
  if (!group_nulls) {
    enc.validity_owned = all_valid_bitmap(keys, n);
    enc.validity = enc.validity_owned.empty() ? nullptr : enc.validity_owned.data();
  }
  int total = 0;
  bool packable = true;
  for (const auto& k : keys) {
    int b = value_bits(k->dtype());
    if (b < 0) {
      packable = false;
      break;
    }
    if (!k->dtype().is_null()) total += b + (group_nulls && k->null_count() > 0 ? 1 : 0);
  }
  if (packable && total <= 64) {
    enc.kind = KeyKind::U64;
    enc.u64 = pack_columns<uint64_t>(keys, group_nulls);
  } else if (packable && total <= 128) {
    enc.kind = KeyKind::U128;
    auto w = pack_columns<u128>(keys, group_nulls);
    enc.u128.resize(w.size());
    for (size_t i = 0; i < w.size(); ++i) enc.u128[i] = {uint64_t(w[i]), uint64_t(w[i] >> 64)};
  } else {
    row_encode(keys, enc);
  }
  return enc;
}

EncodedKeys encode_group_keys(const std::vector<ArrayRef>& keys) {
  if (keys.size() != 1 || !keys[0]->dtype().is_view()) return encode_keys(keys, NullKeys::Group);
  const Array& a = *keys[0];
  const int64_t n = a.length();
  const View* v = a.views();
  // Any length above 7 sets a bit above the low three.
  uint32_t lengths = 0;
  if (a.null_count() == 0) {
    for (int64_t i = 0; i < n; ++i) lengths |= v[i].length;
  } else {
    const uint8_t* valid = a.validity_bits();
    const int64_t off = a.offset();
    for (int64_t i = 0; i < n; ++i) lengths |= get_bit(valid, off + i) ? v[i].length : 0;
  }
  if (lengths > 7) return encode_keys(keys, NullKeys::Group);
  EncodedKeys enc;
  enc.length = n;
  enc.kind = KeyKind::U64;
  if (a.null_count() > 0) {
    enc.validity = a.validity_bits();
    enc.validity_offset = a.offset();
  }
  enc.u64.resize(static_cast<size_t>(n));
  uint64_t* out = enc.u64.data();
  for (int64_t i = 0; i < n; ++i) {
    // Bytes 0..7 of an inline view's data; those past the length are masked off (a null
    // row's key is never read).
    uint64_t bytes;
    std::memcpy(&bytes, v[i].data, 8);
    const uint32_t len = v[i].length & 7;
    out[i] = ((bytes & ((uint64_t{1} << (8 * len)) - 1)) << 3) | len;
  }
  return enc;
}

bool u64_key_range(const EncodedKeys& keys, uint64_t* min, uint64_t* max) {
  uint64_t lo = UINT64_MAX, hi = 0;
  const uint64_t* k = keys.u64.data();
  const int64_t n = keys.length;
  if (!keys.validity) {
    for (int64_t i = 0; i < n; ++i) {
      lo = std::min(lo, k[i]);
      hi = std::max(hi, k[i]);
    }
  } else {
    for (int64_t i = 0; i < n; ++i)
      if (!keys.is_null(i)) {
        lo = std::min(lo, k[i]);
        hi = std::max(hi, k[i]);
      }
  }
  *min = lo;
  *max = hi;
  return lo <= hi;
}

}  // namespace frazil::compute
