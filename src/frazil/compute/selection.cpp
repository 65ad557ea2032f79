#include "frazil/compute/selection.hpp"

#include <algorithm>
#include <bit>

#include "frazil/compute/kernel_util.hpp"
#include "frazil/core/cancel.hpp"
#include "frazil/core/cpu_dispatch.hpp"
#include "frazil/core/thread_pool.hpp"

namespace frazil::compute {

using namespace detail;

namespace {

// Gathers of at least this many rows run their blocks on the pool.
constexpr int64_t kParallelGatherRows = int64_t{1} << 20;

// Validity after a gather, or empty when every gathered row is valid.
Buffer gather_validity(const Array& values, const IdxSize* idx, int64_t n, bool any_null_idx) {
  const bool src_nulls = !values.dtype().is_null() && values.null_count() > 0;
  if (!src_nulls && !any_null_idx) return Buffer();
  Buffer out = alloc_bits(n);
  const uint8_t* bits = values.validity_bits();
  const int64_t off = values.offset();
  if (src_nulls)
    pack_bits(n, out.mutable_data(), [&](int64_t i) { return idx[i] != kNullIdx && get_bit(bits, off + idx[i]); });
  else
    pack_bits(n, out.mutable_data(), [&](int64_t i) { return idx[i] != kNullIdx; });
  return out;
}

// Indices of a child array covering the list rows picked by idx (null rows are empty).
ArrayRef take_list(const Array& values, const IdxSize* idx, int64_t n, Buffer validity) {
  const int64_t* o = values.list_offsets();
  Buffer offsets = alloc_values<int64_t>(n + 1);
  int64_t* out = offsets.mutable_as<int64_t>();
  out[0] = 0;
  std::vector<IdxSize> child_idx;
  for (int64_t i = 0; i < n; ++i) {
    int64_t len = 0;
    if (idx[i] != kNullIdx && values.is_valid(idx[i])) {
      const int64_t start = o[idx[i]], end = o[idx[i] + 1];
      len = end - start;
      for (int64_t k = start; k < end; ++k) child_idx.push_back(static_cast<IdxSize>(k));
    }
    out[i + 1] = out[i] + len;
  }
  ArrayRef child = take(*values.child(0), child_idx);
  return Array::make(values.dtype(), n, std::move(validity), {std::move(offsets)}, {std::move(child)});
}

}  // namespace

ArrayRef take(const Array& values, const IdxSize* idx, int64_t n) {
  const DataType& dt = values.dtype();
  const int64_t len = values.length();
  bool any_null_idx = false;
  for (int64_t i = 0; i < n; ++i) {
    if (idx[i] == kNullIdx) any_null_idx = true;
    else if (static_cast<int64_t>(idx[i]) >= len)
      throw OutOfBoundsError(err_msg("gather index ", idx[i], " is out of bounds for length ", len));
  }
  if (dt.is_null()) return make_null_array(dt, n);
  Buffer validity = gather_validity(values, idx, n, any_null_idx);
  if (dt.is_boolean()) {
    Buffer bits = alloc_bits(n);
    const uint8_t* src = values.buffer(0).data();
    const int64_t off = values.offset();
    pack_bits(n, bits.mutable_data(), [&](int64_t i) { return idx[i] != kNullIdx && get_bit(src, off + idx[i]); });
    return Array::make(dt, n, std::move(validity), {std::move(bits)});
  }
  if (dt.is_fixed_width()) {
    return dispatch_width(dt.byte_width(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      Buffer out = alloc_values<T>(n);
      T* o = out.mutable_as<T>();
      const T* p = values.values<T>();
      // In blocks, so that a cancelled query stops within one (a gather of many rows takes long);
      // a long gather's blocks run on the pool (random reads: bound by memory latency, which
      // two cores hide better than one; the window functions gather every row twice).
      auto block = [&](size_t k) {
        check_cancelled();
        const int64_t b = static_cast<int64_t>(k) * kCheckRows, e = std::min(n, b + kCheckRows);
        if (any_null_idx)
          for (int64_t i = b; i < e; ++i) o[i] = idx[i] == kNullIdx ? T{} : p[idx[i]];
        else
          for (int64_t i = b; i < e; ++i) o[i] = p[idx[i]];
      };
      const size_t blocks = static_cast<size_t>((n + kCheckRows - 1) / kCheckRows);
      if (n >= kParallelGatherRows && thread_pool_size() > 1) parallel_for(blocks, block);
      else
        for (size_t k = 0; k < blocks; ++k) block(k);
      return Array::make(dt, n, std::move(validity), {std::move(out)});
    });
  }
  if (dt.is_view()) {
    // Only the views move; the data buffers are shared with the input.
    Buffer out = alloc_values<View>(n);
    View* o = out.mutable_as<View>();
    const View* p = values.views();
    for (int64_t i = 0; i < n; ++i) o[i] = idx[i] == kNullIdx ? View{} : p[idx[i]];
    std::vector<Buffer> buffers{std::move(out)};
    for (size_t k = 1; k < values.buffers().size(); ++k) buffers.push_back(values.buffer(k));
    return Array::make(dt, n, std::move(validity), std::move(buffers));
  }
  if (dt.is_list_like()) return take_list(values, idx, n, std::move(validity));
  if (dt.id() == TypeId::Struct) {
    // Children are indexed with the struct's offset added (they are not sliced with it).
    std::vector<IdxSize> shifted(idx, idx + n);
    const IdxSize off = static_cast<IdxSize>(values.offset());
    for (auto& v : shifted)
      if (v == kNullIdx) v = 0;
      else v += off;
    std::vector<ArrayRef> children;
    for (const auto& c : values.children()) {
      if (n > 0 && c->length() == 0) {
        children.push_back(make_null_array(c->dtype(), n));
        continue;
      }
      children.push_back(take(*c, shifted));
    }
    return Array::make(dt, n, std::move(validity), {}, std::move(children));
  }
  throw InvalidOperationError(err_msg("gather is not supported for dtype `", dt.short_name(), "`"));
}

std::vector<IdxSize> mask_to_indices(const Array& mask) {
  if (!mask.dtype().is_boolean())
    throw InvalidOperationError(err_msg("filter mask must be boolean, got `", mask.dtype().short_name(), "`"));
  const int64_t n = mask.length();
  std::vector<IdxSize> out;
  const BitSource v = BitSource::of(mask.buffer(0).data(), mask.offset());
  const BitSource valid = validity_source(mask);
  const int64_t words = (n + 63) / 64;
  for (int64_t w = 0; w < words; ++w) {
    const int nbits = static_cast<int>(std::min<int64_t>(64, n - w * 64));
    uint64_t bits = v.word(w, nbits) & valid.word(w, nbits);
    if (nbits < 64) bits &= (uint64_t{1} << nbits) - 1;
    while (bits) {
      out.push_back(static_cast<IdxSize>(w * 64 + std::countr_zero(bits)));
      bits &= bits - 1;
    }
  }
  return out;
}

namespace {

// A filter mask reduced to its kept rows: true and valid bits, 64 rows a word.
struct MaskWords {
  std::vector<uint64_t> words;
  int64_t count = 0;  // kept rows
};

FRAZIL_MULTIVERSION MaskWords mask_words(const Array& mask) {
  if (!mask.dtype().is_boolean())
    throw InvalidOperationError(err_msg("filter mask must be boolean, got `", mask.dtype().short_name(), "`"));
  const int64_t n = mask.length();
  const BitSource mv = BitSource::of(mask.buffer(0).data(), mask.offset());
  const BitSource mvalid = validity_source(mask);
  MaskWords out;
  out.words.resize(static_cast<size_t>((n + 63) / 64));
  for (size_t w = 0; w < out.words.size(); ++w) {
    const int nbits = static_cast<int>(std::min<int64_t>(64, n - static_cast<int64_t>(w) * 64));
    uint64_t bits = mv.word(static_cast<int64_t>(w), nbits) & mvalid.word(static_cast<int64_t>(w), nbits);
    if (nbits < 64) bits &= (uint64_t{1} << nbits) - 1;
    out.words[w] = bits;
    out.count += std::popcount(bits);
  }
  return out;
}

std::vector<IdxSize> words_to_indices(const MaskWords& m) {
  std::vector<IdxSize> out(static_cast<size_t>(m.count));
  IdxSize* o = out.data();
  for (size_t w = 0; w < m.words.size(); ++w)
    for (uint64_t bits = m.words[w]; bits; bits &= bits - 1)
      *o++ = static_cast<IdxSize>(w * 64 + std::countr_zero(bits));
  return out;
}

// Direct compaction of a fixed-width column without nulls, no index vector: full words
// copy as a block, empty words are skipped, dense words store every row and advance the
// output by the row's bit (no branch per row), sparse words visit their set bits.
FRAZIL_MULTIVERSION ArrayRef compact_fixed(const Array& values, const MaskWords& m) {
  const DataType& dt = values.dtype();
  return dispatch_width(dt.byte_width(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    Buffer out = alloc_values<T>(m.count);
    T* o = out.mutable_as<T>();
    T* const end = o + m.count;
    const T* p = values.values<T>();
    for (size_t w = 0; w < m.words.size(); ++w) {
      uint64_t bits = m.words[w];
      const T* src = p + w * 64;
      if (bits == ~uint64_t{0}) {
        std::memcpy(o, src, 64 * sizeof(T));
        o += 64;
      } else if (std::popcount(bits) >= 16 && end - o >= 64) {
        for (int j = 0; j < 64; ++j) {
          *o = src[j];
          o += (bits >> j) & 1;
        }
      } else {
        for (; bits; bits &= bits - 1) *o++ = src[std::countr_zero(bits)];
      }
    }
    return Array::make(dt, m.count, Buffer(), {std::move(out)});
  });
}

bool compactable(const Array& values) {
  const DataType& dt = values.dtype();
  return dt.is_fixed_width() && !dt.is_null() && values.null_count() == 0;
}

}  // namespace

ArrayRef filter(const Array& values, const Array& mask) {
  if (mask.length() != values.length()) {
    // A length-1 mask keeps everything or nothing, as Polars allows.
    if (mask.length() == 1 && mask.dtype().is_boolean()) {
      const bool keep = mask.is_valid(0) && mask.bool_value(0);
      return keep ? share(values) : values.slice(0, 0);
    }
    throw ShapeError(err_msg("filter mask of length ", mask.length(), " does not match ", values.length(), " rows"));
  }
  const MaskWords m = mask_words(mask);
  if (m.count == values.length()) return share(values);
  if (compactable(values)) return compact_fixed(values, m);
  return take(values, words_to_indices(m));
}

int64_t mask_true_count(const Array& mask) { return mask_words(mask).count; }

ArrayRef mask_to_validity(const Array& values, const Array& mask) {
  if (mask.length() != values.length())
    throw ShapeError(err_msg("filter mask of length ", mask.length(), " does not match ", values.length(), " rows"));
  FRAZIL_CHECK(!values.dtype().is_null());
  const MaskWords m = mask_words(mask);
  const int64_t n = values.length();
  const BitSource valid = validity_source(values);
  // The result shares slices of the value buffers that start at (or, for bits, within the
  // first byte of) row 0, so its bitmap only covers the array's own rows.
  const DataType& dt = values.dtype();
  FRAZIL_CHECK(dt.is_fixed_width() || dt.is_boolean() || dt.is_view());
  std::vector<Buffer> buffers = values.buffers();
  int64_t off = 0;
  if (dt.is_boolean()) {
    off = values.offset() % 8;
    buffers[0] = buffers[0].slice(static_cast<size_t>(values.offset() / 8), static_cast<size_t>(bitmap_bytes(off + n)));
  } else {
    const size_t width = dt.is_view() ? sizeof(View) : static_cast<size_t>(dt.byte_width());
    buffers[0] = buffers[0].slice(static_cast<size_t>(values.offset()) * width, static_cast<size_t>(n) * width);
  }
  Buffer bits = Buffer::zeroed(static_cast<size_t>(bitmap_bytes(off + n)));
  uint8_t* out = bits.mutable_data();
  int64_t kept = 0;
  for (size_t w = 0; w < m.words.size(); ++w) {
    const int nbits = static_cast<int>(std::min<int64_t>(64, n - static_cast<int64_t>(w) * 64));
    const uint64_t word = m.words[w] & valid.word(static_cast<int64_t>(w), nbits);
    kept += std::popcount(word);
    const int64_t bit = off + static_cast<int64_t>(w) * 64;
    const unsigned __int128 shifted = static_cast<unsigned __int128>(word) << (bit & 7);
    uint8_t tmp[16];
    std::memcpy(tmp, &shifted, sizeof tmp);
    const int nbytes = static_cast<int>(((bit & 7) + nbits + 7) >> 3);
    for (int k = 0; k < nbytes; ++k) out[(bit >> 3) + k] |= tmp[k];
  }
  return Array::make(dt, n, std::move(bits), std::move(buffers), {}, off, n - kept);
}

DataFrame take_frame(const DataFrame& df, const std::vector<IdxSize>& indices) {
  std::vector<Column> cols;
  const int64_t n = static_cast<int64_t>(indices.size());
  for (const auto& c : df.columns()) {
    if (c.is_scalar()) {
      cols.push_back(Column::scalar(c.name(), c.scalar_value(), n));
      continue;
    }
    cols.emplace_back(c.name(), take(*c.as_array(), indices));
  }
  if (cols.empty()) return DataFrame::empty_with_height(n);
  return DataFrame(std::move(cols));
}

DataFrame filter_frame(const DataFrame& df, const Array& mask) {
  if (mask.length() != df.height())
    throw ShapeError(err_msg("filter mask of length ", mask.length(), " does not match ", df.height(), " rows"));
  const MaskWords m = mask_words(mask);
  if (m.count == df.height()) return df;
  // Fixed-width columns without nulls compact straight from the mask words; the others
  // share one index vector.
  std::vector<IdxSize> idx;
  bool have_idx = false;
  std::vector<Column> cols;
  for (const auto& c : df.columns()) {
    if (c.is_scalar()) {
      cols.push_back(Column::scalar(c.name(), c.scalar_value(), m.count));
      continue;
    }
    const ArrayRef a = c.as_array();
    if (compactable(*a)) {
      cols.emplace_back(c.name(), compact_fixed(*a, m));
      continue;
    }
    if (!have_idx) {
      idx = words_to_indices(m);
      have_idx = true;
    }
    cols.emplace_back(c.name(), take(*a, idx));
  }
  if (cols.empty()) return DataFrame::empty_with_height(m.count);
  return DataFrame(std::move(cols));
}

ArrayRef reverse(const Array& values) {
  const int64_t n = values.length();
  std::vector<IdxSize> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) idx[i] = static_cast<IdxSize>(n - 1 - i);
  return take(values, idx);
}

ArrayRef shift(const Array& values, int64_t n) {
  const int64_t len = values.length();
  if (n == 0) return share(values);
  if (n >= len || n <= -len) return make_null_array(values.dtype(), len);  // no negation: n may be INT64_MIN
  const int64_t k = n > 0 ? n : -n;
  ArrayRef nulls = make_null_array(values.dtype(), k);
  if (n > 0) return concat_arrays({nulls, values.slice(0, len - k)});
  return concat_arrays({values.slice(k, len - k), nulls});
}

}  // namespace frazil::compute
