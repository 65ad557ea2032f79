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

// Keeps the rows where the predicate is true. Given the predicate's row-wise conjuncts too
// (cheap ones first), it evaluates them one after the other, and before a costly one (a
// test on strings) drops the rows the ones before it have ruled out, so that it sees fewer.
class FilterOperator final : public Operator {
 public:
  struct Conjunct {
    physical::PhysicalExprRef expr;
    bool costly;
  };
  explicit FilterOperator(physical::PhysicalExprRef predicate, std::vector<Conjunct> conjuncts = {})
      : predicate_(std::move(predicate)), conjuncts_(std::move(conjuncts)) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  const physical::PhysicalExprRef& predicate() const { return predicate_; }
 private:
  DataFrame execute_whole(const DataFrame& morsel, physical::ExecState& state) const;
  DataFrame execute_conjuncts(const DataFrame& morsel, physical::ExecState& state) const;
  physical::PhysicalExprRef predicate_;
  std::vector<Conjunct> conjuncts_;
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
