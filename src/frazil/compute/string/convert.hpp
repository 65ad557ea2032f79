// Text to numbers and bytes (Polars' str.to_integer, str.to_decimal, str.encode,
// str.decode): Rust's from_str_radix rules for integers, hex and standard base64.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil::compute {

// An integer of dtype `to` in `base` (an Int array of one value or one per row, 2..36):
// an optional sign, then digits only. strict: an unparsable value raises ComputeError
// listing the failures with Rust's reason; otherwise it becomes null.
ArrayRef str_to_integer(const Array& values, const Array& base, const DataType& to, bool strict);
// Decimal(38, scale), half to even (unparsable text becomes null).
ArrayRef str_to_decimal(const Array& values, int scale);
// encoding: "hex" (lower case) or "base64" (standard alphabet, padded).
ArrayRef str_encode(const Array& values, const std::string& encoding);
// Binary from "hex" / "base64" text; strict: invalid text raises ComputeError.
ArrayRef str_decode(const Array& values, const std::string& encoding, bool strict);

}  // namespace frazil::compute
