// Parquet scans: projection reads only the needed column chunks, the pushed-down
// predicate prunes row groups by statistics (the rows are filtered in the pipeline), and a
// row limit stops reading early.
#include "frazil/exec/scan.hpp"
#include "frazil/exec/stats_pruning.hpp"
#include "frazil/io/parquet/parquet.hpp"

namespace frazil::exec {

DataFrame read_parquet_scan(const plan::ScanNode& scan, const plan::ExprArena& arena) {
  io::parquet::ParquetReadOptions opts;
  if (scan.source.options) opts = *static_cast<const io::parquet::ParquetReadOptions*>(scan.source.options.get());
  bool extra = false;
  if (auto columns = scan_columns(scan, arena, &extra)) opts.columns = *columns;
  if (scan.predicate) {
    plan::Node pred = scan.predicate->node();
    opts.row_group_predicate = [pred, &arena](const io::parquet::RowGroupStats& stats) {
      return !can_skip_row_group(pred, arena, stats);
    };
  }
  // With a predicate the limit applies after filtering, which the pipeline does.
  if (scan.n_rows && !scan.predicate) opts.n_rows = *scan.n_rows;
  std::vector<DataFrame> parts;
  for (const auto& path : scan.source.paths) parts.push_back(io::parquet::read_parquet(path, opts));
  return concat_frames(parts);
}

}  // namespace frazil::exec
