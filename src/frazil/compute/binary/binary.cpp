#include "frazil/compute/binary/binary.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "frazil/compute/string/string_util.hpp"

namespace frazil::compute {

using detail::IntArg;
using detail::ViewWriter;

namespace {

void require_binary(const Array& a, const char* what) {
  if (a.dtype().id() != TypeId::Binary && !a.dtype().is_null())
    throw SchemaError(err_msg("invalid series dtype: expected `Binary`, got `", a.dtype().short_name(), "` for `",
                              what, "`"));
}

int64_t row(const Array& a, int64_t i) { return a.length() == 1 ? 0 : i; }

// A Boolean of pred(value, pattern) per row; null where either is null.
template <typename P>
ArrayRef match(const Array& values, const Array& pattern, const char* what, P pred) {
  require_binary(values, what);
  if (pattern.dtype().id() != TypeId::Binary && !pattern.dtype().is_null())
    throw InvalidOperationError(err_msg("`", what, "` expects a Binary argument, got ", pattern.dtype()));
  const int64_t n = detail::output_length(values, {&pattern}, what);
  BooleanBuilder b;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = row(values, i), p = row(pattern, i);
    if (values.is_null(r) || pattern.is_null(p)) b.push_null();
    else b.push(pred(values.str_value(r), pattern.str_value(p)));
  }
  return b.finish();
}

// Bytes [start, start + len) of each value, per row; null where the value or an argument is.
template <typename Window>
ArrayRef window(const Array& values, int64_t n, Window win) {
  if (values.dtype().is_null()) return make_null_array(DataType::binary(), n);
  ViewWriter w(values, n);
  ValidityBuilder v;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = row(values, i);
    int64_t start = 0, len = 0;
    if (values.is_null(r) || !win(i, static_cast<int64_t>(values.str_value(r).size()), start, len)) {
      w.push_null(), v.push(false);
      continue;
    }
    v.push(true);
    w.push_sub(r, values.str_value(r), static_cast<size_t>(start), static_cast<size_t>(len));
  }
  return w.finish(v.finish())->with_dtype(DataType::binary());
}

// Polars' slice bounds: [offset, offset + length) with a negative offset counted from the
// end, computed before clamping to [0, size] (slice(-10, 3) of 3 bytes is empty).
void clamp_window(int64_t size, int64_t offset, std::optional<int64_t> length, int64_t& start, int64_t& len) {
  const int64_t s = offset < 0 ? size + offset : offset;
  const int64_t e = length ? s + std::max<int64_t>(0, *length) : size;
  start = std::clamp<int64_t>(s, 0, size);
  len = std::max<int64_t>(0, std::clamp<int64_t>(e, 0, size) - start);
}

}  // namespace

ArrayRef bin_contains(const Array& values, const Array& pattern) {
  return match(values, pattern, "bin.contains",
               [](std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; });
}

ArrayRef bin_starts_with(const Array& values, const Array& prefix) {
  return match(values, prefix, "bin.starts_with", [](std::string_view s, std::string_view p) { return s.starts_with(p); });
}

ArrayRef bin_ends_with(const Array& values, const Array& suffix) {
  return match(values, suffix, "bin.ends_with", [](std::string_view s, std::string_view p) { return s.ends_with(p); });
}

ArrayRef bin_size(const Array& values, const std::string& unit) {
  require_binary(values, "bin.size");
  const int64_t n = values.length();
  double scale = 1;
  if (unit == "kb") scale = 1024.0;
  else if (unit == "mb") scale = 1024.0 * 1024;
  else if (unit == "gb") scale = 1024.0 * 1024 * 1024;
  else if (unit == "tb") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (unit != "b") throw InvalidOperationError(err_msg("bin.size: unit must be one of b, kb, mb, gb, tb; got '", unit, "'"));
  const bool bytes = unit == "b";
  const DataType out = bytes ? DataType::uint32() : DataType::float64();
  if (values.dtype().is_null()) return make_null_array(out, n);
  Buffer vals = bytes ? detail::alloc_values<uint32_t>(n) : detail::alloc_values<double>(n);
  for (int64_t i = 0; i < n; ++i) {
    const size_t sz = values.is_null(i) ? 0 : values.str_value(i).size();
    if (bytes) vals.mutable_as<uint32_t>()[i] = static_cast<uint32_t>(sz);
    else vals.mutable_as<double>()[i] = static_cast<double>(sz) / scale;
  }
  return detail::make_fixed(out, n, detail::aligned_validity(values), std::move(vals));
}

ArrayRef bin_slice(const Array& values, const Array& offset, const Array& length) {
  require_binary(values, "bin.slice");
  const int64_t n = detail::output_length(values, {&offset, &length}, "bin.slice");
  IntArg off(offset, n, "bin.slice");
  const bool to_end = length.dtype().is_null();
  std::optional<IntArg> len;
  if (!to_end) len.emplace(length, n, "bin.slice");
  return window(values, n, [&](int64_t i, int64_t size, int64_t& s, int64_t& l) {
    if (off.is_null(i)) return false;
    std::optional<int64_t> want;
    if (len) {
      if (len->is_null(i)) return false;
      want = len->at(i);
    }
    clamp_window(size, off.at(i), want, s, l);
    return true;
  });
}

ArrayRef bin_head(const Array& values, const Array& count) {
  require_binary(values, "bin.head");
  const int64_t n = detail::output_length(values, {&count}, "bin.head");
  IntArg k(count, n, "bin.head");
  return window(values, n, [&](int64_t i, int64_t size, int64_t& s, int64_t& l) {
    if (k.is_null(i)) return false;
    const int64_t c = k.at(i);
    s = 0;
    l = c >= 0 ? std::min(c, size) : std::max<int64_t>(0, size + c);
    return true;
  });
}

ArrayRef bin_tail(const Array& values, const Array& count) {
  require_binary(values, "bin.tail");
  const int64_t n = detail::output_length(values, {&count}, "bin.tail");
  IntArg k(count, n, "bin.tail");
  return window(values, n, [&](int64_t i, int64_t size, int64_t& s, int64_t& l) {
    if (k.is_null(i)) return false;
    const int64_t c = k.at(i);
    l = c >= 0 ? std::min(c, size) : std::max<int64_t>(0, size + c);
    s = size - l;
    return true;
  });
}

ArrayRef bin_get(const Array& values, const Array& index, bool null_on_oob) {
  require_binary(values, "bin.get");
  const int64_t n = detail::output_length(values, {&index}, "bin.get");
  IntArg k(index, n, "bin.get");
  PrimitiveBuilder<uint8_t> b(DataType::uint8());
  for (int64_t i = 0; i < n; ++i) {
    const int64_t r = row(values, i);
    if (values.dtype().is_null() || values.is_null(r) || k.is_null(i)) {
      b.push_null();
      continue;
    }
    const std::string_view s = values.str_value(r);
    int64_t j = k.at(i);
    if (j < 0) j += static_cast<int64_t>(s.size());
    if (j < 0 || j >= static_cast<int64_t>(s.size())) {
      if (!null_on_oob) throw ComputeError("get index is out of bounds");
      b.push_null();
      continue;
    }
    b.push(static_cast<uint8_t>(s[static_cast<size_t>(j)]));
  }
  return b.finish();
}

namespace {

bool reinterpretable_leaf(const DataType& t) { return t.is_primitive_numeric() || t.is_temporal(); }

// Each value of exactly `count` x the leaf's width bytes as `count` leaf values (the leaf's
// physical numbers; big-endian values reversed element by element); other sizes are null.
ArrayRef reinterpret_values(const Array& values, const DataType& leaf, int64_t count, bool little_endian,
                            Buffer* validity, int64_t* nulls) {
  const DataType physical = leaf.is_temporal() ? leaf.physical() : leaf;
  const int64_t n = values.length();
  const size_t w = static_cast<size_t>(physical.byte_width());
  const size_t row_bytes = w * static_cast<size_t>(count);
  Buffer vals = Buffer::zeroed(static_cast<size_t>(n) * row_bytes);
  ValidityBuilder v;
  uint8_t* out = vals.mutable_data();
  for (int64_t i = 0; i < n; ++i) {
    if (values.is_null(i) || values.str_value(i).size() != row_bytes) {
      v.push(false);
      continue;
    }
    v.push(true);
    const std::string_view s = values.str_value(i);
    uint8_t* dst = out + static_cast<size_t>(i) * row_bytes;
    // frazil's buffers are little endian (x86-64): big-endian input is reversed.
    if (little_endian) std::memcpy(dst, s.data(), row_bytes);
    else
      for (size_t e = 0; e < static_cast<size_t>(count); ++e)
        for (size_t b = 0; b < w; ++b) dst[e * w + b] = static_cast<uint8_t>(s[e * w + w - 1 - b]);
  }
  // A Time outside one day (nanoseconds in [0, 86400e9)) is null, as Polars reads it.
  Buffer element_validity;
  if (leaf.id() == TypeId::Time) {
    const int64_t* t = vals.as<int64_t>();
    const Buffer rows = v.finish();
    ValidityBuilder rv, ev;
    for (int64_t i = 0; i < n; ++i) {
      const bool row = rows.size() == 0 || get_bit(rows.data(), i);
      bool all = row;
      for (int64_t e = 0; e < count; ++e) {
        const int64_t x = t[i * count + e];
        const bool ok = row && x >= 0 && x < int64_t{86400} * 1000000000;
        ev.push(ok);
        all = all && ok;
      }
      rv.push(count == 1 ? all : row);
    }
    *nulls = rv.null_count();
    *validity = rv.finish();
    element_validity = ev.finish();
    return detail::make_fixed(physical, n * count, count == 1 ? Buffer() : std::move(element_validity), std::move(vals))
        ->with_dtype(leaf);
  }
  *nulls = v.null_count();
  *validity = v.finish();
  return detail::make_fixed(physical, n * count, Buffer(), std::move(vals))->with_dtype(leaf);
}

}  // namespace

void check_reinterpret_dtype(const DataType& dtype) {
  const bool ok = reinterpretable_leaf(dtype) || (dtype.id() == TypeId::Array && reinterpretable_leaf(dtype.inner()));
  if (!ok)
    throw InvalidOperationError(err_msg("cannot reinterpret binary to dtype ", dtype,
                                        ". Only numeric or temporal dtype, or Arrays of these, are supported. Hint: To "
                                        "reinterpret to a nested Array, first reinterpret to a linear Array, and then "
                                        "use reshape"));
}

ArrayRef bin_reinterpret(const Array& values, const DataType& dtype, bool little_endian) {
  require_binary(values, "bin.reinterpret");
  check_reinterpret_dtype(dtype);
  const int64_t n = values.length();
  if (values.dtype().is_null()) return make_null_array(dtype, n);
  const bool array = dtype.id() == TypeId::Array;
  const int64_t width = array ? dtype.width() : 1;
  Buffer validity;
  int64_t nulls = 0;
  ArrayRef flat = reinterpret_values(values, array ? dtype.inner() : dtype, width, little_endian, &validity, &nulls);
  if (!array) return flat->with_validity(std::move(validity));
  Buffer offsets = Buffer::allocate(static_cast<size_t>(n + 1) * sizeof(int64_t));
  for (int64_t i = 0; i <= n; ++i) offsets.mutable_as<int64_t>()[i] = i * width;
  return Array::make(dtype, n, std::move(validity), {std::move(offsets)}, {std::move(flat)}, 0, nulls);
}

}  // namespace frazil::compute
