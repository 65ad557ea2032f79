#include "frazil/io/dataset/scan_log.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace frazil::io {

namespace {

bool flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

}  // namespace

bool scan_verbose() { return flag("POLARS_VERBOSE") || flag("FRAZIL_VERBOSE"); }

void log_files_skipped(size_t skipped, size_t total) {
  if (!scan_verbose()) return;
  std::fprintf(stderr, "initialize_scan_predicate: Predicate pushdown allows skipping %zu / %zu files\n", skipped,
               total);
}

void log_row_groups_read(size_t read, size_t total) {
  if (!scan_verbose()) return;
  std::fprintf(stderr, "[ParquetFileReader]: Predicate pushdown: reading %zu / %zu row groups\n", read, total);
}

}  // namespace frazil::io
