// The files a scan's source names: a file, a directory (every file below it), a glob
// (`*`, `?`, `[...]` within a path segment, `**` across segments), or a list of those.
// Files whose names start with one of the hidden prefixes (Polars' hidden_file_prefix, none
// by default) are skipped below a directory or in a glob's matches.
#pragma once

#include <string>
#include <vector>

namespace frazil::io {

bool has_glob(const std::string& path);
bool glob_match(const char* pattern, const char* path);
// The directory part of a glob before its first wildcard segment ("." when none).
std::string glob_base(const std::string& pattern);
// Every regular file below `dir`, sorted, hidden file names skipped.
std::vector<std::string> list_files(const std::string& dir, const std::vector<std::string>& hidden_prefixes = {});

struct ExpandedPath {
  std::vector<std::string> files;  // sorted within a directory or glob
  std::string hive_base;           // partitions are read from the path below this ("" for a file)
  bool is_directory = false;
};

// Throws FileNotFoundError when a path without wildcards does not exist; an empty
// directory or a glob that matches nothing gives no files. `glob` false takes wildcards
// literally.
ExpandedPath expand_path(const std::string& path, bool glob = true,
                         const std::vector<std::string>& hidden_prefixes = {});

}  // namespace frazil::io
