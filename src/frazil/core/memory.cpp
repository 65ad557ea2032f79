#include "frazil/core/memory.hpp"

#include <atomic>
#include <cctype>
#include <charconv>
#include <cstdlib>

#include "frazil/core/env.hpp"
#include "frazil/core/error.hpp"

namespace frazil {

namespace {

std::atomic<int64_t> g_in_use{0};

std::atomic<int64_t>& limit_ref() {
  // A malformed value raises here (at the first allocation) rather than meaning no limit.
  static std::atomic<int64_t> limit{env_bytes("FRAZIL_MEMORY_LIMIT").value_or(0)};
  return limit;
}

std::string mib(int64_t bytes) { return err_msg(bytes / (1024 * 1024), " MiB"); }

}  // namespace

int64_t parse_memory_size(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0) throw InvalidOperationError(err_msg("memory size '", text, "' is not a number of bytes like 512M or 8G"));
  std::string unit = text.substr(i);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (!unit.empty() && unit.back() == 'B') unit.pop_back();
  if (!unit.empty() && unit.back() == 'I') unit.pop_back();  // "GiB"
  int64_t scale = 1;
  if (unit == "K") scale = int64_t{1} << 10;
  else if (unit == "M") scale = int64_t{1} << 20;
  else if (unit == "G") scale = int64_t{1} << 30;
  else if (unit == "T") scale = int64_t{1} << 40;
  else if (!unit.empty())
    throw InvalidOperationError(err_msg("memory size '", text, "' has an unknown unit (use K, M, G or T)"));
  // Neither the digits nor their product with the unit may pass Int64 (16777216T wrapped to 0).
  int64_t n = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + i, n);
  if (ec != std::errc() || n > INT64_MAX / scale)
    throw InvalidOperationError(err_msg("memory size '", text, "' is more than ", INT64_MAX, " bytes"));
  return n * scale;
}

void set_memory_limit(int64_t bytes) {
  if (bytes < 0) throw InvalidOperationError("memory limit must not be negative");
  limit_ref() = bytes;
}

int64_t memory_limit() { return limit_ref().load(std::memory_order_relaxed); }

int64_t memory_in_use() { return g_in_use.load(std::memory_order_relaxed); }

namespace detail {

void reserve_memory(int64_t bytes) {
  const int64_t before = g_in_use.fetch_add(bytes, std::memory_order_relaxed);
  const int64_t limit = memory_limit();
  if (limit > 0 && before + bytes > limit) {
    g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
    throw OutOfMemoryError(err_msg("the query needs more memory than the limit of ", mib(limit),
                                   " (FRAZIL_MEMORY_LIMIT / frazil.Config.set_memory_limit): ", mib(before),
                                   " in use, ", mib(bytes), " more requested"));
  }
}

bool try_reserve_memory(int64_t bytes) {
  const int64_t before = g_in_use.fetch_add(bytes, std::memory_order_relaxed);
  const int64_t limit = memory_limit();
  if (limit > 0 && before + bytes > limit) {
    g_in_use.fetch_sub(bytes, std::memory_order_relaxed);
    return false;
  }
  return true;
}

void release_memory(int64_t bytes) { g_in_use.fetch_sub(bytes, std::memory_order_relaxed); }

}  // namespace detail

}  // namespace frazil
