#include "frazil/core/env.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <string>

#include "frazil/core/error.hpp"
#include "frazil/core/length_limit.hpp"
#include "frazil/core/memory.hpp"

namespace frazil {

namespace {

// The value without surrounding blanks; nullopt when unset or blank.
std::optional<std::string> env_text(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return std::nullopt;
  std::string s(v);
  const auto blank = [](unsigned char c) { return std::isspace(c) != 0; };
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), blank));
  s.erase(std::find_if_not(s.rbegin(), s.rend(), blank).base(), s.end());
  if (s.empty()) return std::nullopt;
  return s;
}

}  // namespace

std::optional<int64_t> env_int(const char* name, int64_t min, int64_t max) {
  auto text = env_text(name);
  if (!text) return std::nullopt;
  int64_t v = 0;
  const char* b = text->data();
  const char* e = b + text->size();
  auto [p, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || p != e || v < min || v > max)
    throw InvalidOperationError(err_msg("environment variable ", name, "='", *text, "' is not a whole number from ",
                                        min, " to ", max));
  return v;
}

std::optional<int64_t> env_bytes(const char* name) {
  auto text = env_text(name);
  if (!text) return std::nullopt;
  try {
    return parse_memory_size(*text);
  } catch (const Error& e) {
    throw InvalidOperationError(err_msg("environment variable ", name, ": ", e.what()));
  }
}

bool env_flag(const char* name, bool fallback) {
  auto text = env_text(name);
  if (!text) return fallback;
  std::string s = *text;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s == "1" || s == "true" || s == "yes" || s == "on") return true;
  if (s == "0" || s == "false" || s == "no" || s == "off") return false;
  throw InvalidOperationError(err_msg("environment variable ", name, "='", *text,
                                      "' is not a flag (1, true, yes, on or 0, false, no, off)"));
}

std::optional<std::string> env_choice(const char* name, std::initializer_list<const char*> words) {
  auto text = env_text(name);
  if (!text) return std::nullopt;
  std::string s = *text;
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string allowed;
  for (const char* w : words) {
    if (s == w) return s;
    allowed += allowed.empty() ? w : std::string(", ") + w;
  }
  throw InvalidOperationError(err_msg("environment variable ", name, "='", *text, "' is not one of ", allowed));
}

void check_environment() {
  env_bytes("FRAZIL_MEMORY_LIMIT");
  env_bytes("FRAZIL_BLOCK_CACHE");
  env_int("FRAZIL_MAX_THREADS", 1, kMaxThreads);
  env_int("POLARS_MAX_THREADS", 1, kMaxThreads);
  env_int("FRAZIL_MORSEL_SIZE", 1, kMaxLength);
  env_flag("FRAZIL_TRACE");
  env_flag("FRAZIL_VERBOSE");
  env_flag("FRAZIL_PROGRESS");
  env_int("FRAZIL_PROGRESS_DELAY_MS", 0, 86'400'000);
  env_choice("FRAZIL_VERIFY", {"0", "false", "no", "off", "1", "true", "yes", "on", "passes"});
}

}  // namespace frazil
