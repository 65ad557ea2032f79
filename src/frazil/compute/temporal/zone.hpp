// Time-zone kernels on Datetime arrays (Polars' dt.replace_time_zone, convert_time_zone,
// base_utc_offset, dst_offset) and the local-clock view the other temporal kernels use:
// a zoned value is a UTC instant; its fields, truncation and printing are of its local time.
#pragma once

#include <optional>
#include <string>

#include "frazil/core/array.hpp"
#include "frazil/core/tz.hpp"

namespace frazil::compute {

// Whether a Datetime dtype's values need converting to read local time (a zone other
// than UTC).
bool has_local_offset(const DataType& dtype);

// Datetime(unit, tz) -> Datetime(unit) holding the local clock time of each instant; a
// naive or UTC array is returned as it is (relabelled naive).
ArrayRef to_local_clock(const Array& values);
// Datetime(unit) local clock values -> Datetime(unit, tz) instants. Ambiguous and
// non-existent local times follow `ambiguous` / `non_existent` (raise: ComputeError naming
// the value and the zone).
ArrayRef from_local_clock(const Array& local, const std::string& time_zone, tz::Ambiguous ambiguous,
                          tz::NonExistent non_existent);
// As above with one `ambiguous` choice per row (a String array of "raise", "earliest",
// "latest", "null", or one value for all; a null choice gives a null).
ArrayRef from_local_clock(const Array& local, const std::string& time_zone, const Array& ambiguous,
                          tz::NonExistent non_existent);

// dt.replace_time_zone: the same local clock time in another zone (nullopt: naive).
ArrayRef replace_time_zone(const Array& values, const std::optional<std::string>& time_zone,
                           const Array& ambiguous, tz::NonExistent non_existent);
// dt.convert_time_zone: the same instants shown in another zone (a relabel).
ArrayRef convert_time_zone(const Array& values, const std::string& time_zone);
// dt.base_utc_offset / dt.dst_offset: Duration("ms") of the zone's standard offset and of
// its daylight-saving part at each instant.
ArrayRef base_utc_offset(const Array& values);
ArrayRef dst_offset(const Array& values);

}  // namespace frazil::compute
