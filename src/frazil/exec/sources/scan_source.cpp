#include "frazil/exec/sources/scan_source.hpp"

#include <filesystem>

#include "frazil/exec/pipeline/morsels.hpp"
#include "frazil/exec/sources/scan.hpp"

namespace frazil::exec {

std::string FileScanSource::describe() const {
  const auto& paths = scan_.source.paths;
  std::string s = std::string("file scan, read whole when the pipeline starts: ") +
                  dsl::scan_format_name(scan_.source.format) + " " +
                  (paths.empty() ? std::string("(no paths)") : std::filesystem::path(paths[0]).filename().string());
  if (paths.size() > 1) s += " and " + std::to_string(paths.size() - 1) + " more";
  if (n_rows_) {
    s += "; the first " + std::to_string(*n_rows_) + " rows that pass";
    for (const auto& op : filter_ops_) s += " [" + op->describe() + "]";
  }
  return s;
}

void FileScanSource::open() {
  DataFrame df = read_scan(scan_, ea_);
  if (n_rows_) df = run_on_morsels(df, filter_ops_, morsel_size_).head(*n_rows_);
  frame_ = frame_source(df, morsel_size_);
}

}  // namespace frazil::exec
