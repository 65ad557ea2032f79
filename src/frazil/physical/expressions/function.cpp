// Function calls: the inputs are evaluated, then the registry's kernel runs once.
#include "frazil/compute/kernel_context.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

using functions::InputRole;
using functions::Shape;

bool FunctionExpr::is_scalar() const {
  switch (spec().shape) {
    case Shape::Reduction: return true;
    // A reordered scalar (lit(1).shift()) is still one value.
    case Shape::LengthPreserving: return inputs_[0]->is_scalar();
    case Shape::Other: return false;
    case Shape::Elementwise: break;
  }
  for (size_t i = 0; i < inputs_.size(); ++i)
    if (spec().role(i) == InputRole::Row && !inputs_[i]->is_scalar()) return false;
  return true;
}

Column FunctionExpr::call(std::vector<Column> args) const {
  std::vector<ArrayRef> arrays;
  std::vector<const Column*> operands;
  arrays.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    // A Set input (is_in's values) is a whole series, never a broadcast operand.
    const bool is_set = spec().role(i) == InputRole::Set;
    arrays.push_back(is_set ? args[i].as_array() : operand_array(args[i]));
    if (!is_set) operands.push_back(&args[i]);
  }
  // Kernels broadcast one-row operands after the first; a one-row first operand next to a
  // longer one (lit(x).fill_null(col("a"))) is repeated here.
  if (spec().is_elementwise() && !arrays.empty() && arrays[0]->length() == 1) {
    for (size_t i = 1; i < arrays.size(); ++i) {
      const auto& a = arrays[i];
      if (a->length() == 1 || spec().role(i) == InputRole::Set) continue;
      arrays[0] = a->length() == 0 ? arrays[0]->slice(0, 0)
                                   : Column::scalar(args[0].name(), array_get(*arrays[0], 0), a->length()).as_array();
      break;
    }
  }
  // Errors of the kernel name the root column, as Polars' do.
  const std::string root_name = args.empty() ? std::string() : args[0].name();
  const compute::ColumnNameScope column_name(root_name);
  ArrayRef out = kernel_(arrays);
  if (spec().is_reduction()) return Column::scalar(args[0].name(), array_get(*out, 0), 1);
  if (!spec().is_elementwise()) {
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
  if (!spec().is_elementwise() && !args.empty() && args[0].is_scalar())
    args[0] = Column(args[0].name(), args[0].as_array());
  return call(std::move(args));
}

Column FunctionExpr::per_group(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  if (spec().grouped_kernel && inputs_.size() == 1 && inputs_[0]->implodes_directly()) {
    Column in = broadcast_to(inputs_[0]->evaluate(df, state), df.height());
    return Column(in.name(), spec().grouped_kernel(call_.args)(*in.as_array(), *g.groups));
  }
  // Any other input (x.shift(), x.filter(p), an aggregate, a literal) is evaluated per group
  // first: a list per group, or one value per group. The kernel then runs group by group.
  std::vector<Column> inputs;
  bool all_scalar = true;
  for (const auto& in : inputs_) {
    inputs.push_back(in->evaluate_on_groups(df, g, state));
    all_scalar &= inputs.back().is_scalar();
  }
  const std::string name = inputs[0].name();
  if (all_scalar) {  // the same value for every group: computed once
    std::vector<ArrayRef> args;
    for (const auto& c : inputs) args.push_back(c.as_array());
    return Column::scalar(name, array_get(*kernel_(args), 0), 1);
  }
  // Group `group`'s part of input i (the empty part of the right dtype for group -1).
  auto part = [&](size_t i, int64_t group) -> ArrayRef {
    const Column& c = inputs[i];
    if (c.is_scalar()) return group < 0 ? c.as_array()->slice(0, 0) : c.as_array();
    ArrayRef values = c.as_array();
    if (inputs_[i]->is_scalar() || spec().role(i) == InputRole::Set)  // one value per group
      return group < 0 ? values->slice(0, 0) : values->slice(group, 1);
    if (group < 0) return values->child(0)->slice(0, 0);
    const int64_t* off = values->buffer(0).template as<int64_t>() + values->offset();
    return values->child(0)->slice(off[group], off[group + 1] - off[group]);
  };
  const auto ng = static_cast<int64_t>(g.num_groups());
  std::vector<ArrayRef> results;
  results.reserve(std::max<int64_t>(ng, 1));
  for (int64_t group = ng ? 0 : -1; group < std::max<int64_t>(ng, 0); ++group) {
    std::vector<ArrayRef> args;
    for (size_t i = 0; i < inputs.size(); ++i) args.push_back(part(i, group));
    ArrayRef out = kernel_(args);
    results.push_back(group < 0 ? out->slice(0, 0) : std::move(out));
    if (group < 0) break;
  }
  return Column(name, concat_arrays(results));
}

Column FunctionExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  // A reduction gives one value per group; a length-preserving function (shift, reverse)
  // reached here has one value per group (is_scalar()), and maps it to one value.
  if (spec().is_reduction() || spec().shape == Shape::LengthPreserving) return per_group(df, g, state);
  if (!spec().is_elementwise())
    throw InvalidOperationError(err_msg("`", spec().name, "` inside group_by().agg() or over() is not supported yet"));
  std::vector<Column> args;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const bool is_set = spec().role(i) == InputRole::Set;
    args.push_back(is_set ? inputs_[i]->evaluate(df, state) : inputs_[i]->evaluate_on_groups(df, g, state));
  }
  return call(std::move(args));
}

}  // namespace frazil::physical
