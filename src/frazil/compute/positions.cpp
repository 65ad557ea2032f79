#include "frazil/compute/positions.hpp"

#include <algorithm>

namespace frazil::compute {

ArrayRef slice_clamped(const Array& values, int64_t offset, std::optional<int64_t> length) {
  const int64_t n = values.length();
  int64_t begin = offset < 0 ? n + offset : offset;
  int64_t end = length ? (begin + *length) : n;
  begin = std::clamp<int64_t>(begin, 0, n);
  end = std::clamp<int64_t>(end, begin, n);
  return values.slice(begin, end - begin);
}

}  // namespace frazil::compute
