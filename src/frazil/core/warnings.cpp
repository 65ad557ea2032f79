#include "frazil/core/warnings.hpp"

#include <mutex>
#include <utility>

namespace frazil {

namespace {
std::mutex& warnings_mutex() {
  static std::mutex m;
  return m;
}
std::vector<std::string>& pending() {
  static std::vector<std::string> w;
  return w;
}
}  // namespace

void add_warning(std::string message) {
  std::lock_guard<std::mutex> lock(warnings_mutex());
  pending().push_back(std::move(message));
}

std::vector<std::string> take_warnings() {
  std::lock_guard<std::mutex> lock(warnings_mutex());
  return std::exchange(pending(), {});
}

}  // namespace frazil
