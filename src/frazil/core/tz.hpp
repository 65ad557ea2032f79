// Time zones of the IANA database, read from the system's tzdata (Debian's `tzdata`)
// through cctz. A zoned Datetime stores UTC instants; its zone is used to read and write
// local clock time: field extraction, printing, strftime, truncation in local time,
// replace_time_zone. Polars' names are kept: an unknown zone is a ComputeError naming it,
// fixed offsets "+01:00" are spelled "Etc/GMT-1", "+00:00" and "utc" are "UTC".
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "frazil/core/dtype.hpp"

namespace frazil::tz {

// What to do with a local time that occurs twice (clocks set back) or never (set forward).
enum class Ambiguous : uint8_t { Raise, Earliest, Latest, Null };
enum class NonExistent : uint8_t { Raise, Null };

Ambiguous parse_ambiguous(std::string_view s);  // "raise", "earliest", "latest", "null"
NonExistent parse_non_existent(std::string_view s);  // "raise", "null"

// Polars' canonical spelling of a zone name ("+01:00" -> "Etc/GMT-1", "utc" -> "UTC");
// other names unchanged. Does not check that the zone exists.
std::string canonical_name(std::string_view name);

// The offset of local clock time from UTC at one instant.
struct Offset {
  int32_t total = 0;  // seconds east of UTC, DST included
  bool is_dst = false;
  const char* abbreviation = "";  // "CET", "CEST", "+0530" (owned by the zone, never freed)
};

// How a local time maps to instants (UTC seconds).
struct LocalLookup {
  enum Kind : uint8_t { Unique, Ambiguous, NonExistent } kind = Unique;
  int64_t earliest = 0;  // Unique: the instant; Ambiguous: the first of the two
  int64_t latest = 0;    // Unique: the same; Ambiguous: the second
};

class TimeZone {
 public:
  // The zone named `name` (canonical or not), loaded once per process and shared by every
  // thread. An unknown name raises ComputeError with Polars' message and a suggestion.
  static const TimeZone& get(std::string_view name);
  // Whether `name` names a zone of the database (or a fixed offset Polars accepts).
  static bool exists(std::string_view name);

  const std::string& name() const { return name_; }
  // UTC or a zone that never differs from it: conversions can be skipped.
  bool is_utc() const { return utc_; }

  Offset offset_at(int64_t utc_seconds) const;
  LocalLookup lookup_local(int64_t local_seconds) const;
  // The standard (non-DST) offset in force at an instant, and the DST part of it.
  int32_t base_offset_at(int64_t utc_seconds) const;
  // The instants (UTC seconds) of the last transition at or before `utc_seconds` and of the
  // next one after it; nullopt when there is none.
  std::optional<int64_t> transition_at_or_before(int64_t utc_seconds) const;
  std::optional<int64_t> transition_after(int64_t utc_seconds) const;

  struct Impl;
  explicit TimeZone(std::string name, std::unique_ptr<Impl> impl);
  ~TimeZone();
  TimeZone(const TimeZone&) = delete;
  TimeZone& operator=(const TimeZone&) = delete;

 private:
  std::string name_;
  bool utc_ = false;
  std::unique_ptr<Impl> impl_;
};

// Converts many values of one zone: remembers the period (between two transitions) of the
// last instant looked up, so runs of nearby values cost one comparison each. Not shared
// between threads (make one per kernel call).
class ZoneCursor {
 public:
  explicit ZoneCursor(const TimeZone& zone) : zone_(&zone) {}
  const TimeZone& zone() const { return *zone_; }

  // Offset (seconds) of local time from UTC at an instant.
  int32_t offset(int64_t utc_seconds) {
    if (filled_ && utc_seconds >= lo_ && utc_seconds < hi_) return off_;
    return refill(utc_seconds);
  }
  // Local seconds -> UTC seconds; nullopt for a null result (ambiguous/non_existent
  // "null"); "raise" throws ComputeError naming the local time (with `fraction` units of
  // `units_per_second` after the second, for the message) and the zone.
  std::optional<int64_t> to_utc(int64_t local_seconds, Ambiguous ambiguous, NonExistent non_existent,
                                int64_t fraction = 0, int64_t units_per_second = 1);

  // Local clock value (in units of `ups` per second) of a UTC value, and back.
  int64_t local_value(int64_t utc_value, int64_t ups);
  std::optional<int64_t> utc_value(int64_t local_value, int64_t ups, Ambiguous ambiguous, NonExistent non_existent);

 private:
  int32_t refill(int64_t utc_seconds);

  const TimeZone* zone_;
  bool filled_ = false;
  int64_t lo_ = 0, hi_ = 0;  // [lo_, hi_): instants with offset off_ (once filled_)
  int32_t off_ = 0;
};

// "2024-07-01 12:00:00.000123 CEST": the local time and the zone's abbreviation, as Polars
// displays zoned values (an unknown zone shows the UTC time and the zone's name).
std::string format_display(int64_t value, TimeUnit unit, const std::string& zone);
// "+09:19" (or "+0919"): an offset rounded to the minute, as chrono's %:z and %z print it.
std::string format_offset(int32_t seconds, bool colon = true);

}  // namespace frazil::tz
