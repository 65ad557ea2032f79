// Decodes one column chunk (a leaf of one row group): walks its pages, decompresses
// them, decodes repetition/definition levels and values straight into frazil buffers.
#pragma once

#include <cstdint>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/buffer.hpp"
#include "frazil/io/parquet/metadata.hpp"
#include "frazil/io/parquet/schema.hpp"

namespace frazil::io::parquet {

struct LeafResult {
  std::vector<int16_t> def;  // empty when max_def == 0
  std::vector<int16_t> rep;  // empty when max_rep == 0
  int64_t num_levels = 0;
  // `spaced`: one slot per level (nulls where def < max_def, validity set);
  // dense: only the non-null values, no validity.
  ArrayRef values;
};

struct ChunkReadOptions {
  bool dense = false;        // values for nested assembly
  int64_t row_limit = -1;    // stop after this many rows (-1: all)
  // False when nothing needs the definition levels (a top-level primitive column):
  // levels of a max-1 column then decode straight into the validity bitmap.
  bool levels_needed = true;
};

// Decodes `chunk` (the bytes of the column chunk, from its first page to its end).
// Throws DecodeError / CodecError / ThriftError on malformed input; the caller adds
// the file, row group and column to the message.
LeafResult read_column_chunk(const LeafColumn& leaf, const ColumnMetaData& meta, const Buffer& chunk,
                             const ChunkReadOptions& options);

}  // namespace frazil::io::parquet
