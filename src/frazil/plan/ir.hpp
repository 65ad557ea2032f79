// IR: the logical plan node in an Arena<IR>. Inputs are Nodes; expressions are ExprIRs
// into the expression arena; every node knows its output schema. Each kind carries its own
// payload struct, so a field means one thing (JoinNode::left_on, SortNode::by), and
// hashing and equality for common subplan elimination follow from the payload's fields
// (plan/canonical/ir_hash.cpp): a field added to a payload is compared without being listed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/plan/expr_ir.hpp"

namespace frazil::plan {

// --- one payload per kind. `fields()` lists every field, for hashing, equality and the
// expression visitors; a payload without a field lists none. ---

// A frame in memory, with the columns to read and a predicate pushed into the scan.
struct DataFrameScanNode {
  std::shared_ptr<const DataFrame> df;
  SchemaRef source_schema;                             // the frame's full schema
  std::optional<std::vector<std::string>> projection;  // columns to read (all when unset)
  std::optional<ExprIR> predicate;                     // rows to keep, over source_schema
  auto fields() const { return std::tie(df, projection, predicate); }
};

// Files, read by format; the same pushed-down projection and predicate, and a row limit.
struct ScanNode {
  dsl::ScanSource source;
  SchemaRef source_schema;
  std::optional<std::vector<std::string>> projection;
  std::optional<ExprIR> predicate;
  std::optional<int64_t> n_rows;  // stop after this many rows (counted after the predicate)
  auto fields() const { return std::tie(source, projection, predicate, n_rows); }
};

struct FilterNode {
  ExprIR predicate;
  auto fields() const { return std::tie(predicate); }
};

struct SelectNode {
  std::vector<ExprIR> exprs;
  auto fields() const { return std::tie(exprs); }
};

// with_columns: the input's columns with `exprs` added or replaced.
struct HStackNode {
  std::vector<ExprIR> exprs;
  auto fields() const { return std::tie(exprs); }
};

// A choice of the input's columns, in this order, without computation.
struct SimpleProjectionNode {
  std::vector<std::string> columns;
  auto fields() const { return std::tie(columns); }
};

struct GroupByNode {
  std::vector<ExprIR> keys;
  std::vector<ExprIR> aggs;
  bool maintain_order = false;
  auto fields() const { return std::tie(keys, aggs, maintain_order); }
};

// inputs[0] is the left side, inputs[1] the right.
struct JoinNode {
  std::vector<ExprIR> left_on;
  std::vector<ExprIR> right_on;
  dsl::JoinOptions options;
  auto fields() const { return std::tie(left_on, right_on, options); }
};

struct SortNode {
  std::vector<ExprIR> by;
  dsl::SortOptions options;
  std::optional<std::pair<int64_t, int64_t>> slice;  // top-k: (offset, length) of the sorted rows
  auto fields() const { return std::tie(by, options, slice); }
};

struct SliceNode {
  int64_t offset = 0;  // negative: from the end
  int64_t length = 0;
  auto fields() const { return std::tie(offset, length); }
};

// Vertical concatenation of every input. `rechunk`: the output is one contiguous chunk per
// column (concat(rechunk=True)); DelayRechunk clears it where the consumer does not need it.
struct UnionNode {
  bool rechunk = false;
  auto fields() const { return std::tie(rechunk); }
};

struct DistinctNode {
  std::vector<std::string> subset;  // empty: every column
  std::string keep = "any";         // any, first, last, none
  bool maintain_order = false;
  auto fields() const { return std::tie(subset, keep, maintain_order); }
};

struct RenameNode {
  std::vector<std::string> existing;
  std::vector<std::string> new_names;
  auto fields() const { return std::tie(existing, new_names); }
};

// A UInt32 row number prepended as column `name`, starting at `offset`.
struct RowIndexNode {
  std::string name;
  int64_t offset = 0;
  auto fields() const { return std::tie(name, offset); }
};

struct ExplodeNode {
  std::vector<std::string> columns;
  compute::ExplodeOptions options;
  auto fields() const { return std::tie(columns, options); }
};

// Computed once and read by every node that points at it (common subplan elimination).
struct CacheNode {
  uint64_t id = 0;
  auto fields() const { return std::tie(id); }
};

// join_asof: inputs[0] left, inputs[1] right, each sorted by its key (within `by` groups).
// A tolerance string is resolved into options.tolerance at conversion.
struct AsofJoinNode {
  ExprIR left_on;
  ExprIR right_on;
  dsl::AsofJoinOptions options;
  auto fields() const { return std::tie(left_on, right_on, options); }
};

// merge_sorted: inputs[0] and inputs[1], both sorted ascending by `key`, merged.
struct MergeSortedNode {
  std::string key;
  bool maintain_order = false;  // shown by explain (the merge is stable either way)
  auto fields() const { return std::tie(key, maintain_order); }
};

// join_where's non-equi joins (inputs[0] left, inputs[1] right; output: left columns, then
// the right ones, suffixed where a name is taken). An IEJoin (`nested_loop` false) keeps
// the pairs with left_on[i] ops[i] right_on[i] for one or two inequalities ("<", "<=", ">",
// ">="; right_on bound to the right input's schema); a nested-loop join the pairs for which
// `predicate` (over the output schema) holds.
struct InequalityJoinNode {
  bool nested_loop = false;
  std::vector<ExprIR> left_on;
  std::vector<ExprIR> right_on;
  std::vector<std::string> ops;
  std::optional<ExprIR> predicate;
  std::string suffix = "_right";
  auto fields() const { return std::tie(nested_loop, left_on, right_on, ops, predicate, suffix); }
};

// A node taken out of the arena.
struct InvalidNode {
  auto fields() const { return std::tuple<>(); }
};

// The kinds, in the order of IRPayload's alternatives.
enum class IRKind : uint8_t {
  DataFrameScan,
  Scan,
  Filter,
  Select,
  HStack,
  SimpleProjection,
  GroupBy,
  Join,
  Sort,
  Slice,
  Union,
  Distinct,
  Rename,
  RowIndex,
  Explode,
  Cache,
  Invalid,
  AsofJoin,
  MergeSorted,
  InequalityJoin,
};
const char* ir_kind_name(IRKind kind);  // "DataFrameScan", "Join", ...

using IRPayload = std::variant<DataFrameScanNode, ScanNode, FilterNode, SelectNode, HStackNode, SimpleProjectionNode,
                               GroupByNode, JoinNode, SortNode, SliceNode, UnionNode, DistinctNode, RenameNode,
                               RowIndexNode, ExplodeNode, CacheNode, InvalidNode, AsofJoinNode,
                               MergeSortedNode, InequalityJoinNode>;

class IR {
 public:
  IR() = default;
  // A node of the payload's kind over `inputs`, producing `schema`.
  template <typename Node_, typename = std::enable_if_t<!std::is_same_v<std::decay_t<Node_>, IR>>>
  IR(Node_ payload, std::vector<Node> in, SchemaRef out_schema)
      : inputs(std::move(in)), schema(std::move(out_schema)),
        payload_(std::make_shared<IRPayload>(std::move(payload))) {}

  std::vector<Node> inputs;
  SchemaRef schema;  // output schema

  IRKind kind() const { return payload_ ? static_cast<IRKind>(payload_->index()) : IRKind::Invalid; }
  template <typename T>
  bool is() const {
    return payload_ && std::holds_alternative<T>(*payload_);
  }
  // The payload as its kind (an internal error for another kind).
  template <typename T>
  const T& as() const {
    const T* p = get_if<T>();
    if (!p) throw_wrong_kind(kind());
    return *p;
  }
  template <typename T>
  const T* get_if() const {
    return payload_ ? std::get_if<T>(payload_.get()) : nullptr;
  }
  // Mutable access; a payload shared with a copy of this node is copied first, so copies
  // never see each other's changes.
  template <typename T>
  T& as_mut() {
    if (!is<T>()) throw_wrong_kind(kind());
    if (payload_.use_count() > 1) payload_ = std::make_shared<IRPayload>(*payload_);
    return std::get<T>(*payload_);
  }
  const IRPayload& payload() const;

  // Every expression hanging off this node, in field order.
  std::vector<const ExprIR*> all_exprs() const;

 private:
  [[noreturn]] static void throw_wrong_kind(IRKind kind);

  std::shared_ptr<IRPayload> payload_;  // null: an Invalid node
};

using IRArena = Arena<IR>;

// The predicate a node applies: a Filter's, or one pushed into a scan (nullptr: none).
const ExprIR* predicate_of(const IR& ir);
// The schema that predicate reads: a scan's source schema, or the filter's own.
const Schema& predicate_schema(const IR& ir);
// Replaces it; nullopt removes a scan's (a Filter keeps one).
void set_predicate(IR& ir, std::optional<ExprIR> predicate);

// The expressions of a Select or an HStack, which compute its output columns.
const std::vector<ExprIR>& projection_exprs(const IR& ir);
std::vector<ExprIR>& projection_exprs_mut(IR& ir);

// Builders of the nodes the optimizer adds most, with their schemas filled in.
inline IR make_filter(Node input, ExprIR predicate, SchemaRef schema) {
  return IR(FilterNode{std::move(predicate)}, {input}, std::move(schema));
}
// The columns of `schema`, in its order, read from `input`.
inline IR make_simple_projection(Node input, SchemaRef schema) {
  SimpleProjectionNode columns{schema->names()};  // before `schema` is moved from
  return IR(std::move(columns), {input}, std::move(schema));
}

// Calls fn(field) for every field of the node's payload (visitors of all expressions,
// hashing, equality and serialization build on this).
template <typename Fn>
void visit_fields(const IRPayload& payload, Fn&& fn) {
  std::visit([&](const auto& p) { std::apply([&](const auto&... f) { (fn(f), ...); }, p.fields()); }, payload);
}

}  // namespace frazil::plan
