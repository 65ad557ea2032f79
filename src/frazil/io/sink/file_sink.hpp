// FileSink: where a streaming sink_* writes, whatever the format. The executor hands it the
// query's output batch by batch in row order (write), then finish() writes the file's end
// and renames it over the target (io/fs/output_file); a failure anywhere calls abort(),
// which removes only the temporary file. Memory stays bounded by what the writer buffers
// (one Parquet row group; nothing for CSV, NDJSON and IPC).
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "frazil/core/frame.hpp"
#include "frazil/io/csv/csv_options.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"
#include "frazil/io/parquet/writer.hpp"

namespace frazil::io {

class FileSink {
 public:
  virtual ~FileSink() = default;
  virtual void write(const DataFrame& batch) = 0;
  virtual void finish() = 0;
  virtual void abort() noexcept = 0;
};

struct NdjsonWriteOptions {
  bool json_array = false;  // one JSON array (write_json) instead of one object per line
};

using SinkOptions = std::variant<CsvWriteOptions, parquet::ParquetWriteOptions, ipc::IpcWriteOptions, NdjsonWriteOptions>;

// A sink writing `path` in the format the options name. Throws OsError when the path
// cannot be created, InvalidOperationError for options out of range.
std::unique_ptr<FileSink> make_file_sink(const std::string& path, const Schema& schema, const SinkOptions& options);

}  // namespace frazil::io
