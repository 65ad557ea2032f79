#include "frazil/io/arrow/import.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "frazil/core/calendar.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/io/arrow/format.hpp"
#include "frazil/io/arrow/utf8.hpp"

namespace frazil::io {

namespace {

// Holds the producer's top-level array; every imported buffer shares this owner, so the
// producer's release runs once, after the last buffer is gone.
struct ImportedArray {
  ArrowArray array{};
  ~ImportedArray() {
    if (array.release) array.release(&array);
  }
};

struct Ctx {
  const std::string& column;
  std::shared_ptr<const void> owner;
  bool validate_utf8 = true;
  Buffer wrap(const void* p, size_t n) const { return Buffer::foreign(p, n, owner); }
};

[[noreturn]] void malformed(const std::string& column, const std::string& what) {
  throw ComputeError(err_msg("cannot import column '", column, "': malformed Arrow data: ", what));
}

const ArrowSchema* schema_child(const ArrowSchema* s, int64_t i, const std::string& column) {
  if (i >= s->n_children || !s->children || !s->children[i])
    malformed(column, err_msg("schema of format '", s->format, "' lacks child ", i));
  return s->children[i];
}

std::string field_name(const ArrowSchema* s) { return s->name ? s->name : ""; }

// The validity buffer and null count of a node; no bitmap when nothing is null.
Buffer import_validity(const ArrowArray* a, const Ctx& ctx, int64_t* null_count) {
  int64_t n = a->null_count;
  const void* bits = a->n_buffers > 0 ? a->buffers[0] : nullptr;
  *null_count = 0;
  if (!bits) {
    if (n > 0) malformed(ctx.column, "null_count > 0 but no validity buffer");
    return Buffer();
  }
  if (n == 0) return Buffer();
  Buffer v = ctx.wrap(bits, bitmap_bytes(a->offset + a->length));
  if (n < 0) n = a->length - count_set_bits(v.data(), a->offset, a->length);
  if (n == 0) return Buffer();
  *null_count = n;
  return v;
}

// A validity bitmap starting at bit 0, for converted arrays that start at offset 0.
Buffer realign(const Buffer& validity, int64_t offset, int64_t length) {
  if (validity.empty()) return validity;
  return Bitmap(validity, offset, length).to_aligned_buffer();
}

// A value buffer the layout requires; a null pointer is accepted only for no bytes.
Buffer required(const ArrowArray* a, int64_t i, size_t bytes, const char* what, const Ctx& ctx) {
  if (a->buffers[i]) return ctx.wrap(a->buffers[i], bytes);
  if (bytes == 0) return Buffer::allocate(0);
  malformed(ctx.column, err_msg(what, " buffer is null"));
}

void expect_buffers(const ArrowArray* a, int64_t n, const Ctx& ctx) {
  if (a->n_buffers != n)
    malformed(ctx.column, err_msg("expected ", n, " buffers, got ", a->n_buffers));
}

void expect_children(const ArrowArray* a, int64_t n, const Ctx& ctx) {
  if (a->n_children != n)
    malformed(ctx.column, err_msg("expected ", n, " children, got ", a->n_children));
}

[[noreturn]] void invalid_utf8(const std::string& column, int64_t row) {
  throw ComputeError(err_msg("invalid UTF-8 in string column '", column, "' at row ", row));
}

// Views over a data buffer (or windows of it when larger than a view's 32-bit offset),
// built from a function giving each valid row's (start, length) in the data.
template <typename Span>
ArrayRef views_over_data(const DataType& dtype, int64_t len, Buffer validity, int64_t null_count,
                         const Buffer& data, int64_t data_size, Span span, const Ctx& ctx) {
  constexpr int64_t kWindow = int64_t(1) << 31;
  const bool windowed = data_size > int64_t(std::numeric_limits<uint32_t>::max());
  Buffer views = Buffer::allocate(len * sizeof(View));
  View* out = views.mutable_as<View>();
  const uint8_t* bits = validity.empty() ? nullptr : validity.data();
  const char* base = reinterpret_cast<const char*>(data.data());
  for (int64_t i = 0; i < len; ++i) {
    if (bits && !get_bit(bits, i)) {
      out[i] = View{};
      continue;
    }
    auto [start, n] = span(i);
    if (n > int64_t(std::numeric_limits<uint32_t>::max()))
      malformed(ctx.column, err_msg("value at row ", i, " is longer than 4 GiB"));
    uint32_t n32 = static_cast<uint32_t>(n);
    if (n32 <= View::kInlineSize) {
      out[i] = View::make_inline(base + start, n32);
    } else {
      int64_t w = windowed ? start / kWindow : 0;
      out[i] = View::make_ref(base + start, n32, static_cast<uint32_t>(w),
                              static_cast<uint32_t>(start - w * kWindow));
    }
  }
  std::vector<Buffer> buffers{views};
  if (data_size > 0) {
    if (!windowed) {
      buffers.push_back(data);
    } else {
      for (int64_t w = 0; w * kWindow < data_size; ++w)
        buffers.push_back(data.slice(w * kWindow, data_size - w * kWindow));
    }
  }
  return Array::make(dtype, len, std::move(validity), std::move(buffers), {}, 0, null_count);
}

// Utf8 / LargeUtf8 / Binary / LargeBinary: offsets + data become views over the data.
template <typename O>
ArrayRef import_offset_binary(const ArrowArray* a, const DataType& dtype, const Ctx& ctx) {
  expect_buffers(a, 3, ctx);
  expect_children(a, 0, ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  const int64_t len = a->length, off = a->offset;
  if (len == 0) return make_empty_array(dtype);
  if (!a->buffers[1]) malformed(ctx.column, "offsets buffer is null");
  const O* offs = static_cast<const O*>(a->buffers[1]) + off;
  if (offs[0] < 0) malformed(ctx.column, "negative offset");
  for (int64_t i = 0; i < len; ++i)
    if (offs[i + 1] < offs[i]) malformed(ctx.column, err_msg("offsets decrease at row ", i));
  const int64_t data_size = static_cast<int64_t>(offs[len]);
  const uint8_t* producer_data = static_cast<const uint8_t*>(a->buffers[2]);
  if (!producer_data && data_size > 0) malformed(ctx.column, "data buffer is null");
  Buffer data_buf = producer_data ? ctx.wrap(producer_data, data_size) : Buffer::allocate(0);
  const uint8_t* data = data_buf.data();  // never null, even for all-empty values
  const uint8_t* bits = validity.empty() ? nullptr : validity.data();

  if (dtype.is_string() && ctx.validate_utf8) {
    auto row_ok = [&](int64_t i) { return is_valid_utf8(data + offs[i], offs[i + 1] - offs[i]); };
    if (!bits) {
      // One pass over all the bytes, then every row start must be a character boundary.
      bool ok = is_valid_utf8(data + offs[0], data_size - offs[0]);
      for (int64_t i = 1; ok && i < len; ++i)
        if (offs[i] < data_size && is_utf8_continuation(data[offs[i]])) ok = false;
      if (!ok)
        for (int64_t i = 0; i < len; ++i)
          if (!row_ok(i)) invalid_utf8(ctx.column, i);
    } else {
      for (int64_t i = 0; i < len; ++i)
        if (get_bit(bits, off + i) && !row_ok(i)) invalid_utf8(ctx.column, i);
    }
  }
  Buffer aligned = realign(validity, off, len);
  auto span = [&](int64_t i) {
    return std::pair<int64_t, int64_t>(offs[i], offs[i + 1] - offs[i]);
  };
  return views_over_data(dtype, len, std::move(aligned), nc, data_buf, data_size, span, ctx);
}

// Views are checked in blocks of this many rows, on the pool when there are several.
constexpr int64_t kViewBlock = int64_t(1) << 16;

template <typename F>
void for_view_blocks(int64_t len, const F& fn) {
  const int64_t blocks = (len + kViewBlock - 1) / kViewBlock;
  if (blocks <= 1) {
    if (len > 0) fn(size_t(0), int64_t(0), len);
    return;
  }
  parallel_for(static_cast<size_t>(blocks), [&](size_t b) {
    const int64_t begin = static_cast<int64_t>(b) * kViewBlock;
    fn(b, begin, std::min(len, begin + kViewBlock));
  });
}

// What one pass over a view array checks: every valid view in bounds with its prefix
// matching its data, and (utf8) its bytes UTF-8. `whole_ok[k]`: data buffer k was found
// valid UTF-8 as a whole, so a view into it is valid when both of its ends are character
// boundaries (the bytes there are read anyway, beside the prefix).
struct ViewCheck {
  const View* views;
  const uint8_t* bits;
  int64_t off;
  const uint8_t* const* data;
  const int64_t* sizes;
  int64_t n_data;
  const char* whole_ok;  // null: no buffer was validated whole
  bool utf8;
};

enum class ViewFault { None, Bounds, Prefix, Utf8 };

// The fault of row i (None for a null row or a good one); *copy is set for rows that make
// the views buffer need rewriting (stray views in null slots, unpadded inline values).
inline ViewFault view_fault(const ViewCheck& c, int64_t i, bool* copy) {
  const View& v = c.views[i];
  const bool valid = !c.bits || get_bit(c.bits, c.off + i);
  if (v.is_inline()) {
    uint64_t lo;
    uint32_t hi;
    std::memcpy(&lo, v.data, 8);
    std::memcpy(&hi, v.data + 8, 4);
    const uint32_t n = v.length;  // byte k of the value sits at bits 8k (little-endian)
    const uint64_t lo_pad = n >= 8 ? 0 : ~uint64_t(0) << (8 * n);
    const uint32_t hi_pad = n <= 8 ? ~uint32_t(0) : (n >= 12 ? 0 : ~uint32_t(0) << (8 * (n - 8)));
    if (((lo & lo_pad) | (hi & hi_pad)) != 0) *copy = true;
    // ASCII in all 12 bytes means ASCII in the value (fixed-size loads, no call).
    if (valid && c.utf8 && ((lo | hi) & 0x8080808080808080ULL) != 0 && !is_valid_utf8(v.data, v.length))
      return ViewFault::Utf8;
    return ViewFault::None;
  }
  const uint32_t idx = v.buffer_index();
  if (idx >= c.n_data || int64_t(v.offset()) + v.length > c.sizes[idx]) {
    *copy = true;
    return valid ? ViewFault::Bounds : ViewFault::None;
  }
  if (!valid) return ViewFault::None;
  const uint8_t* data = c.data[idx];
  const int64_t start = v.offset(), stop = start + v.length;
  if (std::memcmp(data + start, v.data, 4) != 0) return ViewFault::Prefix;
  if (!c.utf8) return ViewFault::None;
  const bool ok = c.whole_ok && c.whole_ok[idx]
                      ? !is_utf8_continuation(data[start]) &&
                            (stop == c.sizes[idx] || !is_utf8_continuation(data[stop]))
                      : is_valid_utf8(data + start, v.length);
  return ok ? ViewFault::None : ViewFault::Utf8;
}

// Utf8View / BinaryView: shared as they are once every view is checked to be in bounds.
ArrayRef import_view(const ArrowArray* a, const DataType& dtype, const Ctx& ctx) {
  if (a->n_buffers < 3) malformed(ctx.column, err_msg("view array with ", a->n_buffers, " buffers"));
  expect_children(a, 0, ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  const int64_t len = a->length, off = a->offset, end = off + len;
  const int64_t n_data = a->n_buffers - 3;
  const int64_t* sizes = static_cast<const int64_t*>(a->buffers[a->n_buffers - 1]);
  if (n_data > 0 && !sizes) malformed(ctx.column, "variadic buffer sizes are missing");
  std::vector<Buffer> buffers{required(a, 1, end * sizeof(View), "views", ctx)};
  for (int64_t k = 0; k < n_data; ++k) {
    if (sizes[k] < 0) malformed(ctx.column, "negative data buffer size");
    buffers.push_back(required(a, 2 + k, static_cast<size_t>(sizes[k]), "data", ctx));
  }
  const View* views = buffers[0].as<View>() + off;
  const uint8_t* bits = validity.empty() ? nullptr : validity.data();
  const bool utf8 = dtype.is_string() && ctx.validate_utf8;
  std::vector<const uint8_t*> data_ptrs;
  int64_t data_bytes = 0;
  for (int64_t k = 0; k < n_data; ++k) {
    data_ptrs.push_back(buffers[1 + k].data());
    data_bytes += sizes[k];
  }
  // A whole (unsliced) array's data buffers are validated whole, once (SIMD); a slice may
  // cover little of them, so its views are validated one by one.
  std::vector<char> whole_ok(static_cast<size_t>(n_data), 0);
  const bool whole = utf8 && off == 0 && data_bytes > 0;
  if (whole)
    for (int64_t k = 0; k < n_data; ++k) whole_ok[k] = is_valid_utf8(data_ptrs[k], static_cast<size_t>(sizes[k]));
  const ViewCheck check{views, bits, off, data_ptrs.data(), sizes, n_data, whole ? whole_ok.data() : nullptr, utf8};
  // Block by block on the pool (no throw there: a bad block is re-checked in order below, so
  // that the error names the first bad row).
  const size_t blocks = static_cast<size_t>((len + kViewBlock - 1) / kViewBlock);
  std::vector<char> block_bad(blocks, 0), block_copy(blocks, 0);
  for_view_blocks(len, [&check, &block_bad, &block_copy](size_t b, int64_t begin, int64_t stop) {
    bool bad = false, copy = false;
    for (int64_t i = begin; i < stop; ++i) bad |= view_fault(check, i, &copy) != ViewFault::None;
    block_bad[b] = bad;
    block_copy[b] = copy;
  });
  bool needs_copy = false;
  for (size_t b = 0; b < blocks; ++b) {
    needs_copy |= block_copy[b] != 0;
    if (!block_bad[b]) continue;
    for (int64_t i = int64_t(b) * kViewBlock; i < std::min(len, int64_t(b + 1) * kViewBlock); ++i) {
      bool ignored = false;
      switch (view_fault(check, i, &ignored)) {
        case ViewFault::None: break;
        case ViewFault::Bounds: malformed(ctx.column, err_msg("view at row ", i, " points outside its data buffer"));
        case ViewFault::Prefix: malformed(ctx.column, err_msg("view prefix at row ", i, " does not match its data"));
        case ViewFault::Utf8: invalid_utf8(ctx.column, i);
      }
    }
  }
  if (!needs_copy) return Array::make(dtype, len, validity, std::move(buffers), {}, off, nc);
  Buffer fixed = Buffer::allocate(len * sizeof(View));
  View* out = fixed.mutable_as<View>();
  for (int64_t i = 0; i < len; ++i) {
    const View& v = views[i];
    if (bits && !get_bit(bits, off + i)) out[i] = View{};
    else if (v.is_inline()) out[i] = View::make_inline(reinterpret_cast<const char*>(v.data), v.length);
    else out[i] = v;
  }
  buffers[0] = fixed;
  return Array::make(dtype, len, realign(validity, off, len), std::move(buffers), {}, 0, nc);
}

ArrayRef import_fixed_size_binary(const ArrowArray* a, const DataType& dtype, int64_t width,
                                  const Ctx& ctx) {
  expect_buffers(a, 2, ctx);
  expect_children(a, 0, ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  const int64_t len = a->length, off = a->offset;
  const int64_t data_size = (off + len) * width;
  Buffer data = required(a, 1, data_size, "values", ctx);
  auto span = [&](int64_t i) { return std::pair<int64_t, int64_t>((off + i) * width, width); };
  return views_over_data(dtype, len, realign(validity, off, len), nc, data, data_size, span, ctx);
}

// time32, time64[us], timestamp[s], duration[s]: rescaled into frazil's int64 units.
template <typename S>
ArrayRef import_scaled(const ArrowArray* a, const DataType& dtype, int64_t factor, const Ctx& ctx) {
  expect_buffers(a, 2, ctx);
  expect_children(a, 0, ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  const int64_t len = a->length, off = a->offset;
  Buffer src = required(a, 1, (off + len) * sizeof(S), "values", ctx);
  const S* in = src.as<S>() + off;
  Buffer out = Buffer::allocate(len * sizeof(int64_t));
  int64_t* o = out.mutable_as<int64_t>();
  const uint8_t* bits = validity.empty() ? nullptr : validity.data();
  for (int64_t i = 0; i < len; ++i) {
    if (bits && !get_bit(bits, off + i)) {
      o[i] = 0;
    } else if (__builtin_mul_overflow(static_cast<int64_t>(in[i]), factor, &o[i])) {
      throw ComputeError(err_msg("cannot import column '", ctx.column, "': value ", in[i],
                                 " at row ", i, " overflows when converted to ", dtype));
    }
  }
  return Array::make(dtype, len, realign(validity, off, len), {out}, {}, 0, nc);
}


ArrayRef import_node(const ArrowArray* a, const ArrowSchema* s, const Ctx& ctx);

// Offsets must start at or after 0, never decrease, and stay within the child.
template <typename O>
void check_list_offsets(const O* offs, int64_t len, int64_t child_len, const Ctx& ctx) {
  if (offs[0] < 0) malformed(ctx.column, "negative list offset");
  for (int64_t i = 0; i < len; ++i)
    if (offs[i + 1] < offs[i]) malformed(ctx.column, err_msg("list offsets decrease at row ", i));
  if (static_cast<int64_t>(offs[len]) > child_len)
    malformed(ctx.column, "list offsets point past the end of the values");
}

ArrayRef import_list(const ArrowArray* a, const ArrowSchema* s, const DataType& dtype,
                     const ArrowFormat& f, const Ctx& ctx) {
  const bool fixed_size = f.layout == ArrowLayout::FixedSizeList;
  expect_buffers(a, fixed_size ? 1 : 2, ctx);
  expect_children(a, 1, ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  const int64_t len = a->length, off = a->offset;
  ArrayRef child = import_node(a->children[0], schema_child(s, 0, ctx.column), ctx);
  if (fixed_size) {
    const int64_t k = f.fixed_size;
    if (child->length() < (off + len) * k) malformed(ctx.column, "fixed-size list child is too short");
    Buffer offsets = Buffer::allocate((len + 1) * sizeof(int64_t));
    for (int64_t i = 0; i <= len; ++i) offsets.mutable_as<int64_t>()[i] = (off + i) * k;
    return Array::make(dtype, len, realign(validity, off, len), {offsets}, {child}, 0, nc);
  }
  if (!a->buffers[1]) {
    if (len != 0) malformed(ctx.column, "list offsets buffer is null");
    return make_empty_array(dtype);
  }
  if (f.layout == ArrowLayout::LargeList) {
    Buffer offsets = ctx.wrap(a->buffers[1], (off + len + 1) * sizeof(int64_t));
    check_list_offsets(offsets.as<int64_t>() + off, len, child->length(), ctx);
    return Array::make(dtype, len, validity, {offsets}, {child}, off, nc);
  }
  const int32_t* in = static_cast<const int32_t*>(a->buffers[1]) + off;
  check_list_offsets(in, len, child->length(), ctx);
  Buffer offsets = Buffer::allocate((len + 1) * sizeof(int64_t));
  for (int64_t i = 0; i <= len; ++i) offsets.mutable_as<int64_t>()[i] = in[i];
  return Array::make(dtype, len, realign(validity, off, len), {offsets}, {child}, 0, nc);
}

ArrayRef import_struct(const ArrowArray* a, const ArrowSchema* s, const DataType& dtype,
                       const Ctx& ctx) {
  expect_buffers(a, 1, ctx);
  expect_children(a, static_cast<int64_t>(dtype.fields().size()), ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  std::vector<ArrayRef> children;
  for (int64_t i = 0; i < a->n_children; ++i) {
    children.push_back(import_node(a->children[i], schema_child(s, i, ctx.column), ctx));
    if (children.back()->length() < a->offset + a->length)
      malformed(ctx.column, err_msg("struct field '", dtype.fields()[i].name, "' is shorter than the struct"));
  }
  return Array::make(dtype, a->length, validity, {}, std::move(children), a->offset, nc);
}

// Reads dictionary index i of width w (signed or not) as int64.
int64_t read_index(const uint8_t* p, int w, bool is_signed, int64_t i) {
  switch (w) {
    case 1: return is_signed ? int64_t(reinterpret_cast<const int8_t*>(p)[i]) : int64_t(p[i]);
    case 2: return is_signed ? int64_t(reinterpret_cast<const int16_t*>(p)[i])
                             : int64_t(reinterpret_cast<const uint16_t*>(p)[i]);
    case 4: return is_signed ? int64_t(reinterpret_cast<const int32_t*>(p)[i])
                             : int64_t(reinterpret_cast<const uint32_t*>(p)[i]);
    default: {
      uint64_t v = reinterpret_cast<const uint64_t*>(p)[i];
      return (!is_signed && v > uint64_t(std::numeric_limits<int64_t>::max())) ? -1 : int64_t(v);
    }
  }
}

// A dictionary-encoded array is decoded: values are gathered by index.
ArrayRef import_dictionary(const ArrowArray* a, const ArrowSchema* s, const DataType& dtype,
                           const Ctx& ctx) {
  int w = 0;
  bool is_signed = false;
  is_arrow_integer_format(s->format, &w, &is_signed);  // checked by import_dtype
  expect_buffers(a, 2, ctx);
  if (!a->dictionary) malformed(ctx.column, "dictionary-encoded array without a dictionary");
  ArrayRef values = import_node(a->dictionary, s->dictionary, ctx);
  int64_t nc;
  Buffer validity = import_validity(a, ctx, &nc);
  const int64_t len = a->length, off = a->offset;
  Buffer index_buf = required(a, 1, (off + len) * w, "indices", ctx);
  const uint8_t* bits = validity.empty() ? nullptr : validity.data();
  std::vector<int64_t> idx(len, -1);  // -1 marks a null row
  bool values_have_nulls = values->null_count() > 0;
  int64_t nulls = 0;
  for (int64_t i = 0; i < len; ++i) {
    if (bits && !get_bit(bits, off + i)) {
      ++nulls;
      continue;
    }
    int64_t k = read_index(index_buf.data(), w, is_signed, off + i);
    if (k < 0 || k >= values->length())
      throw ComputeError(err_msg("cannot import column '", ctx.column, "': dictionary index ", k,
                                 " at row ", i, " is out of bounds for a dictionary of ",
                                 values->length(), " values"));
    if (values_have_nulls && values->is_null(k)) {
      ++nulls;
      continue;
    }
    idx[i] = k;
  }
  Buffer out_validity;
  if (nulls > 0) {
    out_validity = Buffer::zeroed(bitmap_bytes(len));
    for (int64_t i = 0; i < len; ++i)
      if (idx[i] >= 0) set_bit(out_validity.mutable_data(), i);
  }
  const DataType& vt = values->dtype();
  if (dtype.is_categorical()) {
    // Dictionary entries -> codes of the global mapping; rows take their entry's code.
    // Only entries some row uses are looked up (an unused entry must not join the mapping).
    std::vector<uint8_t> used(static_cast<size_t>(values->length()), 0);
    for (int64_t i = 0; i < len; ++i)
      if (idx[i] >= 0) used[idx[i]] = 1;
    std::vector<std::string_view> strs;
    std::vector<int64_t> entry;
    for (int64_t k = 0; k < values->length(); ++k)
      if (used[k]) strs.push_back(values->str_value(k)), entry.push_back(k);
    auto& cats = const_cast<Categories&>(dtype.categories());
    std::vector<uint32_t> found = cats.encode(strs, !cats.is_fixed());
    std::vector<uint32_t> code_of(static_cast<size_t>(values->length()), UINT32_MAX);
    for (size_t j = 0; j < entry.size(); ++j) code_of[entry[j]] = found[j];
    Buffer out = Buffer::zeroed(len * 4);
    uint32_t* o = out.mutable_as<uint32_t>();
    for (int64_t i = 0; i < len; ++i) {
      if (idx[i] < 0) continue;
      if (code_of[idx[i]] == UINT32_MAX)
        throw ComputeError(err_msg("cannot import column '", ctx.column, "': value '", values->str_value(idx[i]),
                                   "' is not a category of ", dtype));
      o[i] = code_of[idx[i]];
    }
    return Array::make(dtype, len, out_validity, {out}, {}, 0, nulls);
  }
  if (vt.is_view()) {
    Buffer views = Buffer::allocate(len * sizeof(View));
    const View* in = values->views();
    for (int64_t i = 0; i < len; ++i) views.mutable_as<View>()[i] = idx[i] >= 0 ? in[idx[i]] : View{};
    std::vector<Buffer> buffers{views};
    for (size_t b = 1; b < values->buffers().size(); ++b) buffers.push_back(values->buffer(b));
    return Array::make(dtype, len, out_validity, std::move(buffers), {}, 0, nulls);
  }
  if (vt.is_boolean()) {
    Buffer out = Buffer::zeroed(bitmap_bytes(len));
    for (int64_t i = 0; i < len; ++i)
      if (idx[i] >= 0 && values->bool_value(idx[i])) set_bit(out.mutable_data(), i);
    return Array::make(dtype, len, out_validity, {out}, {}, 0, nulls);
  }
  if (vt.is_fixed_width()) {
    const int bw = vt.byte_width();
    Buffer out = Buffer::zeroed(len * bw);
    const uint8_t* in = values->buffer(0).data() + values->offset() * bw;
    for (int64_t i = 0; i < len; ++i)
      if (idx[i] >= 0) std::memcpy(out.mutable_data() + i * bw, in + idx[i] * bw, bw);
    return Array::make(dtype, len, out_validity, {out}, {}, 0, nulls);
  }
  throw InvalidOperationError(err_msg("cannot import column '", ctx.column,
                                      "': dictionary-encoded values of type ", vt,
                                      " are not supported"));
}

ArrayRef import_node(const ArrowArray* a, const ArrowSchema* s, const Ctx& ctx) {
  if (!a) malformed(ctx.column, "missing child array");
  if (!s) malformed(ctx.column, "missing child schema");
  if (a->length < 0) malformed(ctx.column, err_msg("negative length ", a->length));
  if (a->offset < 0) malformed(ctx.column, err_msg("negative offset ", a->offset));
  if (a->offset > std::numeric_limits<int64_t>::max() / 32 - a->length)
    malformed(ctx.column, "offset + length is too large");
  if (a->null_count < -1 || a->null_count > a->length)
    malformed(ctx.column, err_msg("null_count ", a->null_count, " for length ", a->length));
  if (a->n_buffers < 0 || (a->n_buffers > 0 && !a->buffers)) malformed(ctx.column, "buffers missing");
  if (a->n_children < 0 || (a->n_children > 0 && !a->children)) malformed(ctx.column, "children missing");
  const DataType dtype = import_dtype(s, ctx.column);
  if (s->dictionary) return import_dictionary(a, s, dtype, ctx);
  const ArrowFormat f = parse_arrow_format(s->format, ctx.column);
  const int64_t end = a->offset + a->length;
  switch (f.layout) {
    case ArrowLayout::Null:
      return Array::make(dtype, a->length, Buffer(), {});
    case ArrowLayout::Boolean: {
      expect_buffers(a, 2, ctx);
      expect_children(a, 0, ctx);
      int64_t nc;
      Buffer validity = import_validity(a, ctx, &nc);
      Buffer bits = required(a, 1, bitmap_bytes(end), "values", ctx);
      return Array::make(dtype, a->length, validity, {bits}, {}, a->offset, nc);
    }
    case ArrowLayout::Fixed: {
      expect_buffers(a, 2, ctx);
      expect_children(a, 0, ctx);
      int64_t nc;
      Buffer validity = import_validity(a, ctx, &nc);
      Buffer values = required(a, 1, end * dtype.byte_width(), "values", ctx);
      return Array::make(dtype, a->length, validity, {values}, {}, a->offset, nc);
    }
    case ArrowLayout::ScaledInt32: return import_scaled<int32_t>(a, dtype, f.factor, ctx);
    case ArrowLayout::ScaledInt64: return import_scaled<int64_t>(a, dtype, f.factor, ctx);
    case ArrowLayout::Utf8: return import_offset_binary<int32_t>(a, dtype, ctx);
    case ArrowLayout::LargeUtf8: return import_offset_binary<int64_t>(a, dtype, ctx);
    case ArrowLayout::View: return import_view(a, dtype, ctx);
    case ArrowLayout::FixedSizeBinary: return import_fixed_size_binary(a, dtype, f.fixed_size, ctx);
    case ArrowLayout::List:
    case ArrowLayout::LargeList:
    case ArrowLayout::FixedSizeList: return import_list(a, s, dtype, f, ctx);
    case ArrowLayout::Struct: return import_struct(a, s, dtype, ctx);
  }
  FRAZIL_CHECK(false);
  return nullptr;
}

// Moves a producer's array into a shared owner; the caller's struct is marked released.
std::shared_ptr<ImportedArray> take(ArrowArray* array, const ArrowSchema* schema) {
  if (!array || !array->release) throw ComputeError("cannot import an Arrow array that is already released");
  auto holder = std::make_shared<ImportedArray>();
  holder->array = *array;
  array->release = nullptr;
  if (!schema || !schema->release)
    throw ComputeError("cannot import an Arrow array: its schema is missing or released");
  return holder;
}

}  // namespace

namespace {

// The categories of Polars' _PL_ENUM_VALUES2 field metadata ("<len>;<category>" each), if any.
std::optional<std::vector<std::string>> polars_enum_categories(const char* metadata) {
  if (!metadata) return std::nullopt;
  auto get32 = [](const char* p) {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  };
  const char* p = metadata;
  const int32_t pairs = get32(p);
  p += 4;
  for (int32_t k = 0; k < pairs; ++k) {
    const int32_t kl = get32(p);
    std::string_view key(p + 4, static_cast<size_t>(kl));
    p += 4 + kl;
    const int32_t vl = get32(p);
    std::string_view value(p + 4, static_cast<size_t>(vl));
    p += 4 + vl;
    if (key != "_PL_ENUM_VALUES2") continue;
    std::vector<std::string> cats;
    size_t i = 0;
    while (i < value.size()) {
      const size_t semi = value.find(';', i);
      if (semi == std::string_view::npos) return std::nullopt;
      size_t len = 0;
      for (size_t j = i; j < semi; ++j) {
        if (value[j] < '0' || value[j] > '9') return std::nullopt;
        len = len * 10 + static_cast<size_t>(value[j] - '0');
      }
      if (semi + 1 + len > value.size()) return std::nullopt;
      cats.emplace_back(value.substr(semi + 1, len));
      i = semi + 1 + len;
    }
    return cats;
  }
  return std::nullopt;
}

}  // namespace

DataType import_dtype(const ArrowSchema* s, const std::string& column) {
  if (!s || !s->release) throw ComputeError(err_msg("cannot import column '", column, "': the Arrow schema is released"));
  if (s->n_children < 0 || (s->n_children > 0 && !s->children))
    malformed(column, "schema children missing");
  if (s->dictionary) {
    int w;
    bool is_signed;
    if (!is_arrow_integer_format(s->format, &w, &is_signed))
      throw InvalidOperationError(err_msg("cannot import column '", column, "': dictionary index format '",
                                          s->format ? s->format : "", "' is not an integer type"));
    DataType values = import_dtype(s->dictionary, column);
    // Strings with a dictionary are a Categorical (Polars' and pyarrow's categoricals), or
    // the Enum that Polars' field metadata names.
    if (values.is_string()) {
      if (auto cats = polars_enum_categories(s->metadata)) return DataType::enum_(Categories::fixed(std::move(*cats)));
      return DataType::categorical();
    }
    return values;
  }
  ArrowFormat f = parse_arrow_format(s->format, column);
  switch (f.layout) {
    case ArrowLayout::List:
    case ArrowLayout::LargeList:
      if (s->n_children != 1) malformed(column, "a list schema needs exactly one child");
      return DataType::list(import_dtype(schema_child(s, 0, column), column));
    case ArrowLayout::FixedSizeList:
      if (s->n_children != 1) malformed(column, "a list schema needs exactly one child");
      return DataType::array(import_dtype(schema_child(s, 0, column), column), f.fixed_size);
    case ArrowLayout::Struct: {
      std::vector<Field> fields;
      for (int64_t i = 0; i < s->n_children; ++i) {
        const ArrowSchema* c = schema_child(s, i, column);
        fields.push_back(Field{field_name(c), import_dtype(c, column)});
      }
      return DataType::struct_(std::move(fields));
    }
    default: return f.dtype;
  }
}

Schema import_schema(const ArrowSchema* s) {
  if (!s || !s->release) throw ComputeError("cannot import an Arrow schema that is released");
  if (!s->format || std::strcmp(s->format, "+s") != 0)
    throw InvalidOperationError(err_msg("cannot import a frame from Arrow format '",
                                        s->format ? s->format : "", "': expected a struct (\"+s\")"));
  std::vector<Field> fields;
  for (int64_t i = 0; i < s->n_children; ++i) {
    const ArrowSchema* c = schema_child(s, i, "");
    std::string name = field_name(c);
    fields.push_back(Field{name, import_dtype(c, name)});
  }
  return Schema(std::move(fields));
}

ArrayRef import_array(ArrowArray* array, const ArrowSchema* schema, const std::string& column,
                      const ArrowImportOptions& options) {
  auto holder = take(array, schema);
  Ctx ctx{column, holder, options.validate_utf8};
  return import_node(&holder->array, schema, ctx);
}

DataFrame import_frame(ArrowArray* array, const ArrowSchema* schema, const ArrowImportOptions& options) {
  auto holder = take(array, schema);
  Schema frame_schema = import_schema(schema);  // checks the format and names
  const ArrowArray* a = &holder->array;
  static const std::string kFrame = "<record batch>";
  Ctx top{kFrame, holder};
  if (a->length < 0 || a->offset < 0) malformed(kFrame, "negative length or offset");
  if (a->n_children != static_cast<int64_t>(frame_schema.size()))
    malformed(kFrame, err_msg("schema has ", frame_schema.size(), " fields, array has ", a->n_children, " children"));
  if (a->n_children > 0 && !a->children) malformed(kFrame, "children missing");
  if (a->n_buffers < 0 || (a->n_buffers > 0 && !a->buffers)) malformed(kFrame, "buffers missing");
  int64_t nc = 0;
  Buffer validity = import_validity(a, top, &nc);
  const int64_t len = a->length, off = a->offset;
  std::vector<Column> columns;
  for (int64_t i = 0; i < a->n_children; ++i) {
    const std::string& name = frame_schema.field(i).name;
    Ctx ctx{name, holder, options.validate_utf8};
    ArrayRef child = import_node(a->children[i], schema->children[i], ctx);
    if (child->length() < off + len)
      throw ShapeError(err_msg("could not create a new DataFrame: height of column '", name, "' (",
                               child->length(), ") does not match the record batch length (", len, ")"));
    if (off != 0 || child->length() != len) child = child->slice(off, len);
    if (nc > 0 && !child->dtype().is_null()) {
      // A null row of the batch is a null in every column.
      Buffer bits = Buffer::zeroed(bitmap_bytes(len));
      for (int64_t r = 0; r < len; ++r)
        if (get_bit(validity.data(), off + r) && child->is_valid(r)) set_bit(bits.mutable_data(), r);
      child = child->with_validity(bits);
    }
    columns.emplace_back(name, std::move(child));
  }
  if (columns.empty()) return DataFrame::empty_with_height(len);
  return DataFrame(std::move(columns));
}

}  // namespace frazil::io
