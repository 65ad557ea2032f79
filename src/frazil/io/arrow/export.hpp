// Export to the Arrow C Data Interface. Nothing is copied: the exported structs point at
// frazil's buffers and keep them alive until the consumer calls `release`.
// Strings and binary go out as views ("vu"/"vz"), lists as large lists ("+L").
#pragma once

#include <string>

#include "frazil/core/array.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/arrow/c_abi.hpp"

namespace frazil::io {

// The schema of one field (nullable). `out` must be uninitialised or released.
void export_schema(const DataType& dtype, const std::string& name, ArrowSchema* out);
// A frame's schema: a struct ("+s") with one child per column, as record batches use.
void export_schema(const Schema& schema, ArrowSchema* out);
// One array, zero-copy.
void export_array(const ArrayRef& array, ArrowArray* out);
// A frame as one struct array (a record batch) of `df.height()` rows; columns made of
// several chunks are concatenated first (the only case that copies).
void export_frame(const DataFrame& df, ArrowArray* out);

}  // namespace frazil::io
