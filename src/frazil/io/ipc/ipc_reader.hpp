// Reading the Arrow IPC formats: the file format (Feather v2: record batches found through
// the footer, read one by one) and the stream format (messages in order). A memory-mapped
// uncompressed file is read without copying: the frames' buffers are slices of the map.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/core/schema.hpp"
#include "frazil/io/fs/input_file.hpp"

namespace frazil::io::ipc {

struct IpcSchema;
struct IpcDictionaries;

struct IpcReadOptions {
  std::optional<std::vector<std::string>> columns;  // in this order; all when unset
  std::optional<int64_t> n_rows;
  bool memory_map = true;
};

class IpcFileReader {
 public:
  // Throws OsError for a missing file, ComputeError naming the file when it is not an
  // Arrow IPC file, InvalidOperationError for a column type frazil cannot hold.
  static std::shared_ptr<IpcFileReader> open(const std::string& path, bool memory_map = true);
  static std::shared_ptr<IpcFileReader> open(std::shared_ptr<InputFile> input);
  ~IpcFileReader();

  const Schema& schema() const;
  size_t num_batches() const { return batches_.size(); }
  // Rows of batch i (from its message header; the body is not read).
  int64_t batch_rows(size_t i) const;
  int64_t num_rows() const;
  // Batch i with the given top-level columns (nullptr: all). Thread-safe.
  DataFrame read_batch(size_t i, const std::vector<std::string>* columns = nullptr) const;

 private:
  IpcFileReader() = default;
  std::shared_ptr<InputFile> in_;
  std::unique_ptr<IpcSchema> schema_;
  std::vector<int64_t> batches_;  // where each record batch message starts
  std::unique_ptr<IpcDictionaries> dictionaries_;
};

// The stream format, read message by message.
class IpcStreamReader {
 public:
  static std::unique_ptr<IpcStreamReader> open(std::shared_ptr<InputFile> input);
  ~IpcStreamReader();
  const Schema& schema() const;
  // The next record batch (dictionary messages before it are applied), or nullopt at
  // the end of the stream.
  std::optional<DataFrame> next(const std::vector<std::string>* columns = nullptr);

 private:
  IpcStreamReader() = default;
  std::shared_ptr<InputFile> in_;
  std::unique_ptr<IpcSchema> schema_;
  std::unique_ptr<IpcDictionaries> dictionaries_;
  int64_t pos_ = 0;
  bool done_ = false;
};

// Whether the bytes start with the file format's magic ("ARROW1").
bool is_ipc_file(const InputFile& input);

// A whole file or stream (told apart by the magic) as one frame.
DataFrame read_ipc(std::shared_ptr<InputFile> input, const IpcReadOptions& options = {});
DataFrame read_ipc(const std::string& path, const IpcReadOptions& options = {});
Schema read_ipc_schema(std::shared_ptr<InputFile> input);
Schema read_ipc_schema(const std::string& path);

}  // namespace frazil::io::ipc
