// Export to the Arrow C Data Interface. Nothing is copied: the exported structs point at
// frazil's buffers and keep them alive until the consumer calls `release`.
// Strings and binary go out as views ("vu"/"vz") unless asked otherwise (ArrowExportOptions:
// large_string/large_binary "U"/"Z" or string/binary "u"/"z", which copy the bytes into
// one contiguous buffer); lists go out as large lists ("+L").
#pragma once

#include <string>

#include "frazil/core/array.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/arrow/c_abi.hpp"

namespace frazil::io {

// The layout strings and binary leave in.
enum class ArrowStringLayout {
  View,     // Utf8View / BinaryView: zero-copy (what Polars and DuckDB use inside)
  Large,    // large_string / large_binary, int64 offsets (Polars' CompatLevel.oldest())
  Regular,  // string / binary, int32 offsets (fails past 2 GiB of bytes in one array)
};

struct ArrowExportOptions {
  ArrowStringLayout strings = ArrowStringLayout::View;
  // A consumer's requested schema (the PyCapsule protocol's requested_schema), read only
  // during the export: each string or binary field whose requested format is a view, a
  // large or a regular string/binary takes that layout; children are matched by position
  // and anything else in the request is ignored (a request is a best-effort hint).
  const ArrowSchema* requested = nullptr;
  // Streams only: every batch is exported when the stream is made, so that an error (the
  // memory limit) is thrown to the caller with its class instead of reaching the consumer
  // as an errno and a message (pyarrow's ArrowInvalid).
  bool prepare_all = false;
};

// The layout of a string/binary node given the options' default and the requested node.
ArrowStringLayout string_layout_for(ArrowStringLayout fallback, const ArrowSchema* requested);

// A copy of a schema's formats, names and children (no metadata, no dictionary) that the
// caller owns: a stream keeps its consumer's requested schema beyond the request's call.
void copy_schema_formats(const ArrowSchema* src, ArrowSchema* out);

// The schema of one field (nullable). `out` must be uninitialised or released.
void export_schema(const DataType& dtype, const std::string& name, ArrowSchema* out,
                   const ArrowExportOptions& options = {});
// A frame's schema: a struct ("+s") with one child per column, as record batches use.
void export_schema(const Schema& schema, ArrowSchema* out, const ArrowExportOptions& options = {});
// One array, zero-copy (except strings/binary exported as Large or Regular).
void export_array(const ArrayRef& array, ArrowArray* out, const ArrowExportOptions& options = {});
// A frame as one struct array (a record batch) of `df.height()` rows; columns made of
// several chunks are concatenated first.
void export_frame(const DataFrame& df, ArrowArray* out, const ArrowExportOptions& options = {});

}  // namespace frazil::io
