// The bytes of one CSV input: a memory-mapped file or an in-memory string, and the
// expansion of glob patterns into file lists.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace frazil::io::csv_detail {

struct CsvBytes {
  std::string name;  // for error messages: the path, or "in-memory CSV"
  const char* data = nullptr;
  size_t size = 0;
  std::shared_ptr<const void> owner;  // keeps the mapping or string alive
};

// Maps a file read-only; throws IOError naming the path when it cannot be opened.
CsvBytes map_csv_file(const std::string& path);
CsvBytes csv_bytes_from_string(std::string data, std::string name = "in-memory CSV");

// A path with glob characters (*, ?, [) expands to the sorted matching files (IOError when
// none match); any other path is returned as is.
std::vector<std::string> expand_csv_paths(const std::string& path);

}  // namespace frazil::io::csv_detail
