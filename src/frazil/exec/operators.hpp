// Streaming operators: each turns one morsel into one morsel, independently of the others,
// so a pipeline of them runs on every core at once.
#pragma once

#include <memory>
#include <vector>

#include "frazil/physical/physical_expr.hpp"

namespace frazil::exec {

class Operator {
 public:
  virtual ~Operator() = default;
  virtual DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const = 0;
};
using OperatorRef = std::shared_ptr<const Operator>;

class FilterOperator final : public Operator {
 public:
  explicit FilterOperator(physical::PhysicalExprRef predicate) : predicate_(std::move(predicate)) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  const physical::PhysicalExprRef& predicate() const { return predicate_; }
 private:
  physical::PhysicalExprRef predicate_;
};

// select (replace the columns) or with_columns (add/replace columns) of row-wise exprs.
class ProjectOperator final : public Operator {
 public:
  ProjectOperator(std::vector<physical::PhysicalExprRef> exprs, bool with_columns)
      : exprs_(std::move(exprs)), with_columns_(with_columns) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
 private:
  std::vector<physical::PhysicalExprRef> exprs_;
  bool with_columns_;
};

// Keeps (and orders) a list of columns; renames them when `new_names` is given.
class SimpleProjectOperator final : public Operator {
 public:
  SimpleProjectOperator(std::vector<std::string> names, std::vector<std::string> new_names = {})
      : names_(std::move(names)), new_names_(std::move(new_names)) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
 private:
  std::vector<std::string> names_;
  std::vector<std::string> new_names_;
};

// Applies a pipeline of operators to a morsel.
DataFrame run_operators(const std::vector<OperatorRef>& ops, DataFrame morsel, physical::ExecState& state);

}  // namespace frazil::exec
