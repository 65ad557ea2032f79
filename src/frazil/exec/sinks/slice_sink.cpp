#include "frazil/exec/sinks/slice_sink.hpp"

#include <algorithm>
#include <climits>

namespace frazil::exec {

SliceWindow slice_window(int64_t h, int64_t offset, int64_t length) {
  // Polars' rule: the window [offset, offset + length) (negative offsets count from the
  // end) is clipped to [0, h]; clipping the start also shortens the window.
  const int64_t begin = offset < 0 ? h + offset : offset;
  const int64_t end = length > INT64_MAX - std::max<int64_t>(begin, 0) ? INT64_MAX : begin + length;
  const int64_t start = std::clamp<int64_t>(begin, 0, h);
  const int64_t stop = std::clamp<int64_t>(end, 0, h);
  return {start, std::max<int64_t>(0, stop - start)};
}

DataFrame slice_rows(const DataFrame& df, int64_t offset, int64_t length) {
  const SliceWindow w = slice_window(df.height(), offset, length);
  return df.slice(w.start, w.count);
}

std::string SliceSink::describe() const {
  return "slice: offset " + std::to_string(offset_) + ", length " + std::to_string(length_);
}

}  // namespace frazil::exec
