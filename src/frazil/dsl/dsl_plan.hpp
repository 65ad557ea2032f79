// DslPlan: the logical plan as users build it through LazyFrame methods. An immutable
// tree with shared children; converted once into the IR arena (plan/conversion).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
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

// --- one payload per kind of step; a field means one thing ---
struct DslDataFrameScan {
  std::shared_ptr<const DataFrame> df;
};
struct DslScan {
  ScanSource source;
};
struct DslFilter {
  Expr predicate;
};
struct DslSelect {
  std::vector<Expr> exprs;
};
struct DslWithColumns {
  std::vector<Expr> exprs;
};
struct DslGroupBy {
  std::vector<Expr> keys;
  std::vector<Expr> aggs;
  bool maintain_order = false;
};
// inputs[0] is the left side, inputs[1] the right.
struct DslJoin {
  std::vector<Expr> left_on;
  std::vector<Expr> right_on;
  JoinOptions options;
};
struct DslSort {
  std::vector<Expr> by;
  SortOptions options;
};
struct DslSlice {
  int64_t offset = 0;
  std::optional<int64_t> length;  // to the end when unset
};
struct DslUnion {};  // vertical concat of every input
struct DslDistinct {
  std::vector<std::string> subset;  // empty: every column
  std::string keep = "any";
  bool maintain_order = false;
};
struct DslRename {
  std::vector<std::string> existing;
  std::vector<std::string> new_names;
};
struct DslDrop {
  std::vector<std::string> columns;
};
struct DslWithRowIndex {
  std::string name;
  int64_t offset = 0;
};
struct DslExplode {
  std::vector<std::string> columns;
  compute::ExplodeOptions options;
};

// The kinds, in the order of DslPayload's alternatives.
enum class DslKind : uint8_t {
  DataFrameScan,
  Scan,
  Filter,
  Select,
  WithColumns,
  GroupBy,
  Join,
  Sort,
  Slice,
  Union,
  Distinct,
  Rename,
  Drop,
  WithRowIndex,
  Explode,
};

using DslPayload = std::variant<DslDataFrameScan, DslScan, DslFilter, DslSelect, DslWithColumns, DslGroupBy, DslJoin,
                                DslSort, DslSlice, DslUnion, DslDistinct, DslRename, DslDrop, DslWithRowIndex,
                                DslExplode>;

struct DslPlan {
  DslPayload node;
  std::vector<DslPlanRef> inputs;

  // Frees the inputs this step is the last owner of one step at a time (8,000 chained
  // selects freed by recursion overflow the stack). Create steps non-const (make_shared<
  // DslPlan>): their inputs are taken out before they die.
  ~DslPlan();

  DslKind kind() const { return static_cast<DslKind>(node.index()); }
  template <typename T>
  const T& as() const {
    return std::get<T>(node);
  }
};

}  // namespace frazil::dsl
