#include "frazil/compute/hash.hpp"
#include "frazil/core/half.hpp"

#include <cmath>

#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

inline uint64_t load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint64_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

// Writes h into out[i], or folds it into what is there.
template <bool kCombine>
inline void put(uint64_t* out, int64_t i, uint64_t h) {
  if constexpr (kCombine) out[i] = hash_combine(out[i], h);
  else out[i] = h;
}

template <bool kCombine, typename T, typename F>
void hash_fixed(const Array& a, uint64_t* out, F&& canon) {
  const T* v = a.values<T>();
  const int64_t n = a.length();
  const uint8_t* valid = a.null_count() ? a.validity_bits() : nullptr;
  if (!valid) {
    for (int64_t i = 0; i < n; ++i) put<kCombine>(out, i, hash_u64(canon(v[i])));
  } else {
    const int64_t off = a.offset();
    for (int64_t i = 0; i < n; ++i)
      put<kCombine>(out, i, get_bit(valid, off + i) ? hash_u64(canon(v[i])) : kNullHash);
  }
}

template <bool kCombine>
void hash_impl(const Array& a, uint64_t* out);

// Lists: the hash of a row folds the hashes of its elements, seeded by the length.
template <bool kCombine>
void hash_list(const Array& a, uint64_t* out) {
  const int64_t n = a.length();
  const int64_t* offs = a.list_offsets();
  const Array& child = *a.child(0);
  int64_t begin = offs[0], end = offs[n];
  std::vector<uint64_t> ch(static_cast<size_t>(end - begin));
  if (end > begin) hash_impl<false>(*child.slice(begin, end - begin), ch.data());
  for (int64_t i = 0; i < n; ++i) {
    uint64_t h = kNullHash;
    if (a.is_valid(i)) {
      h = hash_u64(static_cast<uint64_t>(offs[i + 1] - offs[i]) ^ kHashK2);
      for (int64_t j = offs[i]; j < offs[i + 1]; ++j) h = hash_combine(h, ch[j - begin]);
    }
    put<kCombine>(out, i, h);
  }
}

template <bool kCombine>
void hash_struct(const Array& a, uint64_t* out) {
  const int64_t n = a.length();
  std::vector<uint64_t> h(static_cast<size_t>(n), kHashK2);
  for (const auto& c : a.children()) hash_impl<true>(*c->slice(a.offset(), n), h.data());
  for (int64_t i = 0; i < n; ++i) put<kCombine>(out, i, a.is_valid(i) ? h[i] : kNullHash);
}

template <bool kCombine>
void hash_impl(const Array& a, uint64_t* out) {
  const int64_t n = a.length();
  auto as_u = [](auto x) { return static_cast<uint64_t>(static_cast<int64_t>(x)); };
  auto as_uu = [](auto x) { return static_cast<uint64_t>(x); };
  switch (a.dtype().id()) {
    case TypeId::Null:
      for (int64_t i = 0; i < n; ++i) put<kCombine>(out, i, kNullHash);
      return;
    case TypeId::Boolean: {
      const uint8_t* bits = a.buffer(0).data();
      for (int64_t i = 0; i < n; ++i)
        put<kCombine>(out, i, a.is_valid(i) ? hash_u64(get_bit(bits, a.offset() + i)) : kNullHash);
      return;
    }
    case TypeId::Int8: return hash_fixed<kCombine, int8_t>(a, out, as_u);
    case TypeId::Int16: return hash_fixed<kCombine, int16_t>(a, out, as_u);
    case TypeId::Int32:
    case TypeId::Date: return hash_fixed<kCombine, int32_t>(a, out, as_u);
    case TypeId::Int64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return hash_fixed<kCombine, int64_t>(a, out, as_u);
    case TypeId::UInt8: return hash_fixed<kCombine, uint8_t>(a, out, as_uu);
    case TypeId::UInt16: return hash_fixed<kCombine, uint16_t>(a, out, as_uu);
    case TypeId::UInt32:
    case TypeId::Categorical:
    case TypeId::Enum: return hash_fixed<kCombine, uint32_t>(a, out, as_uu);
    case TypeId::UInt64: return hash_fixed<kCombine, uint64_t>(a, out, as_uu);
    // Float32 widens to double so 1.5f and 1.5 hash alike.
    case TypeId::Float32:
      return hash_fixed<kCombine, float>(a, out, [](float x) { return canonical_f64_bits(x); });
    case TypeId::Float64:
      return hash_fixed<kCombine, double>(a, out, [](double x) { return canonical_f64_bits(x); });
    case TypeId::Decimal:
    case TypeId::Int128:
    case TypeId::UInt128: {
      const uint64_t* w = reinterpret_cast<const uint64_t*>(a.values<unsigned __int128>());
      for (int64_t i = 0; i < n; ++i)
        put<kCombine>(out, i, a.is_valid(i) ? hash_u128(w[2 * i], w[2 * i + 1]) : kNullHash);
      return;
    }
    case TypeId::String:
    case TypeId::Binary: {
      const View* views = a.views();
      auto bufs = view_buffer_pointers(a);
      const bool nulls = a.null_count() > 0;
      for (int64_t i = 0; i < n; ++i) {
        uint64_t h = (!nulls || a.is_valid(i)) ? BytesKey::from_view(views[i], bufs.data()).hash()
                                               : kNullHash;
        put<kCombine>(out, i, h);
      }
      return;
    }
    case TypeId::Array:
    case TypeId::List: return hash_list<kCombine>(a, out);
    case TypeId::Struct: return hash_struct<kCombine>(a, out);
    case TypeId::Float16:  // as the double it widens to, like Float32
      return hash_fixed<kCombine, uint16_t>(a, out, [](uint16_t x) { return canonical_f64_bits(half_to_float(x)); });
  }
  throw InvalidOperationError(err_msg("cannot hash values of dtype ", a.dtype()));
}

bool fixed_equal(const Array& a, int64_t i, const Array& b, int64_t j) {
  switch (a.dtype().id()) {
    case TypeId::Boolean: return a.bool_value(i) == b.bool_value(j);
    case TypeId::Int8:
    case TypeId::UInt8: return a.values<uint8_t>()[i] == b.values<uint8_t>()[j];
    case TypeId::Int16:
    case TypeId::UInt16: return a.values<uint16_t>()[i] == b.values<uint16_t>()[j];
    case TypeId::Int32:
    case TypeId::UInt32:
    case TypeId::Categorical:
    case TypeId::Enum:
    case TypeId::Date: return a.values<uint32_t>()[i] == b.values<uint32_t>()[j];
    case TypeId::Int64:
    case TypeId::UInt64:
    case TypeId::Datetime:
    case TypeId::Duration:
    case TypeId::Time: return a.values<uint64_t>()[i] == b.values<uint64_t>()[j];
    case TypeId::Float32:
      return canonical_f32_bits(a.values<float>()[i]) == canonical_f32_bits(b.values<float>()[j]);
    case TypeId::Float64:
      return canonical_f64_bits(a.values<double>()[i]) == canonical_f64_bits(b.values<double>()[j]);
    case TypeId::Decimal:
    case TypeId::Int128:
    case TypeId::UInt128:
      return a.values<unsigned __int128>()[i] == b.values<unsigned __int128>()[j];
    case TypeId::Float16:
      return canonical_half_bits(a.values<uint16_t>()[i]) == canonical_half_bits(b.values<uint16_t>()[j]);
    default: break;
  }
  throw InvalidOperationError(err_msg("cannot compare values of dtype ", a.dtype()));
}

}  // namespace

uint64_t hash_bytes(const void* data, size_t len) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  uint64_t seed = kHashK0 ^ hash_mum(len ^ kHashK2, kHashK1);
  size_t n = len;
  while (n > 16) {
    seed = hash_mum(load64(p) ^ kHashK1, load64(p + 8) ^ seed);
    p += 16;
    n -= 16;
  }
  uint64_t a = 0, b = 0;
  if (n >= 8) {
    a = load64(p);
    b = load64(p + n - 8);
  } else if (n >= 4) {
    a = load32(p);
    b = load32(p + n - 4);
  } else if (n > 0) {
    a = (uint64_t(p[0]) << 16) | (uint64_t(p[n >> 1]) << 8) | p[n - 1];
  }
  return hash_mum(a ^ kHashK1 ^ len, b ^ seed);
}

std::vector<const uint8_t*> view_buffer_pointers(const Array& values) {
  std::vector<const uint8_t*> out;
  out.reserve(values.buffers().size());
  for (size_t b = 1; b < values.buffers().size(); ++b) out.push_back(values.buffer(b).data());
  if (out.empty()) out.push_back(nullptr);
  return out;
}

void hash_array(const Array& values, uint64_t* out, bool combine) {
  if (combine) hash_impl<true>(values, out);
  else hash_impl<false>(values, out);
}

std::vector<uint64_t> hash_rows(const std::vector<ArrayRef>& keys) {
  if (keys.empty()) return {};
  const int64_t n = keys[0]->length();
  std::vector<uint64_t> out(static_cast<size_t>(n));
  for (size_t k = 0; k < keys.size(); ++k) {
    if (keys[k]->length() != n)
      throw ShapeError(err_msg("key columns differ in length: ", n, " vs ", keys[k]->length()));
    hash_array(*keys[k], out.data(), k > 0);
  }
  return out;
}

bool values_equal(const Array& a, int64_t i, const Array& b, int64_t j) {
  const bool va = a.is_valid(i), vb = b.is_valid(j);
  if (!va || !vb) return va == vb;
  switch (a.dtype().id()) {
    case TypeId::Null: return true;
    case TypeId::String:
    case TypeId::Binary: return a.str_value(i) == b.str_value(j);
    case TypeId::Array:
    case TypeId::List: {
      const int64_t* oa = a.list_offsets();
      const int64_t* ob = b.list_offsets();
      int64_t len = oa[i + 1] - oa[i];
      if (len != ob[j + 1] - ob[j]) return false;
      for (int64_t k = 0; k < len; ++k)
        if (!values_equal(*a.child(0), oa[i] + k, *b.child(0), ob[j] + k)) return false;
      return true;
    }
    case TypeId::Struct:
      for (size_t f = 0; f < a.children().size(); ++f)
        if (!values_equal(*a.child(f), a.offset() + i, *b.child(f), b.offset() + j)) return false;
      return true;
    default: return fixed_equal(a, i, b, j);
  }
}

}  // namespace frazil::compute
