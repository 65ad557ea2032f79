// Formatting temporal values as text with chrono's strftime specifiers (Polars'
// dt.strftime / dt.to_string), and Polars' "iso" / "iso:strict" / "polars" formats.
#pragma once

#include <string>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Date, Datetime (local time and offset of a zoned one) and Time with a chrono format
// ("%Y-%m-%d %H:%M:%S%.f", "%A %e %B", "%:z", ...); "iso" and "iso:strict" are Polars'
// ISO formats for the dtype. Duration takes only "iso" (ISO 8601, "P1DT2H") and "polars"
// ("1d 2h"). A specifier the dtype cannot give (a time of a Date, an offset of a naive
// value, an unknown one) raises ComputeError naming the format.
ArrayRef strftime(const Array& values, const std::string& format);

// ISO 8601 and Polars' display of a duration value.
std::string format_duration_iso(int64_t value, TimeUnit unit);

}  // namespace frazil::compute
