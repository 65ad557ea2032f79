// File scans: read a Scan node's sources (an io::FileScan of any format) with its
// projection, pushed-down predicate and row limit applied as early as the format allows:
// CSV filters while parsing, Parquet prunes row groups and hive partitions prune files by
// the predicate; other rows are filtered by the pipeline.
#pragma once

#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

DataFrame read_scan(const plan::ScanNode& scan, const plan::ExprArena& arena);

// The FileScan a Scan node holds.
const io::FileScan& file_scan_of(const plan::ScanNode& scan);

// Whether read_scan applies the scan's predicate itself (CSV, when the predicate reads file
// columns only and no row index is made); otherwise the pipeline filters its output.
bool scan_filters_in_reader(const plan::ScanNode& scan, const plan::ExprArena& arena);

// The columns a scan must read: its projection plus what its predicate needs (nullopt:
// every column), and whether the predicate added columns to drop afterwards.
std::optional<std::vector<std::string>> scan_columns(const plan::ScanNode& scan, const plan::ExprArena& arena,
                                                     bool* has_extra);

}  // namespace frazil::exec
