// Helpers shared by the CSV tests: values as text, temporary files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"

namespace frazil::io::csv_test {

// Column values rendered by Scalar::to_string ("null" for nulls).
inline std::vector<std::string> vals(const DataFrame& df, const std::string& name) {
  std::vector<std::string> out;
  const Column& c = df.column(name);
  for (int64_t i = 0; i < c.length(); ++i) out.push_back(c.get(i).to_string());
  return out;
}

inline std::vector<std::string> vs(std::initializer_list<const char*> items) {
  return std::vector<std::string>(items.begin(), items.end());
}

// A fresh directory under the system temp dir, removed at destruction.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("frazil_csv_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name, const std::string& contents) const {
    std::string p = (path_ / name).string();
    std::ofstream(p, std::ios::binary) << contents;
    return p;
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// The message of the exception `fn` throws as E (empty when it does not throw).
template <typename E, typename F>
std::string error_of(F&& fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace frazil::io::csv_test
