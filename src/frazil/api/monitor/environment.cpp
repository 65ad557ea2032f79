#include "frazil/api/monitor/environment.hpp"

#include <cstdlib>
#include <string>

#include "frazil/core/env.hpp"

namespace frazil::monitor {

namespace {
// Polars' own variable, read as Polars reads it; frazil's are strict (core/env.hpp).
bool polars_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}
}  // namespace

bool verbose_enabled() {
  static const bool on = env_flag("FRAZIL_VERBOSE") || polars_flag("POLARS_VERBOSE");
  return on;
}

bool trace_enabled() {
  static const bool on = env_flag("FRAZIL_TRACE");
  return on;
}

std::optional<bool> progress_setting() {
  static const std::optional<bool> setting = [] {
    if (!std::getenv("FRAZIL_PROGRESS") || !*std::getenv("FRAZIL_PROGRESS")) return std::optional<bool>();
    return std::optional<bool>(env_flag("FRAZIL_PROGRESS"));
  }();
  return setting;
}

int progress_delay_ms() {
  static const int ms = static_cast<int>(env_int("FRAZIL_PROGRESS_DELAY_MS", 0, 86'400'000).value_or(2000));
  return ms;
}

}  // namespace frazil::monitor
