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

// join_asof: how each left row finds its right row by the sorted key (Polars' AsOfOptions).
enum class AsofStrategy : uint8_t { Backward, Forward, Nearest };
const char* asof_strategy_name(AsofStrategy s);  // "backward", "forward", "nearest"

struct AsofJoinOptions {
  AsofStrategy strategy = AsofStrategy::Backward;
  std::vector<std::string> left_by, right_by;  // equal `by` values are required (none: one group)
  // The largest distance a match may lie at: a number in the key's physical unit, or a
  // duration string ("1h30m", for temporal keys; resolved to a number at conversion).
  std::optional<double> tolerance;
  std::optional<std::string> tolerance_str;
  bool allow_exact_matches = true;
  bool check_sortedness = true;
  std::string suffix = "_right";
  bool coalesce = true;  // an equally named right key column is dropped
  bool operator==(const AsofJoinOptions&) const = default;
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
// Vertical concat of every input; `rechunk` (concat(rechunk=True)) makes each output column
// one contiguous chunk.
struct DslUnion {
  bool rechunk = false;
};
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

// inputs[0] is the left side, inputs[1] the right; both sorted by their key.
struct DslAsofJoin {
  Expr left_on;
  Expr right_on;
  AsofJoinOptions options;
};
// Two inputs sorted ascending by `key`, merged into one sorted output.
struct DslMergeSorted {
  std::string key;
  bool maintain_order = false;  // shown by explain (the merge is stable either way)
};

// join_where (inner): the pairs of rows of inputs[0] and inputs[1] for which every predicate
// holds; predicates name right columns with `suffix` where a name is on both sides.
struct DslJoinWhere {
  std::vector<Expr> predicates;
  std::string suffix = "_right";
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
  AsofJoin,
  MergeSorted,
  JoinWhere,
};

using DslPayload = std::variant<DslDataFrameScan, DslScan, DslFilter, DslSelect, DslWithColumns, DslGroupBy, DslJoin,
                                DslSort, DslSlice, DslUnion, DslDistinct, DslRename, DslDrop, DslWithRowIndex,
                                DslExplode, DslAsofJoin, DslMergeSorted, DslJoinWhere>;

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
