// Row estimates and a work model for subplans: the optimizer uses them to choose between
// sharing a subplan (materialise it once, read it per consumer) and recomputing it per
// consumer, and lowering (exec/lower) to choose join build sides and key filters.
//
// rows: the estimated output height. work: rows touched by every operator of the
// subplan (a scan reads its rows and passes over them again for a pushed-down predicate, a
// filter/projection/aggregation passes over its input,
// a join over both inputs and its output). Sources: an in-memory frame's height, a
// Parquet footer's row count, a CSV file's size over an estimated row width. Filters use
// fixed selectivities (== 0.1, range 1/3, ...), group_by keeps a tenth of its rows, an
// inner join the larger side's rows times the fraction the smaller side's filters kept.
#pragma once

#include <optional>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

struct PlanCost {
  double rows = 0;
  double work = 0;
  // The fraction of its source's rows that filters let through (1 for a group-by's or a
  // union's output, which are sources of their own). A key/foreign-key join keeps the rows
  // of its larger side that match the smaller side's surviving keys: rows x kept.
  double kept = 1;
};

// nullopt when some source of the subplan cannot be sized.
std::optional<PlanCost> estimate_cost(Node node, const IRArena& lp_arena, const ExprArena& expr_arena);

// Fraction of rows a filter predicate keeps, in [0, 1].
double predicate_selectivity(Node predicate, const ExprArena& arena);

// Rows of a DataFrameScan or Scan before its predicate and row limit.
std::optional<double> source_rows(const IR& scan);

}  // namespace frazil::plan
