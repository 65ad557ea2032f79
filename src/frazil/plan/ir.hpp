// IR: the logical plan node in an Arena<IR>. Inputs are Nodes; expressions are ExprIRs
// into the expression arena; every node knows its output schema.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

enum class IRKind : uint8_t {
  DataFrameScan,     // df, projection, predicate
  Scan,              // scan, projection, predicate, n_rows
  Filter,            // inputs[0], predicate
  Select,            // inputs[0], exprs
  HStack,            // inputs[0], exprs (with_columns)
  SimpleProjection,  // inputs[0], columns = schema's names (no computation)
  GroupBy,           // inputs[0], keys, exprs = aggregations, maintain_order
  Join,              // inputs[0] left, inputs[1] right, keys = left_on, keys2 = right_on, join
  Sort,              // inputs[0], keys = by, sort, slice (top-k)
  Slice,             // inputs[0], offset, length
  Union,             // inputs
  Distinct,          // inputs[0], names = subset, keep, maintain_order
  MapFunction,       // inputs[0], map
  Cache,             // inputs[0], cache_id
  Invalid,           // a taken-out node
};

enum class MapKind : uint8_t { Rename, RowIndex, Explode };

// A new field must also be compared in ir_equal_shallow (plan/canonical/ir_hash.cpp), or
// common subplan elimination could share two nodes that differ in it.
struct IR {
  IRKind kind = IRKind::Invalid;
  std::vector<Node> inputs;
  SchemaRef schema;  // output schema

  std::vector<ExprIR> exprs;
  std::vector<ExprIR> keys;
  std::vector<ExprIR> keys2;
  std::optional<ExprIR> predicate;

  // scans
  std::shared_ptr<const DataFrame> df;
  dsl::ScanSource scan;
  SchemaRef source_schema;                              // full schema of the source
  std::optional<std::vector<std::string>> projection;  // columns to read
  std::optional<int64_t> n_rows;                       // stop after this many rows

  dsl::JoinOptions join;
  dsl::SortOptions sort;
  std::optional<std::pair<int64_t, int64_t>> sort_slice;  // top-k: (offset, length)
  int64_t offset = 0;
  int64_t length = 0;
  bool maintain_order = false;
  std::string keep;
  std::vector<std::string> names;
  std::vector<std::string> names2;
  MapKind map = MapKind::Rename;
  uint64_t cache_id = 0;

  // Every expression hanging off this node (exprs, keys, keys2, predicate).
  std::vector<const ExprIR*> all_exprs() const;
  std::vector<ExprIR*> all_exprs_mut();
};

using IRArena = Arena<IR>;

}  // namespace frazil::plan
