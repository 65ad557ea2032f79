#include "frazil/core/file_not_found.hpp"

#include <filesystem>
#include <vector>

#include "frazil/core/suggest.hpp"

namespace frazil {

void throw_file_not_found(const std::string& path) {
  namespace fs = std::filesystem;
  std::string message = "No such file or directory (os error 2): " + path;
  fs::path p(path);
  fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  if (fs::is_directory(dir, ec)) {
    // At most a few thousand entries are compared; a huge directory is not listed.
    std::vector<std::string> names;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && names.size() < 4096; it.increment(ec))
      names.push_back(it->path().filename().string());
    if (auto best = closest_name(p.filename().string(), names))
      message += "\n\nDid you mean \"" + (p.has_parent_path() ? (dir / *best).string() : *best) + "\"?";
  }
  throw FileNotFoundError(message);
}

}  // namespace frazil
