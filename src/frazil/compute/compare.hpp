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

// Whether each x is among `values` (same dtype as x, or Null). As Polars 2.1: a null x gives
// null (nulls_equal=false, the default) or whether `values` holds a null (nulls_equal=true);
// nulls in `values` never match a value. Floats match by total order (NaN matches NaN).
ArrayRef is_in(const Array& x, const Array& values, bool nulls_equal = false);

// lo <= x <= hi style with closed = "both" | "left" | "right" | "none"; lo and hi broadcast.
// Computed as (x >=/> lo) & (x <=/< hi) with Kleene AND, so a null bound gives null unless
// the other bound already makes the result false (Polars does the same).
ArrayRef is_between(const Array& x, const Array& lo, const Array& hi, const std::string& closed);

}  // namespace frazil::compute
