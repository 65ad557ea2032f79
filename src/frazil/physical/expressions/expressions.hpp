// The PhysicalExpr node types. One class per IR expression kind; planner.cpp builds them.
#pragma once

#include <vector>

#include "frazil/compute/compare.hpp"
#include "frazil/compute/arithmetic.hpp"
#include "frazil/dsl/operator.hpp"
#include "frazil/functions/function_call.hpp"
#include "frazil/physical/physical_expr.hpp"

namespace frazil::physical {

class ColumnExpr final : public PhysicalExpr {
 public:
  ColumnExpr(std::string name, dsl::Expr source) : PhysicalExpr(std::move(source)), name_(std::move(name)) {}
  bool implodes_directly() const override { return true; }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState&) const override;
 private:
  std::string name_;
};

class LiteralExpr final : public PhysicalExpr {
 public:
  LiteralExpr(Scalar value, dsl::Expr source) : PhysicalExpr(std::move(source)), value_(std::move(value)) {}
  LiteralExpr(ArrayRef series, dsl::Expr source) : PhysicalExpr(std::move(source)), series_(std::move(series)) {}
  bool is_scalar() const override { return series_ == nullptr; }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState&) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState&) const override;
 private:
  Scalar value_;
  ArrayRef series_;
};

class BinaryExpr final : public PhysicalExpr {
 public:
  BinaryExpr(PhysicalExprRef left, dsl::Operator op, PhysicalExprRef right, dsl::Expr source)
      : PhysicalExpr(std::move(source)), left_(std::move(left)), op_(op), right_(std::move(right)) {}
  bool is_scalar() const override { return left_->is_scalar() && right_->is_scalar(); }
  // The kernel applied to evaluated operands (shared by row-aligned and grouped paths).
  static ArrayRef apply(dsl::Operator op, const Array& l, const Array& r);
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;
 private:
  PhysicalExprRef left_;
  dsl::Operator op_;
  PhysicalExprRef right_;
};

class CastExpr final : public PhysicalExpr {
 public:
  CastExpr(PhysicalExprRef input, DataType dtype, bool strict, dsl::Expr source)
      : PhysicalExpr(std::move(source)), input_(std::move(input)), dtype_(std::move(dtype)), strict_(strict) {}
  bool is_scalar() const override { return input_->is_scalar(); }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;
 private:
  PhysicalExprRef input_;
  DataType dtype_;
  bool strict_;
};

class AggExpr final : public PhysicalExpr {
 public:
  // row_wise: the input is elementwise, so it can be evaluated once over all rows and
  // then aggregated per group; otherwise (shift, reverse, sort, ...) it runs per group.
  AggExpr(PhysicalExprRef input, compute::AggKind kind, compute::AggOptions options, bool row_wise,
          dsl::Expr source)
      : PhysicalExpr(std::move(source)), input_(std::move(input)), kind_(kind), options_(std::move(options)),
        row_wise_(row_wise) {}
  bool is_scalar() const override { return true; }
  compute::AggKind kind() const { return kind_; }
  const compute::AggOptions& options() const { return options_; }
  const PhysicalExprRef& input() const { return input_; }
  // The input is elementwise (evaluated once over all rows).
  bool row_wise() const { return row_wise_; }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;
 private:
  Column aggregate_per_group(const DataFrame& df, const compute::Groups& groups, ExecState& state) const;
  PhysicalExprRef input_;
  compute::AggKind kind_;
  compute::AggOptions options_;
  bool row_wise_;
};

class LenExpr final : public PhysicalExpr {
 public:
  explicit LenExpr(dsl::Expr source) : PhysicalExpr(std::move(source)) {}
  bool is_scalar() const override { return true; }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState&) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState&) const override;
};

class TernaryExpr final : public PhysicalExpr {
 public:
  TernaryExpr(PhysicalExprRef predicate, PhysicalExprRef truthy, PhysicalExprRef falsy, dsl::Expr source)
      : PhysicalExpr(std::move(source)), predicate_(std::move(predicate)), truthy_(std::move(truthy)), falsy_(std::move(falsy)) {}
  bool is_scalar() const override { return predicate_->is_scalar() && truthy_->is_scalar() && falsy_->is_scalar(); }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;
 private:
  PhysicalExprRef predicate_, truthy_, falsy_;
};

class FunctionExpr final : public PhysicalExpr {
 public:
  // row_wise[i]: input i is elementwise (evaluated once over all rows, then split by group).
  // dtype: the call's output dtype when the planner derived it (for results over no rows).
  FunctionExpr(std::vector<PhysicalExprRef> inputs, functions::FunctionCall call, std::vector<bool> row_wise,
               std::optional<DataType> dtype, dsl::Expr source);
  bool is_scalar() const override;
  // A kernel may reject no rows (gather([0]) of nothing); with no group, the result is empty.
  Column evaluate_empty(const DataFrame& df, ExecState& state) const override;
  // A length-preserving function with a segmented kernel gives its groups' lists itself.
  bool implodes_directly() const override { return segmented_ != nullptr; }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;
 private:
  const functions::FunctionSpec& spec() const { return *call_.spec; }
  Column call(std::vector<Column> args) const;
  // One value per group: the kernel run on each group's part of the inputs.
  Column per_group(const DataFrame& df, const GroupContext& g, ExecState& state) const;
  // A list per group: the segmented kernel over the inputs gathered group by group.
  Column segmented(const DataFrame& df, const GroupContext& g, ExecState& state) const;
  std::vector<PhysicalExprRef> inputs_;
  functions::FunctionCall call_;
  std::vector<bool> row_wise_;
  std::optional<DataType> dtype_;
  functions::Kernel kernel_;
  functions::SegmentedKernel segmented_;
};

class SortExpr final : public PhysicalExpr {
 public:
  SortExpr(PhysicalExprRef input, std::vector<PhysicalExprRef> by, dsl::SortFlags flags, dsl::Expr source)
      : PhysicalExpr(std::move(source)), input_(std::move(input)), by_(std::move(by)), flags_(std::move(flags)) {}
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
 private:
  PhysicalExprRef input_;
  std::vector<PhysicalExprRef> by_;  // empty: sort the input by itself
  dsl::SortFlags flags_;
};

class FilterExpr final : public PhysicalExpr {
 public:
  // row_wise: input and predicate are elementwise (then masking rows works per group).
  FilterExpr(PhysicalExprRef input, PhysicalExprRef predicate, bool row_wise, dsl::Expr source)
      : PhysicalExpr(std::move(source)), input_(std::move(input)), predicate_(std::move(predicate)),
        row_wise_(row_wise) {}
  // Inside an aggregation: the input with the rows the predicate rejects set to null.
  Column masked(const DataFrame& df, ExecState& state) const;
  bool input_is_scalar() const { return input_->is_scalar(); }
  bool row_wise() const { return row_wise_; }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
 private:
  PhysicalExprRef input_, predicate_;
  bool row_wise_;
};

class WindowExpr final : public PhysicalExpr {
 public:
  // row_wise: the input is elementwise without aggregations, so over() changes nothing.
  // `partition_by` holds the partition keys, then the order keys (options.num_order_by), or
  // for a rolling window the index column. literal_only: the input reads no column
  // (lit(1).sort()), so its one row per partition broadcasts as a literal does.
  WindowExpr(PhysicalExprRef input, std::vector<PhysicalExprRef> partition_by, bool row_wise, bool literal_only,
             dsl::WindowOptions options, dsl::Expr source)
      : PhysicalExpr(std::move(source)), input_(std::move(input)), partition_by_(std::move(partition_by)),
        row_wise_(row_wise), literal_only_(literal_only), options_(std::move(options)) {}
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
 private:
  // The input per partition of `frame`, mapped back to its rows as options_.mapping says.
  Column map_to_rows(const DataFrame& frame, const compute::Groups& groups, ExecState& state) const;
  // Expr.rolling: the input over each row's window of index values (window_rolling.cpp).
  Column evaluate_rolling(const DataFrame& df, ExecState& state) const;
  PhysicalExprRef input_;
  std::vector<PhysicalExprRef> partition_by_;
  bool row_wise_;
  bool literal_only_;
  dsl::WindowOptions options_;
};

// Renames the result to the ExprIR's output name.
class AliasExpr final : public PhysicalExpr {
 public:
  AliasExpr(PhysicalExprRef input, std::string name, dsl::Expr source)
      : PhysicalExpr(std::move(source)), input_(std::move(input)), name_(std::move(name)) {}
  bool is_scalar() const override { return input_->is_scalar(); }
  bool implodes_directly() const override { return input_->implodes_directly(); }
  Column evaluate_empty(const DataFrame& df, ExecState& state) const override {
    return input_->evaluate_empty(df, state).rename(name_);
  }
 protected:
  Column evaluate_impl(const DataFrame& df, ExecState& state) const override;
  Column evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const override;
 private:
  PhysicalExprRef input_;
  std::string name_;
};

// Broadcasts a one-row column to `length` rows; other columns unchanged.
Column broadcast_to(const Column& c, int64_t length);
// The array a kernel sees for an operand: a scalar column as one row (kernels broadcast
// one-row inputs), any other column as its contiguous array.
ArrayRef operand_array(const Column& c);
// Wraps a kernel result: when every operand was a scalar the result is a scalar column of
// the operands' (broadcast) length.
Column kernel_result(const std::string& name, ArrayRef out, const std::vector<const Column*>& operands);

}  // namespace frazil::physical
