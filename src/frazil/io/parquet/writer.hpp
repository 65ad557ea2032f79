// write_parquet: a DataFrame to a Parquet file — v1 data pages, PLAIN values, RLE levels,
// RLE_DICTIONARY for strings/binary where the dictionary pays, chunk statistics
// (min/max/null_count) and logical types that pyarrow, polars and duckdb read back.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/io/fs/output_file.hpp"

namespace frazil::io::parquet {

enum class ParquetCompression {
  Uncompressed,
  Snappy,
  Gzip,
  Lz4,        // LZ4_RAW
  Zstd,
  Lz4Hadoop,  // the deprecated Hadoop-framed LZ4 codec, for compatibility tests only
  Brotli,
};

struct ParquetWriteOptions {
  ParquetCompression compression = ParquetCompression::Zstd;
  // The codec's level, checked against its range as Polars does (zstd 1..=22, gzip 0..=9,
  // brotli 0..=11); unset: the codec's default (zstd 3, gzip 6, brotli 1).
  std::optional<int> compression_level;
  int64_t row_group_size = 512 * 512;  // rows per row group
  int64_t data_page_size = 1 << 20;    // target uncompressed bytes per data page
  bool statistics = true;
  bool dictionary = true;              // dictionary-encode string/binary columns when it pays
};

// A streaming writer (what sink_parquet uses): batches are gathered into row groups of
// row_group_size rows, each written as soon as it is full, so memory stays bounded by one
// row group. Written to a path, the file replaces the target only at finish(); abort() (or
// destruction before finish) leaves the target as it was.
class ParquetWriter {
 public:
  // Throws InvalidOperationError for options out of range, OsError when `path` cannot be
  // created.
  ParquetWriter(const std::string& path, Schema schema, ParquetWriteOptions options = {});
  ParquetWriter(OutputStream& out, Schema schema, ParquetWriteOptions options = {});
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  // Throws SchemaError when the batch's columns differ from the schema's.
  void write_batch(const DataFrame& batch);
  void finish();
  void abort() noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Throws IOError naming the path when it cannot be written, InvalidOperationError for
// options out of range.
void write_parquet(const DataFrame& df, const std::string& path, const ParquetWriteOptions& options = {});
// The same bytes, in memory.
std::vector<uint8_t> write_parquet_to_buffer(const DataFrame& df, const ParquetWriteOptions& options = {});

// The key of the footer metadata entry in which frazil records its dtypes (so that
// Duration and time-zone names survive a round trip).
inline constexpr const char* kFrazilSchemaKey = "frazil:schema";

}  // namespace frazil::io::parquet
