// Arithmetic with a Struct on one side or both, as Polars: two structs combine field by
// field in order (the result keeps the left struct's names; a struct of one field applies it
// to every field of the other), a struct and a non-struct apply the other operand to each
// field. A null struct row on either side gives a null row; a Null operand gives all nulls.
#pragma once

#include "frazil/compute/arithmetic.hpp"
#include "frazil/core/array.hpp"

namespace frazil::compute {

// Whether `l op r` is struct arithmetic (a Struct on either side).
bool is_struct_arith(const DataType& l, const DataType& r);
// The result dtype; InvalidOperationError (Polars' messages) for a non-numeric field or two
// structs of different field counts (neither of them one field).
DataType struct_arith_dtype(ArithOp op, const DataType& l, const DataType& r);
ArrayRef struct_arith(ArithOp op, const Array& left, const Array& right);

}  // namespace frazil::compute
