#include "frazil/compute/rolling/duration.hpp"

#include <cctype>

#include "frazil/core/error.hpp"

namespace frazil::compute {

FixedDuration parse_fixed_duration(std::string_view text, std::string_view what) {
  FixedDuration d;
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size())
    throw InvalidOperationError(err_msg("`", what, "`: expected a duration string such as \"2d\", got \"", text, "\""));
  bool any_time = false;
  while (i < text.size()) {
    const size_t start = i;
    int64_t value = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) value = value * 10 + (text[i++] - '0');
    if (i == start)
      throw InvalidOperationError(err_msg("`", what, "`: expected a number in duration string \"", text, "\""));
    const size_t unit_start = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    const std::string_view unit = text.substr(unit_start, i - unit_start);
    int64_t per = 0;
    if (unit == "ns") per = 1;
    else if (unit == "us" || unit == "µs") per = 1000;
    else if (unit == "ms") per = 1000000;
    else if (unit == "s") per = 1000000000;
    else if (unit == "m") per = 60LL * 1000000000;
    else if (unit == "h") per = 3600LL * 1000000000;
    else if (unit == "d") per = 86400LL * 1000000000;
    else if (unit == "w") per = 7 * 86400LL * 1000000000;
    if (unit == "i") {
      d.index = true;
      d.nanos += value;
    } else if (per) {
      any_time = true;
      d.nanos += value * per;
    } else if (unit == "mo" || unit == "q" || unit == "y") {
      throw InvalidOperationError(err_msg("`", what, "`: calendar durations (\"", text,
                                          "\") are not supported here, only fixed ones (ns..w) and \"i\""));
    } else {
      throw InvalidOperationError(err_msg("`", what, "`: unit '", unit, "' not supported in duration string \"", text,
                                          "\""));
    }
  }
  if (d.index && any_time)
    throw InvalidOperationError(err_msg("`", what, "`: an index duration (\"i\") cannot mix with time units"));
  if (negative) d.nanos = -d.nanos;
  return d;
}

}  // namespace frazil::compute
