#include "frazil/core/array.hpp"

#include <cstring>
#include <map>

#include "frazil/core/error.hpp"
#include "frazil/core/cancel.hpp"

namespace frazil {

Array::Array(DataType dtype, int64_t length, Buffer validity, std::vector<Buffer> buffers,
             std::vector<ArrayRef> children, int64_t offset, int64_t null_count)
    : dtype_(std::move(dtype)),
      length_(length),
      offset_(offset),
      null_count_(null_count),
      validity_(std::move(validity)),
      buffers_(std::move(buffers)),
      children_(std::move(children)) {
  if (dtype_.is_null()) null_count_ = length_;
  else if (validity_.empty()) null_count_ = 0;
}

int64_t Array::null_count() const {
  if (null_count_ < 0) null_count_ = length_ - count_set_bits(validity_.data(), offset_, length_);
  return null_count_;
}

ArrayRef Array::slice(int64_t offset, int64_t length) const {
  FRAZIL_CHECK(offset >= 0 && length >= 0 && offset + length <= length_);
  int64_t nc = (offset == 0 && length == length_) ? null_count_ : -1;
  if (validity_.empty()) nc = 0;
  return make(dtype_, length, validity_, buffers_, children_, offset_ + offset, nc);
}

ArrayRef Array::with_dtype(DataType dtype) const {
  return make(std::move(dtype), length_, validity_, buffers_, children_, offset_, null_count_);
}

ArrayRef Array::without_validity() const {
  return make(dtype_, length_, Buffer(), buffers_, children_, offset_, 0);
}

ArrayRef Array::with_validity(Buffer validity, int64_t null_count) const {
  if (validity.empty()) return without_validity();
  if (offset_ == 0)
    return make(dtype_, length_, std::move(validity), buffers_, children_, 0, null_count);
  // The new bitmap starts at bit 0 while our buffers start at offset_: shift the bitmap.
  Buffer shifted = Buffer::zeroed(bitmap_bytes(offset_ + length_));
  copy_bits(validity.data(), 0, length_, shifted.mutable_data(), offset_);
  return make(dtype_, length_, std::move(shifted), buffers_, children_, offset_, null_count);
}

ArrayRef make_null_array(const DataType& dtype, int64_t length) {
  if (dtype.is_null()) return Array::make(dtype, length, Buffer(), {});
  Buffer validity = Buffer::zeroed(bitmap_bytes(length));
  switch (dtype.id()) {
    case TypeId::Boolean:
      return Array::make(dtype, length, validity, {Buffer::zeroed(bitmap_bytes(length))}, {}, 0, length);
    case TypeId::String:
    case TypeId::Binary:
      return Array::make(dtype, length, validity, {Buffer::zeroed(length * sizeof(View))}, {}, 0, length);
    case TypeId::Array:
    case TypeId::List:
      return Array::make(dtype, length, validity, {Buffer::zeroed((length + 1) * sizeof(int64_t))},
                         {make_null_array(dtype.inner(), 0)}, 0, length);
    case TypeId::Struct: {
      std::vector<ArrayRef> children;
      for (const auto& f : dtype.fields()) children.push_back(make_null_array(f.dtype, length));
      return Array::make(dtype, length, validity, {}, std::move(children), 0, length);
    }
    default:
      return Array::make(dtype, length, validity, {Buffer::zeroed(length * dtype.byte_width())}, {},
                         0, length);
  }
}

static Buffer concat_validity(const std::vector<ArrayRef>& arrays, int64_t total) {
  bool any_nulls = false;
  for (const auto& a : arrays) any_nulls |= a->null_count() > 0;
  if (!any_nulls) return Buffer();
  Buffer out = Buffer::zeroed(bitmap_bytes(total));
  int64_t pos = 0;
  for (const auto& a : arrays) {
    if (a->dtype().is_null()) {
      // all null: bits stay 0
    } else if (a->validity_bits()) {
      copy_bits(a->validity_bits(), a->offset(), a->length(), out.mutable_data(), pos);
    } else {
      for (int64_t i = 0; i < a->length(); ++i) set_bit(out.mutable_data(), pos + i);
    }
    pos += a->length();
  }
  return out;
}

ArrayRef concat_arrays(const std::vector<ArrayRef>& arrays) {
  FRAZIL_CHECK(!arrays.empty());
  if (arrays.size() == 1) return arrays[0];
  const DataType& dtype = arrays[0]->dtype();
  int64_t total = 0;
  for (const auto& a : arrays) {
    if (a->dtype() != dtype)
      throw SchemaError(err_msg("cannot concatenate arrays of dtype ", dtype, " and ", a->dtype()));
    total += a->length();
  }
  check_cancelled();  // a big concatenation copies every row
  Buffer validity = concat_validity(arrays, total);
  switch (dtype.id()) {
    case TypeId::Null: return Array::make(dtype, total, Buffer(), {});
    case TypeId::Boolean: {
      Buffer bits = Buffer::zeroed(bitmap_bytes(total));
      int64_t pos = 0;
      for (const auto& a : arrays) {
        copy_bits(a->buffer(0).data(), a->offset(), a->length(), bits.mutable_data(), pos);
        pos += a->length();
      }
      return Array::make(dtype, total, validity, {bits});
    }
    case TypeId::String:
    case TypeId::Binary: {
      // Views are copied with their buffer index remapped; data buffers are shared, not
      // copied, and a buffer several inputs share (slices of one array: morsels) is listed
      // once, so that repeated split-and-concat does not multiply the buffer list.
      Buffer views = Buffer::allocate(total * sizeof(View));
      View* out = views.mutable_as<View>();
      std::vector<Buffer> buffers{views};
      std::map<std::pair<const uint8_t*, size_t>, uint32_t> index_of;  // data buffer -> its index
      std::vector<uint32_t> remap;
      for (const auto& a : arrays) {
        remap.clear();
        for (size_t b = 1; b < a->buffers().size(); ++b) {
          const Buffer& buf = a->buffer(b);
          auto [it, added] = index_of.try_emplace({buf.data(), buf.size()}, static_cast<uint32_t>(buffers.size() - 1));
          if (added) buffers.push_back(buf);
          remap.push_back(it->second);
        }
        const View* in = a->views();
        for (int64_t i = 0; i < a->length(); ++i) {
          View v = in[i];
          if (!v.is_inline()) {
            uint32_t idx = remap[v.buffer_index()];
            std::memcpy(v.data + 4, &idx, 4);
          }
          *out++ = v;
        }
      }
      return Array::make(dtype, total, validity, std::move(buffers));
    }
    case TypeId::Array:
    case TypeId::List: {
      Buffer offsets = Buffer::allocate((total + 1) * sizeof(int64_t));
      int64_t* o = offsets.mutable_as<int64_t>();
      std::vector<ArrayRef> values;
      int64_t pos = 0, base = 0;
      o[0] = 0;
      for (const auto& a : arrays) {
        const int64_t* ao = a->list_offsets();
        for (int64_t i = 0; i < a->length(); ++i) o[pos + i + 1] = base + (ao[i + 1] - ao[0]);
        values.push_back(a->child(0)->slice(ao[0], ao[a->length()] - ao[0]));
        base += ao[a->length()] - ao[0];
        pos += a->length();
      }
      return Array::make(dtype, total, validity, {offsets}, {concat_arrays(values)});
    }
    case TypeId::Struct: {
      std::vector<ArrayRef> children;
      for (size_t f = 0; f < dtype.fields().size(); ++f) {
        std::vector<ArrayRef> parts;
        for (const auto& a : arrays) parts.push_back(a->child(f)->slice(a->offset(), a->length()));
        children.push_back(concat_arrays(parts));
      }
      return Array::make(dtype, total, validity, {}, std::move(children));
    }
    default: {
      const int w = dtype.byte_width();
      Buffer values = Buffer::allocate(total * w);
      int64_t pos = 0;
      for (const auto& a : arrays) {
        if (a->length() >= kCheckRows) check_cancelled();
        std::memcpy(values.mutable_data() + pos * w, a->buffer(0).data() + a->offset() * w,
                    a->length() * w);
        pos += a->length();
      }
      return Array::make(dtype, total, validity, {values});
    }
  }
}

}  // namespace frazil
