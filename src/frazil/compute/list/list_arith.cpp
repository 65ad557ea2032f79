#include "frazil/compute/list/list_arith.hpp"

#include <vector>

#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/list/list_util.hpp"
#include "frazil/compute/selection.hpp"

namespace frazil::compute {

const char* arith_op_name(ArithOp op) {
  switch (op) {
    case ArithOp::Add: return "add";
    case ArithOp::Sub: return "sub";
    case ArithOp::Mul: return "mul";
    case ArithOp::TrueDiv: return "div";
    case ArithOp::FloorDiv: return "floor_div";
    case ArithOp::Mod: return "rem";
    case ArithOp::Pow: return "pow";
  }
  return "?";
}

namespace {

bool numeric_leaf(const DataType& t) { return t.is_numeric() || t.is_null() || t.is_boolean(); }

// The result's container: an Array keeps its width when the other side is not a List.
DataType wrap(const DataType& container, const DataType& other, DataType inner) {
  if (container.id() == TypeId::Array && other.id() != TypeId::List) return DataType::array(std::move(inner), container.width());
  return DataType::list(std::move(inner));
}

// Indices of row i repeated for each element of the list rows (kNullIdx for a null row).
int64_t row_len(const list_detail::Lists& rows, int64_t i) { return rows.valid(i) ? rows.len(i) : 0; }

}  // namespace

bool is_list_arith(const DataType& l, const DataType& r) {
  if (l.id() == TypeId::Array && r.id() == TypeId::Array) return false;
  return l.is_list_like() || r.is_list_like();
}

const DataType& leaf_dtype(const DataType& t) { return t.is_list_like() ? leaf_dtype(t.inner()) : t; }

DataType with_leaf(const DataType& t, const DataType& leaf) {
  if (t.id() == TypeId::List) return DataType::list(with_leaf(t.inner(), leaf));
  if (t.id() == TypeId::Array) return DataType::array(with_leaf(t.inner(), leaf), t.width());
  return leaf;
}

DataType list_arith_dtype(ArithOp op, const DataType& l, const DataType& r) {
  if (l.is_list_like() && r.is_list_like()) {
    if (l.id() == TypeId::Array && r.id() == TypeId::Array) return arith_result_dtype(op, l, r);
    const DataType &li = l.inner(), &ri = r.inner();
    if (li.is_list_like() != ri.is_list_like() || !numeric_leaf(leaf_dtype(li)) || !numeric_leaf(leaf_dtype(ri)))
      throw InvalidOperationError(err_msg("cannot ", arith_op_name(op), " two list columns with non-numeric inner types: (left: ",
                                          l.short_name(), ", right: ", r.short_name(), ")"));
    DataType inner = li.is_list_like() ? list_arith_dtype(op, li, ri) : arith_result_dtype(op, li, ri);
    return DataType::list(std::move(inner));
  }
  const DataType& list = l.is_list_like() ? l : r;
  const DataType& other = l.is_list_like() ? r : l;
  if (!numeric_leaf(other) || !numeric_leaf(leaf_dtype(list)))
    throw InvalidOperationError(err_msg(arith_op_name(op), " operation not supported for dtypes: ", l.short_name(),
                                        " != ", r.short_name()));
  DataType inner = l.is_list_like() ? (l.inner().is_list_like() ? list_arith_dtype(op, l.inner(), r)
                                                                : arith_result_dtype(op, l.inner(), r))
                                    : (r.inner().is_list_like() ? list_arith_dtype(op, l, r.inner())
                                                                : arith_result_dtype(op, l, r.inner()));
  return wrap(list, other, std::move(inner));
}

ArrayRef list_arith(ArithOp op, const Array& left, const Array& right) {
  const DataType out = list_arith_dtype(op, left.dtype(), right.dtype());
  const int64_t la = left.length(), lr = right.length();
  if (la != lr && la != 1 && lr != 1)
    throw InvalidOperationError(err_msg("series of different lengths: got ", la, " and ", lr));
  const int64_t n = la == 1 ? lr : la;
  const bool l_list = left.dtype().is_list_like(), r_list = right.dtype().is_list_like();
  auto row = [](int64_t length, int64_t i) { return length == 1 ? 0 : i; };
  // Element indices of each side into what arith() sees (a list's values or the number
  // itself, repeated per element), and the result's offsets and validity.
  std::vector<IdxSize> li, ri;
  std::vector<int64_t> offsets{0};
  offsets.reserve(static_cast<size_t>(n) + 1);
  ValidityBuilder valid;
  if (l_list && r_list) {
    list_detail::Lists a(left, "arithmetic"), b(right, "arithmetic");
    for (int64_t i = 0; i < n; ++i) {
      const int64_t x = row(la, i), y = row(lr, i);
      const bool ok = a.valid(x) && b.valid(y);
      if (ok && a.len(x) != b.len(y))
        throw ShapeError(err_msg("list lengths differed at index ", i, ": ", a.len(x), " != ", b.len(y)));
      if (ok)
        for (int64_t k = 0; k < a.len(x); ++k) {
          li.push_back(static_cast<IdxSize>(a.start(x) + k));
          ri.push_back(static_cast<IdxSize>(b.start(y) + k));
        }
      offsets.push_back(static_cast<int64_t>(li.size()));
      valid.push(ok);
    }
    ArrayRef values = arith(op, *take(*a.values(), li), *take(*b.values(), ri));
    Buffer off = Buffer::allocate(offsets.size() * sizeof(int64_t));
    std::memcpy(off.mutable_data(), offsets.data(), offsets.size() * sizeof(int64_t));
    const int64_t nulls = valid.null_count();
    return Array::make(out, n, valid.finish(), {std::move(off)}, {std::move(values)}, 0, nulls);
  }
  const Array& list = l_list ? left : right;
  const Array& other = l_list ? right : left;
  const int64_t ln = list.length(), on = other.length();
  list_detail::Lists a(list, "arithmetic");
  std::vector<IdxSize> elements, numbers;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t x = row(ln, i);
    const int64_t len = row_len(a, x);
    for (int64_t k = 0; k < len; ++k) {
      elements.push_back(static_cast<IdxSize>(a.start(x) + k));
      numbers.push_back(static_cast<IdxSize>(row(on, i)));
    }
    offsets.push_back(static_cast<int64_t>(elements.size()));
    valid.push(a.valid(x));
  }
  ArrayRef lhs = take(*a.values(), elements), rhs = take(other, numbers);
  ArrayRef values = l_list ? arith(op, *lhs, *rhs) : arith(op, *rhs, *lhs);
  Buffer off = Buffer::allocate(offsets.size() * sizeof(int64_t));
  std::memcpy(off.mutable_data(), offsets.data(), offsets.size() * sizeof(int64_t));
  const int64_t nulls = valid.null_count();
  return Array::make(out, n, valid.finish(), {std::move(off)}, {std::move(values)}, 0, nulls);
}

}  // namespace frazil::compute
