// What scans tell POLARS_VERBOSE=1 (or FRAZIL_VERBOSE=1) on stderr, in Polars' words:
// how many files hive-partition pruning skips and how many Parquet row groups statistics
// pruning reads. The variable is read at each scan (tests and users set it at run time).
#pragma once

#include <cstddef>

namespace frazil::io {

bool scan_verbose();

// "initialize_scan_predicate: Predicate pushdown allows skipping <skipped> / <total> files"
void log_files_skipped(size_t skipped, size_t total);
// "[ParquetFileReader]: Predicate pushdown: reading <read> / <total> row groups"
void log_row_groups_read(size_t read, size_t total);

}  // namespace frazil::io
