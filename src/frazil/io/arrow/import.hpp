// Import from the Arrow C Data Interface. Buffers whose layout frazil shares (numbers,
// booleans, temporals, decimal128, views, large lists, structs) are used in place and
// kept alive by one owner that calls the producer's `release` exactly once, when the
// last frazil buffer pointing into it goes away. Other layouts are converted: utf8 and
// binary offsets become views over the producer's data buffer, int32 list offsets become
// int64, dictionaries are decoded, time32 and second units are rescaled.
//
// Errors: an Arrow type frazil cannot hold -> InvalidOperationError naming the column
// and the format; malformed input (negative lengths, missing buffers, offsets out of
// order, views out of bounds) or non-UTF-8 strings -> ComputeError naming the column.
#pragma once

#include <string>

#include "frazil/core/array.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/arrow/c_abi.hpp"

namespace frazil::io {

struct ArrowImportOptions {
  // Check that string data is UTF-8. Off only for producers whose string type guarantees
  // it (Polars; pyarrow arrays built by pyarrow), whose data is then shared unread.
  // Structure (lengths, offsets, view bounds) is always checked.
  bool validate_utf8 = true;
};

// The frazil dtype of a schema node (a dictionary-encoded one gives its values' dtype).
DataType import_dtype(const ArrowSchema* schema, const std::string& column);
// A frame's schema from a struct schema ("+s"): one field per child.
Schema import_schema(const ArrowSchema* schema);

// Takes ownership of `*array` (the struct is moved out and `array->release` set to
// null, also when an error is thrown); `schema` is only read.
ArrayRef import_array(ArrowArray* array, const ArrowSchema* schema, const std::string& column,
                      const ArrowImportOptions& options = {});
// A struct array (a record batch) as a frame; the same ownership rule as import_array.
// Nulls of the struct itself, if any, are pushed down into the columns.
DataFrame import_frame(ArrowArray* array, const ArrowSchema* schema, const ArrowImportOptions& options = {});

}  // namespace frazil::io
