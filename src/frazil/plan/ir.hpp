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
  MapFunction,       // inputs[0], map (Explode: names = columns, explode)
  Cache,             // inputs[0], cache_id
  Invalid,           // a taken-out node
};

enum class MapKind : uint8_t { Rename, RowIndex, Explode };

// The attributes only some kinds of node have (a scan's source, a join's or sort's
// options...), out of line so that the node itself stays small: arenas are copied and
// grown node by node. Copies of a node share it; a node that changes one of these gets its
// own copy first (read through ir.scan(), change through ir.scan_mut()).
struct IRPayload {
  std::shared_ptr<const DataFrame> df;
  dsl::ScanSource scan;
  SchemaRef source_schema;                              // full schema of the source
  std::optional<std::vector<std::string>> projection;  // columns to read
  std::optional<int64_t> n_rows;                       // stop after this many rows
  dsl::JoinOptions join;
  dsl::SortOptions sort;
  std::optional<std::pair<int64_t, int64_t>> sort_slice;  // top-k: (offset, length)
  std::string keep;
  std::vector<std::string> names2;
};

// A new field must also be compared in ir_equal_shallow (plan/canonical/ir_hash.cpp), or
// common subplan elimination could share two nodes that differ in it.
struct IR {
  IRKind kind = IRKind::Invalid;
  MapKind map = MapKind::Rename;
  bool maintain_order = false;
  compute::ExplodeOptions explode;  // MapFunction Explode
  std::vector<Node> inputs;
  SchemaRef schema;  // output schema

  std::vector<ExprIR> exprs;
  std::vector<ExprIR> keys;
  std::vector<ExprIR> keys2;
  std::optional<ExprIR> predicate;

  int64_t offset = 0;
  int64_t length = 0;
  std::vector<std::string> names;
  uint64_t cache_id = 0;

  const std::shared_ptr<const DataFrame>& df() const { return payload().df; }
  const dsl::ScanSource& scan() const { return payload().scan; }
  const SchemaRef& source_schema() const { return payload().source_schema; }
  const std::optional<std::vector<std::string>>& projection() const { return payload().projection; }
  const std::optional<int64_t>& n_rows() const { return payload().n_rows; }
  const dsl::JoinOptions& join() const { return payload().join; }
  const dsl::SortOptions& sort() const { return payload().sort; }
  const std::optional<std::pair<int64_t, int64_t>>& sort_slice() const { return payload().sort_slice; }
  const std::string& keep() const { return payload().keep; }
  const std::vector<std::string>& names2() const { return payload().names2; }
  std::shared_ptr<const DataFrame>& df_mut() { return payload_mut().df; }
  dsl::ScanSource& scan_mut() { return payload_mut().scan; }
  SchemaRef& source_schema_mut() { return payload_mut().source_schema; }
  std::optional<std::vector<std::string>>& projection_mut() { return payload_mut().projection; }
  std::optional<int64_t>& n_rows_mut() { return payload_mut().n_rows; }
  dsl::JoinOptions& join_mut() { return payload_mut().join; }
  dsl::SortOptions& sort_mut() { return payload_mut().sort; }
  std::optional<std::pair<int64_t, int64_t>>& sort_slice_mut() { return payload_mut().sort_slice; }
  std::string& keep_mut() { return payload_mut().keep; }
  std::vector<std::string>& names2_mut() { return payload_mut().names2; }

  // Every expression hanging off this node (exprs, keys, keys2, predicate).
  std::vector<const ExprIR*> all_exprs() const;
  std::vector<ExprIR*> all_exprs_mut();

 private:
  const IRPayload& payload() const;
  IRPayload& payload_mut();

  std::shared_ptr<IRPayload> payload_;  // null: every attribute at its default
};

using IRArena = Arena<IR>;

}  // namespace frazil::plan
