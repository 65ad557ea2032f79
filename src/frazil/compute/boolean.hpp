// Boolean and null-inspection kernels. AND/OR follow Kleene logic:
// false & null = false, true | null = true, otherwise null propagates.
// Binary kernels broadcast a length-1 operand; a Null-typed operand counts as all null.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

ArrayRef and_kleene(const Array& left, const Array& right);  // Boolean x Boolean
ArrayRef or_kleene(const Array& left, const Array& right);
ArrayRef xor_(const Array& left, const Array& right);        // null if either is null
ArrayRef not_(const Array& values);                          // Boolean

// Bitwise operators on integers (Polars' & | ^ ~ on integer columns); on Boolean operands
// they are the Kleene and_kleene / or_kleene / xor_ / not_.
ArrayRef bit_and(const Array& left, const Array& right);
ArrayRef bit_or(const Array& left, const Array& right);
ArrayRef bit_xor(const Array& left, const Array& right);
ArrayRef bit_not(const Array& values);

ArrayRef is_null(const Array& values);      // never null
ArrayRef is_not_null(const Array& values);  // never null
// Float inspection; null stays null. Integers (and temporals) give is_nan/is_infinite
// false and is_not_nan/is_finite true, as Polars; other dtypes raise InvalidOperationError.
ArrayRef is_nan(const Array& values);
ArrayRef is_not_nan(const Array& values);
ArrayRef is_finite(const Array& values);
ArrayRef is_infinite(const Array& values);

// Replace nulls with the value of `fill` (same dtype or Null, length 1 or equal length).
// String results share the inputs' data buffers (no byte copies).
ArrayRef fill_null(const Array& values, const Array& fill);
// Replace NaN with `fill` (floats; a null fill makes NaN null, as Polars). Integers are
// returned unchanged.
ArrayRef fill_nan(const Array& values, const Array& fill);
// if mask then a else b; mask nulls take b. All three broadcast from length 1; a and b
// have one dtype (or Null). Nested dtypes (List, Struct) go through take().
ArrayRef if_then_else(const Array& mask, const Array& a, const Array& b);

}  // namespace frazil::compute
