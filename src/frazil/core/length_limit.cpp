#include "frazil/core/length_limit.hpp"

#include "frazil/core/error.hpp"

namespace frazil {

void check_length(int64_t rows, std::string_view what) {
  if (rows >= 0 && rows <= kMaxLength) [[likely]]
    return;
  if (rows < 0) throw ComputeError(err_msg("negative length ", rows, " of ", what));
  throw ComputeError(err_msg("maximum length reached: ", what, " would have ", rows,
                             " rows, more than the ", kMaxLength,
                             " that UInt32 row indices address (as in Polars' default build)"));
}

uint32_t checked_count(uint64_t n, std::string_view what) {
  if (n <= kMaxCount) [[likely]]
    return static_cast<uint32_t>(n);
  throw ComputeError(err_msg("maximum length reached: ", what, " counts ", n,
                             " rows, more than a UInt32 count holds (as in Polars' default build)"));
}

}  // namespace frazil
