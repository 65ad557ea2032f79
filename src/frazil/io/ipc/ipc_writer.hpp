// Writing the Arrow IPC formats: the file format (Feather v2) or the stream format, one
// record batch per batch written (cut to record_batch_size rows when set), with LZ4 or
// ZSTD body compression. Written to a path, the file replaces the target only at
// finish() (io/fs/output_file).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "frazil/core/frame.hpp"
#include "frazil/io/fs/output_file.hpp"
#include "frazil/io/ipc/ipc_compression.hpp"

namespace frazil::io::ipc {

struct IpcWriteOptions {
  IpcCompression compression = IpcCompression::Uncompressed;
  std::optional<int> compression_level;
  // Large strings/binary instead of views, for readers older than views (Polars'
  // CompatLevel.oldest()).
  bool compat_oldest = false;
  int64_t record_batch_size = 0;  // 0: one record batch per write_batch call
  bool stream = false;            // the stream format instead of the file format
  // The output file's write buffer (counted against the memory limit): spill files, many
  // open at once, take a small one.
  size_t file_buffer_bytes = size_t{1} << 20;
};

class IpcWriter {
 public:
  IpcWriter(const std::string& path, Schema schema, IpcWriteOptions options = {});
  IpcWriter(OutputStream& out, Schema schema, IpcWriteOptions options = {});
  ~IpcWriter();
  IpcWriter(const IpcWriter&) = delete;
  IpcWriter& operator=(const IpcWriter&) = delete;

  // Throws SchemaError when the batch's columns differ from the schema's.
  void write_batch(const DataFrame& batch);
  void finish();
  void abort() noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

void write_ipc(const DataFrame& df, const std::string& path, const IpcWriteOptions& options = {});
std::string write_ipc_to_string(const DataFrame& df, const IpcWriteOptions& options = {});

}  // namespace frazil::io::ipc
