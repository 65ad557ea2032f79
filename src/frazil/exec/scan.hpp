// File scans: read a Scan node's files with its projection, pushed-down predicate and row
// limit applied inside the reader (filtered rows never accumulate).
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::exec {

DataFrame read_scan(const plan::ScanNode& scan, const plan::ExprArena& arena);

// Per format (scan_csv.cpp, scan_parquet.cpp).
DataFrame read_csv_scan(const plan::ScanNode& scan, const plan::ExprArena& arena);
DataFrame read_parquet_scan(const plan::ScanNode& scan, const plan::ExprArena& arena);

// The columns a scan must read: its projection plus what its predicate needs (nullopt:
// every column), and whether the predicate added columns to drop afterwards.
std::optional<std::vector<std::string>> scan_columns(const plan::ScanNode& scan, const plan::ExprArena& arena,
                                                     bool* has_extra);

}  // namespace frazil::exec
