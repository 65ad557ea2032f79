// Kernels of Categorical and Enum arrays (uint32 codes over a Categories mapping).
#pragma once

#include <functional>

#include "frazil/core/array.hpp"

namespace frazil::compute {

// Categorical/Enum -> String (null stays null).
ArrayRef categorical_to_string(const Array& codes);
// String -> Categorical (new strings join the global mapping) or Enum (a string that is not
// a category becomes null: cast() turns that into Polars' strict error).
ArrayRef string_to_categorical(const Array& strings, const DataType& to);
// Categorical/Enum -> Categorical/Enum of other categories, through the strings.
ArrayRef recode_categorical(const Array& codes, const DataType& to);
// The codes as Polars' physical type: UInt32 for Categorical; UInt8/UInt16/UInt32 for an Enum
// of at most 2^8 / 2^16 / more categories.
DataType categorical_physical_dtype(const DataType& t);
ArrayRef categorical_physical(const Array& codes);
// Integers -> Categorical/Enum codes (cat.to): read as the physical type first (values
// outside it become null); a code past the mapping becomes null, or with strict raises a
// ComputeError.
ArrayRef categorical_from_physical(const Array& ints, const DataType& to, bool strict);
// UInt32 keys that order the rows as Polars sorts them: Enum by code (category order),
// Categorical lexically by string.
ArrayRef categorical_order_key(const Array& codes);
// f applied to the strings of `codes`: once per category and gathered by code when the
// mapping is no larger than the array (the cat.len_bytes / starts_with / slice speed-up),
// else on the decoded rows. f maps a String array to an array of the same length.
ArrayRef per_category(const Array& codes, const std::function<ArrayRef(const Array&)>& f);

}  // namespace frazil::compute
