// Arithmetic with a List or Array on one side or both, as Polars: two lists combine element
// by element (their lengths must match row by row); a list and a number (or a list and a
// list of one level more) apply the number to each element. A null row on either side gives
// a null row; a null number gives null elements. (Array with Array of one width is
// arithmetic.cpp's array_arith.)
#pragma once

#include "frazil/compute/arithmetic.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// Polars' operation names in its nested-arithmetic messages ("add", "div", "rem", ...).
const char* arith_op_name(ArithOp op);
// Whether `l op r` is list arithmetic (a List or Array on either side, not Array with Array).
bool is_list_arith(const DataType& l, const DataType& r);
// The result dtype: the container(s) around the arithmetic of the leaf dtypes;
// InvalidOperationError (Polars' messages) for non-numeric leaves or mismatched nesting.
DataType list_arith_dtype(ArithOp op, const DataType& l, const DataType& r);
// `l` and `r` with their leaf dtype replaced by `leaf` (the cast targets of type coercion).
DataType with_leaf(const DataType& t, const DataType& leaf);
// The innermost non-list dtype.
const DataType& leaf_dtype(const DataType& t);
ArrayRef list_arith(ArithOp op, const Array& left, const Array& right);

}  // namespace frazil::compute
