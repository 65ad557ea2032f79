// AExpr: the expression IR node the optimizer reasons about. Children are Node indices
// into an Arena<AExpr>; no pointers, no virtuals. Hashing and equality are shallow: the
// variant and its own attributes, never the children (structure comes from canonical ids).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/compute/aggregate.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/dsl/expr.hpp"
#include "frazil/plan/arena.hpp"

namespace frazil::plan {

enum class AExprKind : uint8_t {
  Column,      // name
  Literal,     // literal
  BinaryExpr,  // inputs[0] op inputs[1]
  Cast,        // inputs[0] -> dtype (strict)
  Agg,         // agg(inputs[0])
  Ternary,     // inputs: predicate, truthy, falsy
  Function,    // function(inputs...)
  Len,         // number of rows of the context
  Sort,        // inputs[0], sort
  SortBy,      // inputs[0] by inputs[1..], sort
  Filter,      // inputs[0] where inputs[1]
  Window,      // inputs[0] over inputs[1..] (window(): partition keys, order keys; or Rolling's index)
};

// The attributes only some kinds of node have (a literal's value, a cast's dtype, a
// function's options...), kept out of line so that the node itself stays small (80 bytes:
// arenas are copied and grown node by node). Copies of a node share it; a node that
// changes one of these attributes gets its own copy first.
struct AExprPayload {
  dsl::LiteralValue literal;
  DataType dtype;
  compute::AggOptions agg_options;
  functions::FunctionCall function;
  dsl::SortFlags sort;
  dsl::WindowOptions window;
  // A Function's InputRole::Element inputs (list.eval's expression over the elements), kept
  // as DSL: they are planned against the elements' schema, never against the frame.
  std::vector<dsl::Expr> element_exprs;
};

struct AExpr {
  AExprKind kind = AExprKind::Len;
  dsl::Operator op = dsl::Operator::Plus;
  bool strict = true;
  compute::AggKind agg = compute::AggKind::Sum;
  std::vector<Node> inputs;
  std::string name;

  const dsl::LiteralValue& literal() const { return payload().literal; }
  const DataType& dtype() const { return payload().dtype; }
  const compute::AggOptions& agg_options() const { return payload().agg_options; }
  const functions::FunctionCall& function() const { return payload().function; }
  const dsl::SortFlags& sort() const { return payload().sort; }
  const dsl::WindowOptions& window() const { return payload().window; }
  const std::vector<dsl::Expr>& element_exprs() const { return payload().element_exprs; }
  dsl::LiteralValue& literal_mut() { return payload_mut().literal; }
  DataType& dtype_mut() { return payload_mut().dtype; }
  compute::AggOptions& agg_options_mut() { return payload_mut().agg_options; }
  functions::FunctionCall& function_mut() { return payload_mut().function; }
  dsl::SortFlags& sort_mut() { return payload_mut().sort; }
  dsl::WindowOptions& window_mut() { return payload_mut().window; }
  std::vector<dsl::Expr>& element_exprs_mut() { return payload_mut().element_exprs; }

  static AExpr column(std::string name);
  static AExpr literal_value(dsl::LiteralValue value);
  static AExpr scalar(Scalar value);
  static AExpr binary(Node left, dsl::Operator op, Node right);
  static AExpr cast(Node input, DataType dtype, bool strict);
  static AExpr function_call(functions::FunctionCall call, std::vector<Node> inputs);
  // The registered function `name` with its parameters at their defaults.
  static AExpr function_call(std::string_view name, std::vector<Node> inputs);
  // The function's registry row (Function nodes only).
  const functions::FunctionSpec& spec() const { return *function().spec; }

  bool is_literal() const { return kind == AExprKind::Literal; }
  // A call of the registered function `name` (for rules about one function, like NOT(NOT a)).
  bool is_function(std::string_view fn) const { return kind == AExprKind::Function && function().is(fn); }
  bool is_column() const { return kind == AExprKind::Column; }
  // A boolean literal's value; nullopt when not a non-null boolean literal.
  std::optional<bool> literal_bool() const;

  size_t hash_shallow() const;
  bool equal_shallow(const AExpr& other) const;

 private:
  const AExprPayload& payload() const;
  AExprPayload& payload_mut();

  std::shared_ptr<AExprPayload> payload_;  // null: every attribute at its default
};

using ExprArena = Arena<AExpr>;

// Output dtype of a node against the input schema. `in_group_by` marks the aggregation
// context of group_by().agg(): a non-aggregated column there becomes a List.
DataType node_dtype(Node node, const ExprArena& arena, const Schema& schema);
// The dtypes already derived, by node, against one schema: several node_dtype calls over
// one expression that share it derive each node once (not once per ancestor asking).
using DtypeMemo = std::unordered_map<uint32_t, DataType>;
DataType node_dtype(Node node, const ExprArena& arena, const Schema& schema, DtypeMemo& memo);

}  // namespace frazil::plan
