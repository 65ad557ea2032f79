#include "frazil/compute/struct/struct_arith.hpp"

#include <utility>
#include <vector>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/kernel_util.hpp"
#include "frazil/compute/list/list_arith.hpp"
#include "frazil/compute/struct/struct.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/supertype.hpp"

namespace frazil::compute {

namespace {

// A field Polars lets struct arithmetic reach (a list or struct is checked where it meets its
// operand).
bool arithmetic_field(const DataType& t) {
  return t.is_numeric() || t.is_boolean() || t.is_null() || t.is_list_like() || t.id() == TypeId::Struct;
}

void check_fields(ArithOp op, const DataType& t) {
  if (t.id() != TypeId::Struct) return;
  for (const auto& f : t.fields())
    if (!arithmetic_field(f.dtype))
      throw InvalidOperationError(err_msg("cannot ", arith_op_symbol(op), " a struct with non-numeric field: (field: ",
                                          f.name, ", dtype: ", f.dtype.short_name(), ")"));
}

// The two operands' dtypes once they meet as plain arithmetic's type coercion makes them
// meet (a list's leaves in their supertype, each side keeping its nesting).
std::pair<DataType, DataType> coerced(const DataType& a, const DataType& b) {
  if (is_list_arith(a, b)) {
    auto leaf = get_supertype(leaf_dtype(a), leaf_dtype(b));
    if (!leaf) return {a, b};
    return {with_leaf(a, *leaf), with_leaf(b, *leaf)};
  }
  if (a.is_null() || b.is_null() || a == b) return {a, b};
  auto s = get_supertype(a, b);
  if (!s) return {a, b};
  return {*s, *s};
}

DataType pair_dtype(ArithOp op, const DataType& a, const DataType& b) {
  if (is_struct_arith(a, b)) return struct_arith_dtype(op, a, b);
  auto [x, y] = coerced(a, b);
  return arith_result_dtype(op, x, y);
}

ArrayRef pair_arith(ArithOp op, const ArrayRef& a, const ArrayRef& b) {
  if (is_struct_arith(a->dtype(), b->dtype())) return struct_arith(op, *a, *b);
  auto [x, y] = coerced(a->dtype(), b->dtype());
  ArrayRef ca = x == a->dtype() ? a : cast(*a, x);
  ArrayRef cb = y == b->dtype() ? b : cast(*b, y);
  return arith(op, *ca, *cb);
}

// Which field of each side meets which: out[k] = {left field, right field}; -1 is the whole
// non-struct operand. Names come from the left struct (the right one when only it is one).
// A right struct of one field applied to every left field is read as a value, as Polars
// does: its null rows give null fields, not null rows.
struct Pairing {
  std::vector<std::pair<int, int>> pairs;
  std::vector<std::string> names;
  bool right_rows_null = true;
};

Pairing pair_fields(ArithOp op, const DataType& l, const DataType& r) {
  Pairing p;
  const bool ls = l.id() == TypeId::Struct, rs = r.id() == TypeId::Struct;
  if (ls && rs) {
    const size_t nl = l.fields().size(), nr = r.fields().size();
    if (nl == nr || nr == 1) {
      p.right_rows_null = nr > 1;
      for (size_t k = 0; k < nl; ++k) {
        p.pairs.push_back({static_cast<int>(k), nr == 1 ? 0 : static_cast<int>(k)});
        p.names.push_back(l.fields()[k].name);
      }
    } else if (nl == 1) {
      // Polars names every result field after the one left field.
      if (nr > 1) throw DuplicateError(err_msg("multiple fields with name '", l.fields()[0].name, "' found"));
    } else {
      throw InvalidOperationError(err_msg("cannot ", arith_op_name(op), " two structs of different length (left: ", nl,
                                          ", right: ", nr, ")"));
    }
    return p;
  }
  const DataType& s = ls ? l : r;
  for (size_t k = 0; k < s.fields().size(); ++k) {
    p.pairs.push_back(ls ? std::pair<int, int>{static_cast<int>(k), -1} : std::pair<int, int>{-1, static_cast<int>(k)});
    p.names.push_back(s.fields()[k].name);
  }
  return p;
}

const DataType& side_dtype(const DataType& t, int field) { return field < 0 ? t : t.fields()[field].dtype; }

}  // namespace

bool is_struct_arith(const DataType& l, const DataType& r) {
  return l.id() == TypeId::Struct || r.id() == TypeId::Struct;
}

DataType struct_arith_dtype(ArithOp op, const DataType& l, const DataType& r) {
  check_fields(op, l);
  check_fields(op, r);
  const Pairing p = pair_fields(op, l, r);
  std::vector<Field> fields;
  for (size_t k = 0; k < p.pairs.size(); ++k)
    fields.push_back({p.names[k], pair_dtype(op, side_dtype(l, p.pairs[k].first), side_dtype(r, p.pairs[k].second))});
  return DataType::struct_(std::move(fields));
}

ArrayRef struct_arith(ArithOp op, const Array& left, const Array& right) {
  const DataType out = struct_arith_dtype(op, left.dtype(), right.dtype());
  const int64_t n = detail::broadcast_length(left, right, arith_op_symbol(op));
  if (left.dtype().is_null() || right.dtype().is_null()) return make_null_array(out, n);
  const Pairing p = pair_fields(op, left.dtype(), right.dtype());
  const bool ls = left.dtype().id() == TypeId::Struct, rs = right.dtype().id() == TypeId::Struct;
  // Fields read with their struct's nulls, so that a null row's leftover values never reach
  // a kernel that could fail on them (list lengths, negative powers).
  const std::vector<ArrayRef> lf = ls ? struct_fields(left) : std::vector<ArrayRef>{};
  const std::vector<ArrayRef> rf = rs ? struct_fields(right) : std::vector<ArrayRef>{};
  const ArrayRef lwhole = left.slice(0, left.length()), rwhole = right.slice(0, right.length());
  std::vector<Field> fields;
  std::vector<ArrayRef> children;
  for (size_t k = 0; k < p.pairs.size(); ++k) {
    const auto [a, b] = p.pairs[k];
    ArrayRef child = pair_arith(op, a < 0 ? lwhole : lf[a], b < 0 ? rwhole : rf[b]);
    fields.push_back({p.names[k], child->dtype()});
    children.push_back(std::move(child));
  }
  // A row is null where a struct operand's row is (see Pairing for the right one).
  const bool rnull = rs && p.right_rows_null;
  ValidityBuilder valid;
  if ((ls && left.null_count() > 0) || (rnull && right.null_count() > 0))
    for (int64_t i = 0; i < n; ++i) {
      const int64_t x = left.length() == 1 ? 0 : i, y = right.length() == 1 ? 0 : i;
      valid.push((!ls || left.is_valid(x)) && (!rnull || right.is_valid(y)));
    }
  const int64_t nulls = valid.null_count();
  Buffer validity = valid.finish();
  return Array::make(DataType::struct_(std::move(fields)), n, std::move(validity), {}, std::move(children), 0, nulls);
}

}  // namespace frazil::compute
