#include "frazil/exec/scan.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"

namespace frazil::exec {

DataFrame read_scan(const plan::ScanNode& scan, const plan::ExprArena& arena) {
  switch (scan.source.format) {
    case dsl::ScanFormat::Csv: return read_csv_scan(scan, arena);
    case dsl::ScanFormat::Parquet: return read_parquet_scan(scan, arena);
    case dsl::ScanFormat::Ipc: break;
  }
  throw ComputeError(err_msg(dsl::scan_format_name(scan.source.format), " scans are not supported yet"));
}

std::optional<std::vector<std::string>> scan_columns(const plan::ScanNode& scan, const plan::ExprArena& arena,
                                                     bool* has_extra) {
  *has_extra = false;
  if (!scan.projection) return std::nullopt;
  std::vector<std::string> cols = *scan.projection;
  if (scan.predicate) {
    std::vector<std::string> needed;
    plan::collect_columns(scan.predicate->node(), arena, needed);
    for (const auto& n : needed)
      if (std::find(cols.begin(), cols.end(), n) == cols.end()) {
        cols.push_back(n);
        *has_extra = true;
      }
  }
  return cols;
}

}  // namespace frazil::exec
