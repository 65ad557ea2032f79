#include "frazil/io/csv/csv_filter.hpp"

#include <cstring>

#include "frazil/core/error.hpp"

namespace frazil::io::csv_detail {

namespace {

ArrayRef gather(const Array& a, const std::vector<int64_t>& idx) {
  const int64_t n = static_cast<int64_t>(idx.size());
  const DataType& dtype = a.dtype();
  if (dtype.is_null()) return make_null_array(dtype, n);
  Buffer validity;
  int64_t nulls = 0;
  if (a.has_validity() && a.null_count() > 0) {
    validity = Buffer::zeroed(bitmap_bytes(n));
    for (int64_t i = 0; i < n; ++i) {
      if (a.is_valid(idx[i])) set_bit(validity.mutable_data(), i);
      else ++nulls;
    }
    if (nulls == 0) validity = Buffer();
  }
  switch (dtype.id()) {
    case TypeId::Boolean: {
      Buffer bits = Buffer::zeroed(bitmap_bytes(n));
      for (int64_t i = 0; i < n; ++i)
        if (a.bool_value(idx[i])) set_bit(bits.mutable_data(), i);
      return Array::make(dtype, n, validity, {bits}, {}, 0, nulls);
    }
    case TypeId::String:
    case TypeId::Binary: {
      // Views are copied; the data buffers are shared.
      Buffer views = Buffer::allocate(std::max<int64_t>(n, 1) * sizeof(View));
      View* out = views.mutable_as<View>();
      const View* in = a.views();
      for (int64_t i = 0; i < n; ++i) out[i] = in[idx[i]];
      views.set_size(n * sizeof(View));
      std::vector<Buffer> buffers{views};
      for (size_t b = 1; b < a.buffers().size(); ++b) buffers.push_back(a.buffer(b));
      return Array::make(dtype, n, validity, std::move(buffers), {}, 0, nulls);
    }
    default: {
      FRAZIL_CHECK(dtype.is_fixed_width());
      const int w = dtype.byte_width();
      Buffer values = Buffer::allocate(std::max<int64_t>(n, 1) * w);
      const uint8_t* in = a.buffer(0).data() + a.offset() * w;
      uint8_t* out = values.mutable_data();
      for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * w, in + idx[i] * w, w);
      values.set_size(n * w);
      return Array::make(dtype, n, validity, {values}, {}, 0, nulls);
    }
  }
}

}  // namespace

DataFrame filter_by_mask(const DataFrame& frame, const ArrayRef& mask) {
  if (!mask || !mask->dtype().is_boolean())
    throw ComputeError(err_msg("the CSV scan predicate must return a Boolean mask, got ",
                               mask ? mask->dtype().to_string() : std::string("nothing")));
  if (mask->length() != frame.height())
    throw ComputeError(err_msg("the CSV scan predicate returned ", mask->length(),
                               " values for a chunk of ", frame.height(), " rows"));
  std::vector<int64_t> idx;
  idx.reserve(static_cast<size_t>(frame.height()));
  for (int64_t i = 0; i < frame.height(); ++i)
    if (mask->is_valid(i) && mask->bool_value(i)) idx.push_back(i);
  if (static_cast<int64_t>(idx.size()) == frame.height()) return frame;
  if (frame.width() == 0) return DataFrame::empty_with_height(static_cast<int64_t>(idx.size()));
  std::vector<Column> cols;
  for (const auto& c : frame.columns()) cols.emplace_back(c.name(), gather(*c.as_array(), idx));
  return DataFrame(std::move(cols));
}

}  // namespace frazil::io::csv_detail
