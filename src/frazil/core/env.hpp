// Environment variables, read strictly: a value a variable does not take raises
// InvalidOperationError naming the variable and the value, instead of being ignored or
// silently meaning something else (FRAZIL_MEMORY_LIMIT=16777216T wrapped to "no limit").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace frazil {

// A whole number in [min, max] ("4", " 8 "); nullopt when unset or empty.
std::optional<int64_t> env_int(const char* name, int64_t min, int64_t max);
// A size in bytes ("512M", "8G", "1073741824"; see parse_memory_size); nullopt when unset.
std::optional<int64_t> env_bytes(const char* name);
// 1/true/yes/on or 0/false/no/off (any case); `fallback` when unset or empty.
bool env_flag(const char* name, bool fallback = false);

// One of `words` (any case); nullopt when unset or empty.
std::optional<std::string> env_choice(const char* name, std::initializer_list<const char*> words);

// The most threads FRAZIL_MAX_THREADS / POLARS_MAX_THREADS may ask for.
inline constexpr int64_t kMaxThreads = 4096;

// Parses every variable frazil reads (the Python module calls it on import), so a bad
// value is reported at once rather than by the first query that reads it.
void check_environment();

}  // namespace frazil
