// Fixed-length durations in Polars' syntax ("2d", "1h30m", "-3s", "10i") for window sizes,
// offsets and half-lives: a count of nanoseconds, or of rows/index units with "i".
#pragma once

#include <cstdint>
#include <string_view>

namespace frazil::compute {

struct FixedDuration {
  int64_t nanos = 0;   // the length (negative for a leading '-'); index units when `index`
  bool index = false;  // written with "i": a count of index units, not time
  // The length in `unit`s of a temporal column (ns, us, ms: 1, 1000, 1000000 per unit).
  int64_t in_units(int64_t nanos_per_unit) const { return index ? nanos : nanos / nanos_per_unit; }
};

// ns, us, ms, s, m, h, d, w and i (not mixed with the others); a calendar unit (mo, q, y)
// or malformed text raises InvalidOperationError naming `what`.
FixedDuration parse_fixed_duration(std::string_view text, std::string_view what);

}  // namespace frazil::compute
