// Order-preserving row encoding (Polars' `_row_encode` / `_row_decode`): each row of one or
// more columns becomes one byte string, and comparing two such strings with memcmp orders
// the rows as a multi-column sort with the given per-column descending / nulls_last would.
// The encoding is decodable back into the columns when the dtypes are known.
//
// Per column and row: a validity byte (null: 0x00 when nulls come first, 0xFF when last;
// valid: 0x01), then, for a valid value, its body, with every body byte inverted for a
// descending column. Bodies:
//   Boolean                 1 byte (0 / 1)
//   integers, temporals     big-endian, sign bit flipped for signed types
//   floats                  -0.0 -> 0.0, one NaN (above +inf); sign-magnitude made monotone
//   Decimal/Int128/UInt128  16 bytes big-endian, sign flipped for signed
//   Categorical/Enum        the uint32 code (an Enum's code order is its order)
//   String/Binary           bytes with 0x00 escaped as 0x00 0x01, ended by 0x00 0x00
//   List                    per element 0x01 then the element, then 0x00
//   Struct                  each field as an element
// An element (inside a List or Struct) is a validity byte (0x00 null, 0x01 valid) and its
// ascending body: nested nulls come first ascending and last descending, as in Polars.
#pragma once

#include <string>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

struct RowEncodingField {
  bool descending = false;
  bool nulls_last = false;
};

// One Binary value per row (never null). `fields` is empty (every column ascending, nulls
// first) or one per column. The columns have one length (a one-row column broadcasts).
ArrayRef row_encode(const std::vector<ArrayRef>& columns, const std::vector<RowEncodingField>& fields);

// The columns back from `encoded` (Binary), given their dtypes and the fields they were
// encoded with. A null or malformed row raises ComputeError naming the row.
std::vector<ArrayRef> row_decode(const Array& encoded, const std::vector<DataType>& dtypes,
                                 const std::vector<RowEncodingField>& fields);

// Whether `dtype` can be row-encoded (the others raise InvalidOperationError).
bool row_encodable(const DataType& dtype);

}  // namespace frazil::compute
