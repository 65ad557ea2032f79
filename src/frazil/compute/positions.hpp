// Kernels of positions: slicing by offset and length, gathering by index, arg-functions.
#pragma once

#include <optional>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Rows [offset, offset + length) clamped to the array (offset < 0 counts from the end; no
// length: to the end). Zero-copy.
ArrayRef slice_clamped(const Array& values, int64_t offset, std::optional<int64_t> length);

}  // namespace frazil::compute
