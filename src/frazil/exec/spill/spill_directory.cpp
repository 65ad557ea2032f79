#include "frazil/exec/spill/spill_directory.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "frazil/core/error.hpp"
#include "frazil/core/os_error.hpp"

namespace frazil::exec::spill {

namespace {

std::mutex g_mutex;
std::string g_dir;
std::atomic<uint64_t> g_counter{0};

std::string base_directory() {
  if (const char* d = std::getenv("FRAZIL_TEMP_DIRECTORY"); d && *d) return d;
  if (const char* d = std::getenv("TMPDIR"); d && *d) return d;
  return "/tmp";
}

void remove_at_exit() { remove_spill_directory(); }

}  // namespace

const std::string& spill_directory() {
  std::lock_guard lock(g_mutex);
  if (!g_dir.empty()) return g_dir;
  const std::string base = base_directory();
  std::error_code ec;
  std::filesystem::create_directories(base, ec);  // FRAZIL_TEMP_DIRECTORY may name a new directory
  std::string pattern = (std::filesystem::path(base) / "frazil-spill-XXXXXX").string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr)
    throw_os_error(err_msg("cannot make a spill directory under '", base, "' (FRAZIL_TEMP_DIRECTORY)"));
  static const bool registered = [] { return std::atexit(remove_at_exit) == 0; }();
  (void)registered;
  g_dir = buf.data();
  return g_dir;
}

std::string new_spill_path(const std::string& prefix) {
  const std::string& dir = spill_directory();
  return dir + "/" + prefix + "-" + std::to_string(g_counter.fetch_add(1)) + ".arrow";
}

void remove_spill_directory() noexcept {
  std::lock_guard lock(g_mutex);
  if (g_dir.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(g_dir, ec);
  g_dir.clear();
}

}  // namespace frazil::exec::spill
