// ExprIR: how a plan node holds an expression: a Node into the expression arena, the
// output name, and the memoized output dtype. Copying one never copies a subtree.
#pragma once

#include <optional>
#include <string>

#include "frazil/plan/aexpr.hpp"
#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/expr/walk.hpp"

namespace frazil::plan {

enum class OutputNameKind : uint8_t {
  ColumnLhs,   // the name of the leftmost column
  LiteralLhs,  // "literal"
  Alias,       // set by .alias()
  Field,       // len() and other named outputs
};

struct OutputName {
  OutputNameKind kind = OutputNameKind::ColumnLhs;
  std::string name;
  bool operator==(const OutputName&) const = default;
};

class ExprIR {
 public:
  ExprIR() = default;
  ExprIR(Node node, OutputName output_name) : node_(node), output_name_(std::move(output_name)) {}

  Node node() const { return node_; }
  void set_node(Node node) {
    node_ = node;
    dtype_.reset();
  }
  const std::string& output_name() const { return output_name_.name; }
  const OutputName& output_name_inner() const { return output_name_; }
  bool has_alias() const { return output_name_.kind == OutputNameKind::Alias; }
  void set_alias(std::string name) { output_name_ = OutputName{OutputNameKind::Alias, std::move(name)}; }

  // The output dtype, computed once per ExprIR against the input schema.
  const DataType& dtype(const Schema& schema, const ExprArena& arena) const {
    if (!dtype_) dtype_ = node_dtype(node_, arena, schema);
    return *dtype_;
  }
  void reset_dtype() const { dtype_.reset(); }

 private:
  Node node_;
  OutputName output_name_;
  mutable std::optional<DataType> dtype_;
};

}  // namespace frazil::plan
