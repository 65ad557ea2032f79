// Verify mode: a query's optimized result checked against the same query run without
// optimizations (and, when asked, with each optimizer pass off in turn), as DuckDB's
// PRAGMA enable_verification does for SQL. A difference is a ComputeError naming it and
// printing both plans. Rows are compared in order where the plan defines the order,
// as a multiset where it does not (a group_by or unique without maintain_order), and only
// by count where a slice takes rows of an undefined order; floats within a tolerance.
#pragma once

#include <optional>
#include <string>

#include "frazil/core/frame.hpp"

namespace frazil {

enum class VerifyMode {
  Off,
  Unoptimized,  // the optimized result against the unoptimized one
  EachPass,     // ... and against each run with one optimization off
};

// FRAZIL_VERIFY: 0/false/off (Off), 1/true/on (Unoptimized), passes (EachPass).
VerifyMode verify_mode_from_env();

// How much of a result's row order a plan defines (api/result_order.hpp says it of a plan).
enum class ResultOrder {
  Defined,  // row for row
  Rows,     // the rows, in any order
  Count,    // only how many rows (a slice of rows in an undefined order)
};

// The first difference between two results of one query ("row 3 of column 'a': 1 vs 2"),
// or nullopt when they agree: same names and dtypes, same rows under `order`, floats equal
// within rel_tol (NaN equals NaN, null equals null).
std::optional<std::string> result_difference(const DataFrame& expected, const DataFrame& got, ResultOrder order,
                                             double rel_tol = 1e-9);

}  // namespace frazil
