// CSV scans: the pushed-down predicate runs on every parsed chunk inside the reader.
#include "frazil/exec/scan.hpp"
#include "frazil/io/csv/csv_reader.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"

namespace frazil::exec {

DataFrame read_csv_scan(const plan::ScanNode& scan, const plan::ExprArena& arena) {
  io::CsvReadOptions opts = *static_cast<const io::CsvReadOptions*>(scan.source.options.get());
  bool extra = false;
  auto columns = scan_columns(scan, arena, &extra);
  if (columns) {
    // The row index is produced by the reader, not read from the file.
    if (opts.row_index_name)
      columns->erase(std::remove(columns->begin(), columns->end(), *opts.row_index_name), columns->end());
    opts.columns = *columns;
    opts.projection.reset();
  }
  if (scan.predicate) {
    physical::PhysicalExprRef pred = physical::create_physical_expr(*scan.predicate, arena, *scan.source_schema);
    opts.predicate = [pred](const DataFrame& chunk) {
      physical::ExecState state;
      return physical::broadcast_to(pred->evaluate(chunk, state), chunk.height()).as_array();
    };
  }
  // A pushed-down slice counts rows after the predicate; the reader's own n_rows (the
  // user's scan option) counts rows before it.
  if (scan.n_rows && !scan.predicate) opts.n_rows = opts.n_rows ? std::min(*opts.n_rows, *scan.n_rows) : *scan.n_rows;
  DataFrame df = scan.source.paths.size() == 1 ? io::read_csv(scan.source.paths[0], opts) : io::read_csv(scan.source.paths, opts);
  if (extra || (scan.projection && df.width() != scan.projection->size())) df = df.select(*scan.projection);
  if (scan.n_rows && scan.predicate) df = df.head(*scan.n_rows);
  return df;
}

}  // namespace frazil::exec
