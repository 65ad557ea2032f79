#include "frazil/compute/array/dot.hpp"

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/arithmetic.hpp"
#include "frazil/compute/array/layout.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/list/aggregate.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::compute {

namespace {

DataType values_supertype(const DataType& left, const DataType& right) {
  for (const DataType* t : {&left, &right})
    if (t->id() != TypeId::Array && !t->is_null())
      throw InvalidOperationError(err_msg("arr.dot expects Array inputs, got ", t->short_name()));
  if (left.is_null() || right.is_null()) return DataType::null();
  if (left.width() != right.width())
    throw ShapeError(err_msg("arr.dot requires equal array widths, got ", left.width(), " and ", right.width()));
  auto s = get_supertype(left.inner(), right.inner());
  if (!s || !(s->is_primitive_numeric() || s->is_null()))
    throw InvalidOperationError(err_msg("arr.dot expects numeric Array values, got ", left.short_name(), " and ",
                                        right.short_name()));
  return *s;
}

}  // namespace

DataType dot_dtype(const DataType& left, const DataType& right) {
  DataType s = values_supertype(left, right);
  if (s.is_null()) return s;
  return agg_result_dtype(AggKind::Sum, arith_result_dtype(ArithOp::Mul, s, s));
}

ArrayRef array_dot(const Array& left, const Array& right) {
  const DataType out = dot_dtype(left.dtype(), right.dtype());
  const int64_t n = left.length();
  if (out.is_null() || left.dtype().is_null() || right.dtype().is_null()) return make_null_array(out, n);
  const DataType s = values_supertype(left.dtype(), right.dtype());
  ArrayRef l = regular_array(left), r = regular_array(right);
  if (r->length() == 1 && n != 1) {  // one row for every row
    std::vector<IdxSize> idx(static_cast<size_t>(n), 0);
    r = regular_array(*take(*r, idx));
  }
  if (r->length() != n)
    throw ShapeError(err_msg("arr.dot requires equal row counts, got ", n, " and ", r->length()));
  ArrayRef lv = cast(*l->child(0), s), rv = cast(*r->child(0), s);
  ArrayRef products = arith(ArithOp::Mul, *lv, *rv);
  ValidityBuilder valid;
  for (int64_t i = 0; i < n; ++i) valid.push(l->is_valid(i) && r->is_valid(i));
  const int64_t nulls = valid.null_count();
  ArrayRef lists = Array::make(DataType::list(products->dtype()), n, valid.finish(), {l->buffer(0)}, {products}, 0,
                               nulls);
  ArrayRef sums = list_aggregate(AggKind::Sum, *lists);
  return sums->dtype() == out ? sums : cast(*sums, out);
}

}  // namespace frazil::compute
