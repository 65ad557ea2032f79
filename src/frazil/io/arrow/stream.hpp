// The Arrow C Stream Interface: a frame as a stream of record batches, and back.
#pragma once

#include "frazil/core/frame.hpp"
#include "frazil/io/arrow/c_abi.hpp"
#include "frazil/io/arrow/export.hpp"
#include "frazil/io/arrow/import.hpp"

namespace frazil::io {

// Exports a frame as a stream of struct arrays. Batches follow the columns' chunks: a
// batch boundary is placed wherever any column has a chunk boundary, so every column of
// every batch is a zero-copy slice of one chunk. A frame of height 0 yields no batches.
// `options.requested` is copied: it need not outlive this call.
void export_stream(const DataFrame& df, ArrowArrayStream* out, const ArrowExportOptions& options = {});

// Reads every batch of a stream into one frame (one chunk per batch). Takes ownership of
// `*stream` (moved out, `stream->release` set to null) and releases it when done, also
// when an error is thrown. A producer error becomes a ComputeError with its message.
DataFrame import_stream(ArrowArrayStream* stream, const ArrowImportOptions& options = {});

// A single column as a stream of its chunks (the stream's schema is the column's field,
// not a struct), and back: what pyarrow's ChunkedArray and a Polars Series exchange.
void export_column_stream(const Column& column, ArrowArrayStream* out, const ArrowExportOptions& options = {});
// Same ownership rule as import_stream; `name` is used when the schema has none.
Column import_column_stream(ArrowArrayStream* stream, const std::string& name,
                            const ArrowImportOptions& options = {});

}  // namespace frazil::io
