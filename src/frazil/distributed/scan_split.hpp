// Scan splits: a Parquet file scan cut into several scans of the same files, each restricted
// to a contiguous run of their row groups (in file order), so that one big file (or many)
// is read by several tasks. The runs are balanced by row count; row groups the scan's
// predicate rules out by their statistics (or files by their hive values) are left out.
// The task outputs, concatenated in task order, are the scan's rows in order.
//
// A scan is not split (one task reads it whole) when it is not Parquet, reads in-memory
// bytes, stops after n rows, makes a row index (it counts the rows of earlier groups), or
// has fewer than two row groups left to read.
#pragma once

#include <string>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::distributed {

struct ScanSplit {
  dsl::ScanSource source;  // the scan's source restricted to this split's row groups
  size_t row_groups = 0;
  int64_t rows = 0;  // before the predicate
};

// At most `max_splits` splits of `scan`, each reading at least one row group; fewer than two
// when the scan is not split.
std::vector<ScanSplit> split_scan(const plan::ScanNode& scan, const plan::ExprArena& ea, size_t max_splits);

// "parquet scan split into 3 tasks: 18 row groups (1.9M rows), ..." for the stage graph.
std::string describe_splits(const std::vector<ScanSplit>& splits);

}  // namespace frazil::distributed
