// Streaming operators: each turns one morsel into one morsel, independently of the others,
// so a pipeline of them runs on every core at once.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "frazil/exec/pipeline/pipeline_start.hpp"
#include "frazil/exec/sources/source.hpp"
#include "frazil/physical/physical_expr.hpp"

namespace frazil::exec {

class Operator;
using OperatorRef = std::shared_ptr<Operator>;

// An operator's adaptive rule may, when its pipeline starts, make it a pipeline breaker:
// the pipeline runs up to it into one frame (`upstream`), and `resume` gives the source the
// pipeline goes on from and the operator that takes this one's place (an unordered left
// join that finds its right side the smaller builds on the right after all).
struct Reroute {
  std::function<std::pair<SourceRef, OperatorRef>(DataFrame upstream)> resume;
};

class Operator {
 public:
  virtual ~Operator() = default;
  // Called on many threads at once, one morsel each.
  virtual DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const = 0;
  // One line for explain(format="physical").
  virtual std::string describe() const = 0;
  // Once, before the first morsel, when the pipeline starts (the pipelines it reads have
  // finalized): binds to what they built and applies the operator's adaptive rule.
  virtual std::optional<Reroute> start(const PipelineStart& info) { return std::nullopt; }
  // Rows the operator emits once every morsel has gone through it (an unordered left
  // join's unmatched left rows); they go on through the operators after it.
  virtual std::optional<DataFrame> tail() const { return std::nullopt; }
  // The same, as a source of batches, for tails too big to hold at once (a spilled join's
  // partition pairs, joined one at a time); nullptr when none.
  virtual SourceRef tail_source() const { return nullptr; }
};

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
  std::string describe() const override;
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
  std::string describe() const override;
 private:
  std::vector<physical::PhysicalExprRef> exprs_;
  bool with_columns_;
};

// Keeps (and orders) a list of columns; renames them when `new_names` is given. With
// `only_when_wider`, a morsel of exactly that many columns passes as it is (a whole-file
// read that gave the projection already).
class SimpleProjectOperator final : public Operator {
 public:
  SimpleProjectOperator(std::vector<std::string> names, std::vector<std::string> new_names = {},
                        bool only_when_wider = false)
      : names_(std::move(names)), new_names_(std::move(new_names)), only_when_wider_(only_when_wider) {}
  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override;
  std::string describe() const override;
 private:
  std::vector<std::string> names_;
  std::vector<std::string> new_names_;
  bool only_when_wider_ = false;
};

// "[a, b, c]" for explain text (at most `max` names, then "...").
std::string names_text(const std::vector<std::string>& names, size_t max = 8);
// The expressions a physical operator was made from, "[e1, e2]".
std::string exprs_text(const std::vector<physical::PhysicalExprRef>& exprs);

// Applies a pipeline of operators to a morsel.
DataFrame run_operators(const std::vector<OperatorRef>& ops, DataFrame morsel, physical::ExecState& state);

}  // namespace frazil::exec
