#include "frazil/core/memory.hpp"

#include <atomic>
#include <cctype>
#include <cstdlib>

#include "frazil/core/error.hpp"

namespace frazil {

namespace {

std::atomic<int64_t> g_in_use{0};

std::atomic<int64_t>& limit_ref() {
  static std::atomic<int64_t> limit{[] {
    const char* v = std::getenv("FRAZIL_MEMORY_LIMIT");
    if (!v || !*v) return int64_t{0};
    try {
      return parse_memory_size(v);
    } catch (const Error&) {
      return int64_t{0};  // a malformed value is reported by the Python layer on import
    }
  }()};
  return limit;
}

std::string mib(int64_t bytes) { return err_msg(bytes / (1024 * 1024), " MiB"); }

}  // namespace

int64_t parse_memory_size(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == 0) throw InvalidOperationError(err_msg("memory limit '", text, "' is not a number of bytes like 512M or 8G"));
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
    throw InvalidOperationError(err_msg("memory limit '", text, "' has an unknown unit (use K, M, G or T)"));
  const int64_t n = std::stoll(text.substr(0, i));
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

void release_memory(int64_t bytes) { g_in_use.fetch_sub(bytes, std::memory_order_relaxed); }

}  // namespace detail

}  // namespace frazil
