// Column, literal, len, cast and alias: the leaves and the trivial wrappers.
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/physical/expressions/expressions.hpp"

namespace frazil::physical {

Column broadcast_to(const Column& c, int64_t length) {
  if (c.length() == length) return c;
  if (c.length() == 1) return Column::scalar(c.name(), c.get(0), length);
  throw ShapeError(err_msg("cannot broadcast column '", c.name(), "' of length ", c.length(), " to length ", length));
}

ArrayRef operand_array(const Column& c) {
  return c.is_scalar() ? scalar_to_array(c.scalar_value(), 1) : c.as_array();
}

Column kernel_result(const std::string& name, ArrayRef out, const std::vector<const Column*>& operands) {
  bool all_scalar = true, any_empty = false;
  int64_t length = 1;
  for (const Column* c : operands) {
    all_scalar &= c->is_scalar();
    any_empty |= c->length() == 0;
    length = std::max(length, c->length());
  }
  // A scalar broadcast over an empty frame (a window of a literal) stays empty next to a literal.
  if (all_scalar && any_empty && out->length() == 1) return Column(name, out->slice(0, 0));
  if (all_scalar && out->length() == 1) return Column::scalar(name, array_get(*out, 0), length);
  return Column(name, std::move(out));
}

Column ColumnExpr::evaluate_impl(const DataFrame& df, ExecState&) const {
  const Column& c = df.column(name_);
  // A broadcast scalar column of an empty frame is an empty column: as a scalar its one
  // value would broadcast like a literal (one row) in the kernels.
  if (c.is_scalar() && c.length() == 0) return Column(c.name(), c.as_array());
  return c;
}

Column LiteralExpr::evaluate_impl(const DataFrame&, ExecState&) const {
  if (series_) return Column("literal", series_);
  return Column::scalar("literal", value_, 1);
}

Column LiteralExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& s) const {
  if (series_) return PhysicalExpr::evaluate_on_groups_impl(df, g, s);
  return Column::scalar("literal", value_, 1);
}

Column LenExpr::evaluate_impl(const DataFrame& df, ExecState&) const {
  return Column::scalar("len", Scalar::uint32(static_cast<uint64_t>(df.height())), 1);
}

Column LenExpr::evaluate_on_groups_impl(const DataFrame&, const GroupContext& g, ExecState&) const {
  const size_t ng = g.num_groups();
  Buffer counts = Buffer::zeroed(ng * sizeof(uint32_t));
  uint32_t* c = counts.mutable_as<uint32_t>();
  for (auto id : g.groups->group_ids) ++c[id];
  return Column("len", Array::make(DataType::uint32(), static_cast<int64_t>(ng), Buffer(), {counts}));
}

static Column cast_column(const Column& c, const DataType& dtype, bool strict) {
  if (c.dtype() == dtype) return c;
  if (c.is_scalar()) {
    ArrayRef one = compute::cast(*scalar_to_array(c.scalar_value(), 1), dtype, strict, c.name());
    return Column::scalar(c.name(), array_get(*one, 0), c.length());
  }
  return Column(c.name(), compute::cast(*c.as_array(), dtype, strict, c.name()));
}

Column CastExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  return cast_column(input_->evaluate(df, state), dtype_, strict_);
}

Column CastExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  return cast_column(input_->evaluate_on_groups(df, g, state), dtype_, strict_);
}

Column AliasExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  return input_->evaluate(df, state).rename(name_);
}

Column AliasExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  return input_->evaluate_on_groups(df, g, state).rename(name_);
}

}  // namespace frazil::physical
