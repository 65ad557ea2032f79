// Record batches of the Arrow IPC format: a RecordBatch message (array lengths and null
// counts in pre-order, and where each buffer lies in the body) with its body.
//
// Decoding builds Arrow C Data Interface arrays whose buffers point into the body (zero
// copy when the body is uncompressed, e.g. a memory-mapped file) and imports them with
// io/arrow/import, which shares frazil's layouts and converts the others. Every length the
// import will read is checked against the buffer sizes first.
//
// Encoding writes frazil's arrays as they are (views, large lists, ...), or with large
// strings in place of views for readers that predate views.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/io/ipc/format/Message_generated.h"
#include "frazil/io/ipc/ipc_compression.hpp"
#include "frazil/io/ipc/ipc_schema.hpp"

namespace frazil::io::ipc {

// Dictionaries by id, as frazil arrays of their values.
using DictionaryMap = std::unordered_map<int64_t, ArrayRef>;

// The frame of a record batch: the top-level fields `columns` (indices into
// schema.fields, in that order; nullptr: all). Throws ComputeError naming `context` for
// malformed input.
DataFrame decode_batch(const IpcSchema& schema, const fb::RecordBatch* batch, const Buffer& body,
                       const DictionaryMap& dictionaries, const std::vector<size_t>* columns,
                       const std::string& context);

// Adds (or, for a delta, appends to) the dictionary of a DictionaryBatch message.
void decode_dictionary(const IpcSchema& schema, const fb::DictionaryBatch* batch, const Buffer& body,
                       DictionaryMap& dictionaries, const std::string& context);

class IpcDictionaries;

struct EncodeOptions {
  IpcCompression compression = IpcCompression::Uncompressed;
  std::optional<int> compression_level;
  bool compat_oldest = false;  // large strings/binary instead of views
  // Where Categorical/Enum columns find their dictionary indices (required when the
  // frame has such columns).
  const IpcDictionaries* dictionaries = nullptr;
};

// A record batch's body as the pieces to write, each followed by zeros up to a multiple
// of 8: uncompressed buffers are written from the arrays themselves (kept alive here),
// made ones (compressed, rebased offsets, compacted strings) from `owned`.
struct BatchBody {
  struct Piece {
    const uint8_t* data;
    size_t size;
  };
  std::vector<Piece> pieces;
  std::deque<std::vector<uint8_t>> owned;
  std::vector<ArrayRef> keep;
  int64_t length = 0;  // with the padding
};

// A RecordBatch message (into `fbb`, finished) and its body.
void encode_batch(const DataFrame& df, const EncodeOptions& options, flatbuffers::FlatBufferBuilder& fbb,
                  BatchBody& body);

// A DictionaryBatch message of dictionary `id` holding `values` (a String array), a delta
// when it extends the dictionary written before.
void encode_dictionary_batch(int64_t id, const ArrayRef& values, bool delta, const EncodeOptions& options,
                             flatbuffers::FlatBufferBuilder& fbb, BatchBody& body);

}  // namespace frazil::io::ipc
