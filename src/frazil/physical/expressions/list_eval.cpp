#include "frazil/physical/expressions/list_eval.hpp"

#include <cstring>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/list/aggregate.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"

namespace frazil::physical {

ListEvalExpr::ListEvalExpr(PhysicalExprRef list, plan::ElementExprIR element, PhysicalExprRef element_expr,
                           bool elementwise, DataType dtype, dsl::Expr source)
    : PhysicalExpr(std::move(source)),
      list_(std::move(list)),
      element_(std::move(element)),
      element_expr_(std::move(element_expr)),
      elementwise_(elementwise),
      dtype_(std::move(dtype)) {}

namespace {

// A List array of `n` rows over `child` with `offsets` (n + 1, from 0), null where `list` is.
ArrayRef make_list(const Array& list, const std::vector<int64_t>& offsets, ArrayRef child) {
  const int64_t n = list.length();
  Buffer off = Buffer::allocate(offsets.size() * sizeof(int64_t));
  std::memcpy(off.mutable_data(), offsets.data(), offsets.size() * sizeof(int64_t));
  ValidityBuilder v;
  for (int64_t i = 0; i < n; ++i) v.push(list.is_valid(i));
  const int64_t nulls = v.null_count();
  DataType dt = DataType::list(child->dtype());
  return Array::make(std::move(dt), n, v.finish(), {std::move(off)}, {std::move(child)}, 0, nulls);
}

}  // namespace

ArrayRef ListEvalExpr::eval_array(const Array& list, ExecState& state) const {
  if (dtype_.id() != TypeId::Array) return eval_lists(list, state);
  // arr.eval: a List per array, each of the array's width again.
  ArrayRef r = eval_lists(list, state);
  if (!r->dtype().is_list_like()) return make_null_array(dtype_, list.length());
  const int64_t* o = r->list_offsets();
  for (int64_t i = 0; i < r->length(); ++i)
    if (r->is_valid(i) && o[i + 1] - o[i] != dtype_.width())
      throw InvalidOperationError(
          "`array.eval` is not allowed with non-length preserving expressions. Enable `as_list` if you want to "
          "output a variable amount of items per row.");
  return r->with_dtype(DataType::array(r->dtype().inner(), dtype_.width()));
}

ArrayRef ListEvalExpr::eval_lists(const Array& list, ExecState& state) const {
  const int64_t n = list.length();
  if (!list.dtype().is_list_like()) return make_null_array(dtype_, n);
  const int64_t* o = list.list_offsets();
  const int64_t base = n ? o[0] : 0;
  ArrayRef values = list.child(0)->slice(base, (n ? o[n] : 0) - base);
  DataFrame elements({Column(plan::kElementColumn, values)});
  std::vector<int64_t> offsets(static_cast<size_t>(n) + 1);
  for (int64_t i = 0; i <= n; ++i) offsets[static_cast<size_t>(i)] = o[i] - base;
  ExecState sub;
  sub.verbose = state.verbose;
  if (elementwise_ && !element_expr_->is_scalar()) {
    Column out = element_expr_->evaluate(elements, sub);
    if (out.length() == values->length()) return make_list(list, offsets, out.as_array());
  }
  compute::Groups groups = compute::list_groups(list);
  Column out = element_expr_->evaluate_on_groups(elements, GroupContext{&groups}, sub);
  if (out.is_scalar()) {
    // A literal (no element read): one value per element, as Polars broadcasts it.
    ArrayRef each = Column::scalar(plan::kElementColumn, out.scalar_value(), values->length()).as_array();
    return make_list(list, offsets, std::move(each));
  }
  ArrayRef r = out.as_array();
  if (r->length() != n)
    throw InternalError(err_msg("list.eval: the element expression gave ", r->length(), " rows for ", n, " lists"));
  if (r->dtype() == dtype_ || !dtype_.is_list_like() || r->dtype().id() == TypeId::List) {
    // A list per group (eval, agg), or a value per group (agg of a reduction): as it is,
    // null where the input list is null.
    if (list.null_count() == 0) return r;
    ValidityBuilder v;
    for (int64_t i = 0; i < n; ++i) v.push(list.is_valid(i) && r->is_valid(i));
    const int64_t nulls = v.null_count();
    return r->with_validity(v.finish(), nulls);
  }
  // eval of a reduction: each value as a list of one.
  std::vector<int64_t> one(static_cast<size_t>(n) + 1);
  for (int64_t i = 0; i <= n; ++i) one[static_cast<size_t>(i)] = i;
  return make_list(list, one, r);
}

Column ListEvalExpr::evaluate_impl(const DataFrame& df, ExecState& state) const {
  return eval_column(list_->evaluate(df, state), state);
}

Column ListEvalExpr::evaluate_on_groups_impl(const DataFrame& df, const GroupContext& g, ExecState& state) const {
  // (The default would evaluate the list over the whole frame: implode() of every row, the
  // same one list for each group.)
  if (!list_->is_scalar()) return PhysicalExpr::evaluate_on_groups_impl(df, g, state);
  return eval_column(list_->evaluate_on_groups(df, g, state), state);
}

Column ListEvalExpr::eval_column(const Column& c, ExecState& state) const {
  if (c.is_scalar()) {
    ArrayRef one = eval_array(*c.slice(0, 1).as_array(), state);
    return Column::scalar(c.name(), Column(c.name(), one).get(0), c.length());
  }
  std::vector<ArrayRef> chunks;
  for (const ArrayRef& a : c.chunks()) chunks.push_back(eval_array(*a, state));
  DataType dt = chunks.empty() ? dtype_ : chunks[0]->dtype();
  return Column(c.name(), dt, std::move(chunks));
}

}  // namespace frazil::physical
