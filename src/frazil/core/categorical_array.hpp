// Conversions between Categorical/Enum code arrays and String arrays, at the core level so
// readers and writers (io/) can use them; compute/categorical builds the casts on them.
#pragma once

#include "frazil/core/array.hpp"

namespace frazil {

// Categorical/Enum -> String (null stays null).
ArrayRef decode_categorical(const Array& codes);
// String -> Categorical (new strings join the global mapping) or Enum (a string that is not
// one of its categories becomes null).
ArrayRef encode_categorical(const Array& strings, const DataType& to);

// `t` with every Categorical/Enum, at any depth of List and Struct, as String: the dtype a
// file format that stores categories as their strings holds (Parquet, CSV).
DataType strings_for_categories(const DataType& t);

}  // namespace frazil
