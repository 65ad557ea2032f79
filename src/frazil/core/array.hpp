// Array: one contiguous, immutable array in Arrow layout.
//   Null:                 no buffers
//   Boolean:              buffers[0] = bit-packed values
//   numbers, temporals:   buffers[0] = values (Date int32, Datetime/Duration/Time int64,
//                         Decimal 16-byte two's complement)
//   String, Binary:       buffers[0] = 16-byte views, buffers[1..] = data buffers
//   List:                 buffers[0] = int64 offsets (length + 1), children[0] = values
//   Struct:               children[i] = field i
// `offset` applies to the validity bitmap and to buffers[0], as in Arrow.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "frazil/core/bitmap.hpp"
#include "frazil/core/buffer.hpp"
#include "frazil/core/dtype.hpp"
#include "frazil/core/string_view.hpp"

namespace frazil {

class Array;
using ArrayRef = std::shared_ptr<const Array>;

class Array {
 public:
  Array(DataType dtype, int64_t length, Buffer validity, std::vector<Buffer> buffers,
        std::vector<ArrayRef> children = {}, int64_t offset = 0, int64_t null_count = -1);

  static ArrayRef make(DataType dtype, int64_t length, Buffer validity, std::vector<Buffer> buffers,
                       std::vector<ArrayRef> children = {}, int64_t offset = 0,
                       int64_t null_count = -1) {
    return std::make_shared<const Array>(std::move(dtype), length, std::move(validity),
                                         std::move(buffers), std::move(children), offset,
                                         null_count);
  }

  const DataType& dtype() const { return dtype_; }
  int64_t length() const { return length_; }
  int64_t offset() const { return offset_; }
  int64_t null_count() const;
  bool has_validity() const { return !validity_.empty(); }
  bool is_valid(int64_t i) const {
    if (dtype_.is_null()) return false;
    return validity_.empty() || get_bit(validity_.data(), offset_ + i);
  }
  bool is_null(int64_t i) const { return !is_valid(i); }
  // Validity bits, to be read at bit offset `offset()`; nullptr when all valid.
  const uint8_t* validity_bits() const { return validity_.empty() ? nullptr : validity_.data(); }
  const Buffer& validity_buffer() const { return validity_; }
  Bitmap validity() const { return Bitmap(validity_, offset_, length_); }

  const std::vector<Buffer>& buffers() const { return buffers_; }
  const Buffer& buffer(size_t i) const { return buffers_[i]; }
  const std::vector<ArrayRef>& children() const { return children_; }
  const ArrayRef& child(size_t i) const { return children_[i]; }

  // Fixed-width values, already advanced by offset().
  template <typename T>
  const T* values() const { return buffers_[0].as<T>() + offset_; }
  bool bool_value(int64_t i) const { return get_bit(buffers_[0].data(), offset_ + i); }
  const View* views() const { return buffers_[0].as<View>() + offset_; }
  std::string_view str_value(int64_t i) const {
    const View& v = views()[i];
    if (v.is_inline()) return {reinterpret_cast<const char*>(v.data), v.length};
    return {reinterpret_cast<const char*>(buffers_[1 + v.buffer_index()].data()) + v.offset(),
            v.length};
  }
  const int64_t* list_offsets() const { return buffers_[0].as<int64_t>() + offset_; }

  // Zero-copy view of [offset, offset + length).
  ArrayRef slice(int64_t offset, int64_t length) const;
  // Same data, other logical type of the same layout (Int64 <-> Datetime, ...).
  ArrayRef with_dtype(DataType dtype) const;
  // Same values, no validity bitmap (caller guarantees the nulls do not matter).
  ArrayRef without_validity() const;
  // Same values, another validity (offset-0 bitmap of this length, or empty for all valid).
  ArrayRef with_validity(Buffer validity, int64_t null_count = -1) const;

 private:
  DataType dtype_;
  int64_t length_;
  int64_t offset_;
  mutable int64_t null_count_;
  Buffer validity_;
  std::vector<Buffer> buffers_;
  std::vector<ArrayRef> children_;
};

// An array of `length` nulls of any dtype (a valid layout, all bits unset).
ArrayRef make_null_array(const DataType& dtype, int64_t length);
// An empty array of any dtype.
inline ArrayRef make_empty_array(const DataType& dtype) { return make_null_array(dtype, 0); }
// Concatenates arrays of one dtype into one contiguous array.
ArrayRef concat_arrays(const std::vector<ArrayRef>& arrays);

}  // namespace frazil
