// Arrow format strings <-> frazil dtypes. Export writes the format of a frazil dtype;
// import reads a format and says how its buffers are laid out, so that the importer
// knows whether it can share them or must convert.
#pragma once

#include <cstdint>
#include <string>

#include "frazil/core/dtype.hpp"

namespace frazil::io {

// The Arrow format string of a frazil dtype: "l", "vu", "tsu:UTC", "d:10,2", "+L", "+s".
std::string arrow_format(const DataType& dtype);

// How an imported Arrow type's buffers are laid out.
enum class ArrowLayout {
  Null,            // no buffers
  Boolean,         // validity, bits
  Fixed,           // validity, values: same layout as the frazil dtype (zero-copy)
  ScaledInt32,     // validity, int32 values to be multiplied by `factor` into int64 (time32)
  ScaledInt64,     // validity, int64 values to be multiplied by `factor` (time64[us], ts[s])
  Utf8,            // validity, int32 offsets, data
  LargeUtf8,       // validity, int64 offsets, data
  View,            // validity, views, data buffers..., int64 data buffer sizes
  FixedSizeBinary, // validity, values of `fixed_size` bytes
  List,            // validity, int32 offsets; one child
  LargeList,       // validity, int64 offsets; one child
  FixedSizeList,   // validity; one child with `fixed_size` values per slot
  Struct,          // validity; one child per field
};

struct ArrowFormat {
  ArrowLayout layout;
  // The frazil dtype for leaf layouts; for nested layouts only its id (List or Struct):
  // the children's dtypes come from the child schemas.
  DataType dtype;
  int64_t fixed_size = 0;  // FixedSizeBinary byte width, FixedSizeList list size
  int64_t factor = 1;      // ScaledInt32 / ScaledInt64 multiplier
};

// Parses a format string; throws InvalidOperationError naming `column` and the format
// for types frazil cannot hold (unions, intervals, float16, decimal256, run-end, ...).
ArrowFormat parse_arrow_format(const char* format, const std::string& column);

// True for formats of integer types usable as dictionary indices ("c", "C", ..., "L").
bool is_arrow_integer_format(const char* format, int* byte_width, bool* is_signed);

}  // namespace frazil::io
