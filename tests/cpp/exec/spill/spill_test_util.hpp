// A fresh FRAZIL_TEMP_DIRECTORY for one spill test, and the files left in it.
#pragma once

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "frazil/exec/spill/spill_directory.hpp"

namespace frazil::exec::spill {

// Points FRAZIL_TEMP_DIRECTORY at a fresh directory for one test.
struct TempDirEnv {
  std::string dir;
  std::optional<std::string> old;
  TempDirEnv() {
    remove_spill_directory();
    if (const char* o = std::getenv("FRAZIL_TEMP_DIRECTORY")) old = o;
    dir = (std::filesystem::temp_directory_path() / ("frazil-spill-test-" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(dir);
    ::setenv("FRAZIL_TEMP_DIRECTORY", dir.c_str(), 1);
  }
  ~TempDirEnv() {
    remove_spill_directory();
    if (old) ::setenv("FRAZIL_TEMP_DIRECTORY", old->c_str(), 1);
    else ::unsetenv("FRAZIL_TEMP_DIRECTORY");
    std::filesystem::remove_all(dir);
  }
  size_t files() const {
    size_t n = 0;
    if (!std::filesystem::exists(dir)) return 0;  // nothing spilled yet
    for (auto it = std::filesystem::recursive_directory_iterator(dir); it != std::filesystem::recursive_directory_iterator(); ++it)
      if (it->is_regular_file()) ++n;
    return n;
  }
};

}  // namespace frazil::exec::spill
