// Elementwise comparison kernels -> Boolean. Operands have one dtype (after coercion);
// length-1 operands broadcast. Floats compare by total order: NaN equals NaN and is greater
// than every number, -0.0 equals 0.0. Strings and binary compare bytewise.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

enum class CmpOp { Eq, NotEq, Lt, LtEq, Gt, GtEq, EqMissing, NotEqMissing };

const char* cmp_op_symbol(CmpOp op);  // "==", "!=", "<", "<=", ">", ">=", "eq_missing", "ne_missing"

// Eq..GtEq: null if either side is null. EqMissing/NotEqMissing: nulls compare equal to
// each other and unequal to values; the result is never null.
ArrayRef compare(CmpOp op, const Array& left, const Array& right);

// Whether each x is among `values` (same dtype as x). Null handling follows the installed
// Polars (`pl.Series([1, None]).is_in([1])`), checked by a test.
ArrayRef is_in(const Array& x, const Array& values);

// lo <= x <= hi style with closed = "both" | "left" | "right" | "none".
ArrayRef is_between(const Array& x, const Array& lo, const Array& hi, const std::string& closed);

}  // namespace frazil::compute
