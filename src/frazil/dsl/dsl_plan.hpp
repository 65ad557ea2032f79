// DslPlan: the logical plan as users build it through LazyFrame methods. An immutable
// tree with shared children; converted once into the IR arena (plan/conversion).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/compute/explode.hpp"
#include "frazil/compute/join.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/dsl/expr.hpp"

namespace frazil::dsl {

enum class ScanFormat : uint8_t { Csv, Parquet, Ipc, Ndjson };
const char* scan_format_name(ScanFormat f);  // "csv", "parquet", "ipc", "ndjson"

// A file scan. `options` holds the reader's option struct (io::CsvReadOptions, ...),
// type-erased so that the plan layers need not know every reader.
struct ScanSource {
  ScanFormat format = ScanFormat::Parquet;
  std::vector<std::string> paths;       // globs expanded
  std::shared_ptr<const void> options;  // reader-specific
  // The options by value, so that two scans of one file with equal options are the same
  // source (duplicate scans, common subplans); empty when they cannot be compared (they
  // hold a callable): then only the same options object is the same source.
  std::string options_key;
  SchemaRef file_schema;                // resolved when the scan is created
};

enum class DslKind : uint8_t {
  DataFrameScan,  // df
  Scan,           // scan
  Filter,         // inputs[0], exprs[0] = predicate
  Select,         // inputs[0], exprs
  WithColumns,    // inputs[0], exprs
  GroupBy,        // inputs[0], keys, exprs = aggregations, maintain_order
  Join,           // inputs[0] left, inputs[1] right, keys = left_on, keys2 = right_on, join
  Sort,           // inputs[0], keys = by, sort
  Slice,          // inputs[0], offset, length
  Union,          // inputs (vertical concat)
  Distinct,       // inputs[0], names = subset (empty: all), keep, maintain_order
  Rename,         // inputs[0], names = existing, names2 = new
  Drop,           // inputs[0], names
  WithRowIndex,   // inputs[0], names[0] = index name, offset
  Explode,        // inputs[0], names = columns, explode
};

struct JoinOptions {
  compute::JoinType how = compute::JoinType::Inner;
  std::string suffix = "_right";
  bool coalesce = true;  // equi-join keys appear once; Polars defaults to false for full joins
  bool operator==(const JoinOptions&) const = default;
};

struct SortOptions {
  std::vector<bool> descending{false};
  std::vector<bool> nulls_last{false};
  bool maintain_order = false;
  bool operator==(const SortOptions&) const = default;
};

struct DslPlan;
using DslPlanRef = std::shared_ptr<const DslPlan>;

struct DslPlan {
  DslKind kind = DslKind::DataFrameScan;
  std::vector<DslPlanRef> inputs;
  std::shared_ptr<const DataFrame> df;
  ScanSource scan;
  std::vector<Expr> exprs;
  std::vector<Expr> keys;
  std::vector<Expr> keys2;
  std::vector<std::string> names;
  std::vector<std::string> names2;
  JoinOptions join;
  SortOptions sort;
  compute::ExplodeOptions explode;
  bool maintain_order = false;
  std::string keep = "any";
  int64_t offset = 0;
  std::optional<int64_t> length;
};

}  // namespace frazil::dsl
