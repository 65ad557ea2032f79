// Function calls: the inputs are evaluated, then the dispatch table's closure runs once.
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

bool FunctionExpr::is_scalar() const {
  if (dsl::function_is_reduction(function_.kind)) return true;
  if (function_.kind == dsl::FunctionKind::Shift || function_.kind == dsl::FunctionKind::Reverse)
    return inputs_[0]->is_scalar();
  if (!dsl::function_is_elementwise(function_.kind)) return false;
  if (function_.kind == dsl::FunctionKind::IsIn) return inputs_[0]->is_scalar();
  for (const auto& in : inputs_)
    if (!in->is_scalar()) return false;
  return true;
}

Column FunctionExpr::call(std::vector<Column> args) const {
  std::vector<ArrayRef> arrays;
  std::vector<const Column*> operands;
  arrays.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    // is_in's set is a whole series, never a broadcast operand.
    bool is_set = function_.kind == dsl::FunctionKind::IsIn && i == 1;
    arrays.push_back(is_set ? args[i].as_array() : operand_array(args[i]));
    if (!is_set) operands.push_back(&args[i]);
  }
  // Kernels broadcast one-row operands after the first; a one-row first operand next to a
  // longer one (lit(x).fill_null(col("a"))) is repeated here.
  if (dsl::function_is_elementwise(function_.kind) && function_.kind != dsl::FunctionKind::IsIn &&
      !arrays.empty() && arrays[0]->length() == 1) {
    for (const auto& a : arrays) {
      if (a->length() == 1) continue;
      arrays[0] = a->length() == 0 ? arrays[0]->slice(0, 0)
                                   : Column::scalar(args[0].name(), array_get(*arrays[0], 0), a->length()).as_array();
      break;
    }
  }
  ArrayRef out = udf_(arrays);
  if (dsl::function_is_reduction(function_.kind)) return Column::scalar(args[0].name(), array_get(*out, 0), 1);
  if (!dsl::function_is_elementwise(function_.kind)) {
    // A reordered scalar (lit(1).shift()) stays a scalar that broadcasts.
    if (out->length() == 1 && is_scalar()) return Column::scalar(args[0].name(), array_get(*out, 0), 1);
    return Column(args[0].name(), std::move(out));
  }
  return kernel_result(args[0].name(), std::move(out), operands);
}

Column FunctionExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  std::vector<Column> args;
  for (const auto& in : inputs_) args.push_back(in->evaluate(df, state));
  // A non-elementwise function over a broadcast scalar sees the full column.
  if (!dsl::function_is_elementwise(function_.kind) && !args.empty() && args[0].is_scalar())
    args[0] = Column(args[0].name(), args[0].as_array());
  return call(std::move(args));
}

Column FunctionExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  if (function_.kind == dsl::FunctionKind::NullCount) {
    if (inputs_[0]->implodes_directly()) {
      Column in = broadcast_to(inputs_[0]->evaluate(df, state), df.height());
      return Column(in.name(), compute::aggregate_grouped(compute::AggKind::NullCount, *in.as_array(), *g.groups));
    }
    // Any other input (x.shift(), x.filter(p), a literal) is evaluated per group first.
    Column per_group = inputs_[0]->evaluate_on_groups(df, g, state);
    if (per_group.is_scalar())
      return Column::scalar(per_group.name(), Scalar::uint32(per_group.scalar_value().is_null() ? 1 : 0), 1);
    ArrayRef lists = per_group.as_array();
    if (lists->dtype().id() != TypeId::List) {  // one value per group (an aggregate): 0 or 1
      Buffer counts = Buffer::allocate(lists->length() * sizeof(uint32_t));
      for (int64_t i = 0; i < lists->length(); ++i) counts.mutable_as<uint32_t>()[i] = lists->is_null(i);
      return Column(per_group.name(), Array::make(DataType::uint32(), lists->length(), Buffer(), {counts}));
    }
    const int64_t* off = lists->buffer(0).template as<int64_t>() + lists->offset();
    const Array& values = *lists->child(0);
    const int64_t ng = lists->length();
    Buffer counts = Buffer::allocate(ng * sizeof(uint32_t));
    uint32_t* c = counts.mutable_as<uint32_t>();
    for (int64_t i = 0; i < ng; ++i) {
      uint32_t nulls = 0;
      for (int64_t k = off[i]; k < off[i + 1]; ++k) nulls += values.is_null(k);
      c[i] = nulls;
    }
    return Column(per_group.name(), Array::make(DataType::uint32(), ng, Buffer(), {counts}));
  }
  if (is_scalar() && (function_.kind == dsl::FunctionKind::Shift || function_.kind == dsl::FunctionKind::Reverse)) {
    // Reordering the one value each group has: reverse keeps it, a shift moves it out.
    Column in = inputs_[0]->evaluate_on_groups(df, g, state);
    if (function_.kind == dsl::FunctionKind::Reverse || function_.options.n == 0) return in;
    return Column::scalar(in.name(), array_get(*make_null_array(in.dtype(), 1), 0), 1);
  }
  if (!dsl::function_is_elementwise(function_.kind))
    throw InvalidOperationError(err_msg("`", dsl::function_name(function_.kind),
                                        "` inside group_by().agg() or over() is not supported yet"));
  std::vector<Column> args;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    bool is_set = function_.kind == dsl::FunctionKind::IsIn && i == 1;
    args.push_back(is_set ? inputs_[i]->evaluate(df, state) : inputs_[i]->evaluate_on_groups(df, g, state));
  }
  return call(std::move(args));
}

}  // namespace frazil::physical
