#include "frazil/exec/scan.hpp"

#include <algorithm>

#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/exec/stats_pruning.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"

namespace frazil::exec {

const io::FileScan& file_scan_of(const plan::ScanNode& scan) {
  FRAZIL_CHECK(scan.source.options != nullptr);
  return *static_cast<const io::FileScan*>(scan.source.options.get());
}

bool scan_filters_in_reader(const plan::ScanNode& scan, const plan::ExprArena& arena) {
  if (!scan.predicate || scan.source.format != dsl::ScanFormat::Csv) return false;
  const io::FileScan& fs = file_scan_of(scan);
  if (fs.args().row_index_name) return false;
  std::vector<std::string> needed;
  plan::collect_columns(scan.predicate->node(), arena, needed);
  for (const auto& n : needed)
    if (fs.is_generated(n)) return false;
  return true;
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

DataFrame read_scan(const plan::ScanNode& scan, const plan::ExprArena& arena) {
  const io::FileScan& fs = file_scan_of(scan);
  bool extra = false;
  const std::optional<std::vector<std::string>> columns = scan_columns(scan, arena, &extra);
  const bool in_reader = scan_filters_in_reader(scan, arena);
  io::ReadHints hints;
  std::function<bool(const io::parquet::RowGroupStats&)> keep;
  if (scan.predicate) {
    const plan::Node pred = scan.predicate->node();
    keep = [pred, &arena](const io::parquet::RowGroupStats& stats) { return !can_skip_row_group(pred, arena, stats); };
    hints.row_group_predicate = keep;
    if (in_reader) {
      physical::PhysicalExprRef p = physical::create_physical_expr(*scan.predicate, arena, *scan.source_schema);
      hints.row_filter = [p](const DataFrame& chunk) {
        physical::ExecState state;
        return physical::broadcast_to(p->evaluate(chunk, state), chunk.height()).as_array();
      };
    }
  }
  // A pushed-down slice counts rows after the predicate: it limits the read only when there
  // is no predicate.
  std::optional<int64_t> n_rows;
  if (scan.n_rows && !scan.predicate) n_rows = *scan.n_rows;
  const io::CastFn cast = [](const ArrayRef& a, const DataType& to) { return compute::cast(*a, to, true); };
  DataFrame df = fs.read(columns ? &*columns : nullptr, n_rows, hints, keep, cast);
  if (in_reader) {
    if (extra) df = df.select(*scan.projection);
    if (scan.n_rows) df = df.head(*scan.n_rows);
  }
  return df;
}

}  // namespace frazil::exec
