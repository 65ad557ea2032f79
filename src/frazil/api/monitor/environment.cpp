#include "frazil/api/monitor/environment.hpp"

#include <cstdlib>
#include <string>

namespace frazil::monitor {

namespace {
std::optional<bool> flag(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  std::string s(v);
  return !(s == "0" || s == "false" || s == "off");
}
}  // namespace

bool verbose_enabled() {
  static const bool on = flag("FRAZIL_VERBOSE").value_or(false) || flag("POLARS_VERBOSE").value_or(false);
  return on;
}

bool trace_enabled() {
  static const bool on = flag("FRAZIL_TRACE").value_or(false);
  return on;
}

std::optional<bool> progress_setting() {
  static const std::optional<bool> setting = flag("FRAZIL_PROGRESS");
  return setting;
}

int progress_delay_ms() {
  static const int ms = [] {
    const char* v = std::getenv("FRAZIL_PROGRESS_DELAY_MS");
    if (!v || !*v) return 2000;
    char* end = nullptr;
    long n = std::strtol(v, &end, 10);
    return (end && *end == '\0' && n >= 0) ? static_cast<int>(n) : 2000;
  }();
  return ms;
}

}  // namespace frazil::monitor
