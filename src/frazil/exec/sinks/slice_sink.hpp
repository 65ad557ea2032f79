// A slice of the whole input: Polars' window [offset, offset + length), negative offsets
// counting from the end, clipped to the rows there are.
#pragma once

#include "frazil/exec/sinks/sink.hpp"

namespace frazil::exec {

// The rows [start, start + count) of `height` that slice(offset, length) keeps.
struct SliceWindow {
  int64_t start = 0;
  int64_t count = 0;
};
SliceWindow slice_window(int64_t height, int64_t offset, int64_t length);

// The window of `df` that slice(offset, length) keeps.
DataFrame slice_rows(const DataFrame& df, int64_t offset, int64_t length);

class SliceSink final : public CollectingSink {
 public:
  SliceSink(int64_t offset, int64_t length) : offset_(offset), length_(length) {}
  std::string describe() const override;

 protected:
  DataFrame finish(DataFrame all) override { return slice_rows(all, offset_, length_); }

 private:
  int64_t offset_, length_;
};

}  // namespace frazil::exec
