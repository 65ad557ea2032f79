// Arrow interoperability in C++: frames to and from the Arrow C Data Interface and the
// Arrow C Stream Interface (https://arrow.apache.org/docs/format/CDataInterface.html), the
// ABI that pyarrow, Polars, DuckDB, nanoarrow and Arrow C++ all speak.
//
//   ArrowArrayStream stream;
//   frazil::to_arrow_stream(df, &stream);          // zero-copy; the consumer releases it
//   frazil::DataFrame back = frazil::from_arrow_stream(&stream);  // takes ownership
//
// Ownership follows the specification: an exported struct owns references to frazil's
// buffers until its consumer calls `release`; an imported struct is moved out of (its
// `release` is set to null) and released by frazil when the last buffer using it goes.
#pragma once

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/io/arrow/c_abi.hpp"
#include "frazil/io/arrow/export.hpp"

namespace frazil {

// How strings and binary leave: View (Utf8View/BinaryView, zero-copy, the default),
// Large (large_string/large_binary, what older consumers and pyarrow compute functions
// take; copies the bytes) or Regular (string/binary with 32-bit offsets).
using io::ArrowStringLayout;

// A frame as a stream of record batches (struct arrays), one batch per run of rows that
// every column holds in one chunk. Lists leave as large lists. `out` must be
// uninitialised or released.
void to_arrow_stream(const DataFrame& df, ArrowArrayStream* out, ArrowStringLayout strings = ArrowStringLayout::View);
// Collects `lf` and exports the result.
void to_arrow_stream(const LazyFrame& lf, ArrowArrayStream* out, ArrowStringLayout strings = ArrowStringLayout::View);
// Every batch of the stream as one frame (one chunk per batch); the stream is released.
// A producer's error (get_next failing) becomes a ComputeError with its message.
DataFrame from_arrow_stream(ArrowArrayStream* stream);

// One frame as one record batch: its schema (a struct) and its array.
void to_arrow_schema(const Schema& schema, ArrowSchema* out, ArrowStringLayout strings = ArrowStringLayout::View);
void to_arrow_array(const DataFrame& df, ArrowArray* out, ArrowStringLayout strings = ArrowStringLayout::View);
// A struct array with its schema as a frame; takes ownership of `*array`, reads `schema`.
DataFrame from_arrow_array(ArrowArray* array, const ArrowSchema* schema);

}  // namespace frazil
