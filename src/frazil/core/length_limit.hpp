// The length limit. Row indices, counts and group sizes are UInt32 (IdxSize), as in
// Polars' default build, so a column may hold at most kMaxLength rows: every row index
// fits a UInt32 and UINT32_MAX stays free to mean "no row" (compute::kNullIdx). Past the
// limit frazil raises ComputeError ("maximum length reached") instead of wrapping.
#pragma once

#include <cstdint>
#include <string_view>

namespace frazil {

inline constexpr int64_t kMaxLength = int64_t{UINT32_MAX} - 1;
// The largest count a UInt32 count (len, count, n_unique, group size) can hold.
inline constexpr uint64_t kMaxCount = UINT32_MAX;

// Throws ComputeError naming `what` (a column, "a frame", "concat") when `rows` passes
// kMaxLength (or is negative).
void check_length(int64_t rows, std::string_view what);

// `n` as a UInt32 count, or ComputeError naming `what` ("len()", "count()") when it does
// not fit.
uint32_t checked_count(uint64_t n, std::string_view what);

}  // namespace frazil
