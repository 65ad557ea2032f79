// Window bounds of a temporal index in calendar arithmetic: Polars adds a window's offset and
// period to each index value as calendar durations ("1mo" is a month, clamped to its end; in
// a time zone "1d" is the same clock time the next day, not 24 hours across DST), so the
// bounds are not a fixed number of ticks from the value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "frazil/compute/rolling/rolling.hpp"
#include "frazil/core/dtype.hpp"

namespace frazil::compute {

// For index ticks `t` (index_ticks of a Date or Datetime column): lo = t + offset,
// hi = lo + period, where an empty offset is -period (Polars' default). nullopt when both
// durations are fixed lengths for this index (then windows_by's fixed ticks are exact).
std::optional<WindowBounds> calendar_bounds(const int64_t* t, int64_t n, const DataType& index,
                                            const std::string& period, const std::string& offset);

}  // namespace frazil::compute
