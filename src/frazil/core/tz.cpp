#include "frazil/core/tz.hpp"

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>

#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <regex>
#include <vector>

#include "frazil/core/calendar.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/suggest.hpp"

namespace frazil::tz {

namespace {

using Seconds = cctz::time_point<cctz::seconds>;

Seconds to_tp(int64_t s) { return Seconds(cctz::seconds(s)); }
int64_t from_tp(const Seconds& tp) { return tp.time_since_epoch().count(); }

// Local seconds since the epoch <-> cctz's civil time (proleptic Gregorian either way).
cctz::civil_second to_civil(int64_t local) {
  const int64_t days = floor_div(local, 86'400), sod = local - days * 86'400;
  const CivilDate d = civil_from_days(days);
  return cctz::civil_second(d.year, d.month, d.day, sod / 3600, sod / 60 % 60, sod % 60);
}

// Every zone name of the database (zones and links of tzdata.zi), for suggestions.
std::vector<std::string> zone_names() {
  std::vector<std::string> out;
  std::ifstream in("/usr/share/zoneinfo/tzdata.zi");
  std::string line;
  while (std::getline(in, line)) {
    // "Z Europe/Amsterdam ..." declares a zone, "L Europe/Brussels Europe/Amsterdam" a link.
    if (line.size() > 2 && line[0] == 'Z' && line[1] == ' ') {
      out.push_back(line.substr(2, line.find(' ', 2) - 2));
    } else if (line.size() > 2 && line[0] == 'L' && line[1] == ' ') {
      const size_t b = line.rfind(' ');
      out.push_back(line.substr(b + 1));
    }
  }
  return out;
}

std::string local_text(int64_t local_seconds, int64_t fraction, int64_t ups) {
  // chrono's NaiveDateTime display: "2024-03-31 02:30:00" (+ ".123" when there is a fraction).
  TimeUnit unit = ups == 1'000 ? TimeUnit::Milliseconds : ups == 1'000'000 ? TimeUnit::Microseconds : TimeUnit::Nanoseconds;
  if (ups == 1) return format_datetime(local_seconds * 1000, TimeUnit::Milliseconds);
  return format_datetime(local_seconds * ups + fraction, unit);
}

}  // namespace

struct TimeZone::Impl {
  cctz::time_zone zone;
};

TimeZone::TimeZone(std::string name, std::unique_ptr<Impl> impl) : name_(std::move(name)), impl_(std::move(impl)) {
  // A zone without transitions whose offset is zero is UTC in all but name.
  cctz::time_zone::civil_transition tr;
  utc_ = !impl_->zone.next_transition(to_tp(std::numeric_limits<int64_t>::min() / 2), &tr) &&
         impl_->zone.lookup(to_tp(0)).offset == 0;
}

TimeZone::~TimeZone() = default;

Ambiguous parse_ambiguous(std::string_view s) {
  if (s == "raise") return Ambiguous::Raise;
  if (s == "earliest") return Ambiguous::Earliest;
  if (s == "latest") return Ambiguous::Latest;
  if (s == "null") return Ambiguous::Null;
  throw InvalidOperationError(
      err_msg("Invalid argument ", s, ", expected one of: \"earliest\", \"latest\", \"null\", \"raise\""));
}

NonExistent parse_non_existent(std::string_view s) {
  if (s == "raise") return NonExistent::Raise;
  if (s == "null") return NonExistent::Null;
  throw InvalidOperationError(err_msg("Invalid argument ", s, ", expected one of: \"null\", \"raise\""));
}

std::string canonical_name(std::string_view name) {
  if (name == "+00:00" || name == "00:00" || name == "utc") return "UTC";
  // Whole-hour fixed offsets between -14 and +14 hours, as Polars: "+01:00" / "-0500" / "03".
  static const std::regex fixed(R"(^([-+])?(0[0-9]|1[0-4]):?00$)");
  std::cmatch m;
  if (!TimeZone::exists(name) && std::regex_match(name.data(), name.data() + name.size(), m, fixed)) {
    const int hour = std::stoi(m[2].str());
    const std::string sign = m[1].matched && m[1].str() == "-" ? "+" : "-";  // Etc/GMT signs are reversed
    return hour == 0 ? "Etc/GMT" + sign + "0" : "Etc/GMT" + sign + std::to_string(hour);
  }
  return std::string(name);
}

bool TimeZone::exists(std::string_view name) {
  if (name.empty()) return false;
  // cctz's own spellings of fixed offsets and of the machine's zone are not Polars names.
  if (name.starts_with("Fixed/") || name == "localtime") return false;
  cctz::time_zone z;
  return cctz::load_time_zone(std::string(name), &z);
}

const TimeZone& TimeZone::get(std::string_view name) {
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<TimeZone>, std::less<>> zones;
  std::lock_guard<std::mutex> lock(mu);
  auto it = zones.find(name);
  if (it != zones.end()) return *it->second;
  auto impl = std::make_unique<Impl>();
  const std::string key(name);
  if (!exists(key) || !cctz::load_time_zone(key, &impl->zone)) {
    std::string hint;
    const std::vector<std::string> names = zone_names();
    size_t best = std::numeric_limits<size_t>::max();
    for (const auto& candidate : names) {
      const size_t d = edit_distance(name, candidate);
      if (d < best) best = d, hint = candidate;
    }
    throw ComputeError(err_msg("unable to parse time zone: '", name,
                               "'. Please check the Time Zone Database for a list of available time zones.",
                               hint.empty() ? "" : "\n\nHint: did you mean '" + hint + "' instead?"));
  }
  auto zone = std::make_unique<TimeZone>(key, std::move(impl));
  return *zones.emplace(key, std::move(zone)).first->second;
}

Offset TimeZone::offset_at(int64_t utc_seconds) const {
  const auto al = impl_->zone.lookup(to_tp(utc_seconds));
  return Offset{al.offset, al.is_dst, al.abbr};
}

LocalLookup TimeZone::lookup_local(int64_t local_seconds) const {
  const auto cl = impl_->zone.lookup(to_civil(local_seconds));
  switch (cl.kind) {
    case cctz::time_zone::civil_lookup::UNIQUE: return {LocalLookup::Unique, from_tp(cl.pre), from_tp(cl.pre)};
    case cctz::time_zone::civil_lookup::REPEATED:
      return {LocalLookup::Ambiguous, from_tp(cl.pre), from_tp(cl.post)};
    case cctz::time_zone::civil_lookup::SKIPPED: break;
  }
  return {LocalLookup::NonExistent, from_tp(cl.trans), from_tp(cl.trans)};
}

int32_t TimeZone::base_offset_at(int64_t utc_seconds) const {
  auto al = impl_->zone.lookup(to_tp(utc_seconds));
  if (!al.is_dst) return al.offset;
  // Walk back to the last period of standard time.
  Seconds tp = to_tp(utc_seconds);
  cctz::time_zone::civil_transition tr;
  for (int guard = 0; guard < 64 && impl_->zone.prev_transition(tp, &tr); ++guard) {
    tp = impl_->zone.lookup(tr.to).trans;
    const auto before = impl_->zone.lookup(tp - cctz::seconds(1));
    if (!before.is_dst) return before.offset;
    tp -= cctz::seconds(1);
  }
  return al.offset;
}

std::optional<int64_t> TimeZone::transition_at_or_before(int64_t utc_seconds) const {
  cctz::time_zone::civil_transition tr;
  if (utc_seconds == std::numeric_limits<int64_t>::max()) return std::nullopt;
  if (!impl_->zone.prev_transition(to_tp(utc_seconds + 1), &tr)) return std::nullopt;
  return from_tp(impl_->zone.lookup(tr.to).trans);
}

std::optional<int64_t> TimeZone::transition_after(int64_t utc_seconds) const {
  cctz::time_zone::civil_transition tr;
  if (!impl_->zone.next_transition(to_tp(utc_seconds), &tr)) return std::nullopt;
  return from_tp(impl_->zone.lookup(tr.to).trans);
}

// ---- ZoneCursor -------------------------------------------------------------------------

int32_t ZoneCursor::refill(int64_t s) {
  off_ = zone_->offset_at(s).total;
  // Far outside the database's range transitions repeat by rule; a bounded period is fine.
  lo_ = zone_->transition_at_or_before(s).value_or(std::numeric_limits<int64_t>::min());
  hi_ = zone_->transition_after(s).value_or(std::numeric_limits<int64_t>::max());
  if (lo_ > s) lo_ = s;  // (defensive: keep s inside its own period)
  if (hi_ <= s) hi_ = s + 1;
  filled_ = true;
  return off_;
}

std::optional<int64_t> ZoneCursor::to_utc(int64_t local, Ambiguous ambiguous, NonExistent non_existent,
                                          int64_t fraction, int64_t ups) {
  // Inside the cached period, more than two days from either end, a local time is unique
  // (no offset change in history exceeds a day).
  constexpr int64_t kMargin = 2 * 86'400;
  if (filled_) {
    const int64_t u = local - off_;
    const bool after_lo = lo_ == std::numeric_limits<int64_t>::min() || u >= lo_ + kMargin;
    const bool before_hi = hi_ == std::numeric_limits<int64_t>::max() || u < hi_ - kMargin;
    if (after_lo && before_hi) return u;
  }
  const LocalLookup l = zone_->lookup_local(local);
  switch (l.kind) {
    case LocalLookup::Unique: offset(l.earliest); return l.earliest;
    case LocalLookup::Ambiguous:
      switch (ambiguous) {
        case Ambiguous::Earliest: return l.earliest;
        case Ambiguous::Latest: return l.latest;
        case Ambiguous::Null: return std::nullopt;
        case Ambiguous::Raise:
          throw ComputeError(err_msg("datetime '", local_text(local, fraction, ups), "' is ambiguous in time zone '",
                                     zone_->name(), "'. Please use `ambiguous` to tell how it should be localized."));
      }
      break;
    case LocalLookup::NonExistent:
      if (non_existent == NonExistent::Null) return std::nullopt;
      throw ComputeError(err_msg("datetime '", local_text(local, fraction, ups), "' is non-existent in time zone '",
                                 zone_->name(),
                                 "'. You may be able to use `non_existent='null'` to return `null` in this case."));
  }
  return std::nullopt;
}

int64_t ZoneCursor::local_value(int64_t v, int64_t ups) {
  if (zone_->is_utc()) return v;
  const int64_t s = floor_div(v, ups);
  return v + static_cast<int64_t>(offset(s)) * ups;
}

std::optional<int64_t> ZoneCursor::utc_value(int64_t local, int64_t ups, Ambiguous ambiguous,
                                             NonExistent non_existent) {
  if (zone_->is_utc()) return local;
  const int64_t s = floor_div(local, ups), frac = local - s * ups;
  auto u = to_utc(s, ambiguous, non_existent, frac, ups);
  if (!u) return std::nullopt;
  return *u * ups + frac;
}

std::string format_display(int64_t value, TimeUnit unit, const std::string& zone) {
  if (!TimeZone::exists(zone)) return format_datetime(value, unit) + " " + zone;
  const TimeZone& z = TimeZone::get(zone);
  const int64_t ups = units_per_second(unit);
  const Offset off = z.offset_at(floor_div(value, ups));
  return format_datetime(value + static_cast<int64_t>(off.total) * ups, unit) + " " + off.abbreviation;
}

std::string format_offset(int32_t seconds, bool colon) {
  const char sign = seconds < 0 ? '-' : '+';
  const int32_t minutes = ((seconds < 0 ? -seconds : seconds) + 30) / 60;
  char buf[16];
  std::snprintf(buf, sizeof buf, colon ? "%c%02d:%02d" : "%c%02d%02d", sign, minutes / 60, minutes % 60);
  return buf;
}

}  // namespace frazil::tz
