// One spilled run of rows: batches written to an Arrow IPC file with LZ4 bodies in the
// spill directory, then read back batch by batch (one batch in memory at a time). The file
// is removed when the SpillFile is destroyed, however the query ends.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "frazil/core/frame.hpp"

namespace frazil::io::ipc {
class IpcWriter;
class IpcFileReader;
}  // namespace frazil::io::ipc

namespace frazil::exec::spill {

class SpillFile {
 public:
  // `prefix` names the owner in the file name ("sort", "group-by").
  SpillFile(const std::string& prefix, Schema schema);
  ~SpillFile();
  SpillFile(const SpillFile&) = delete;
  SpillFile& operator=(const SpillFile&) = delete;

  const std::string& path() const { return path_; }
  const Schema& schema() const { return schema_; }
  // Appends a batch (before finish()); empty batches are skipped.
  void write(const DataFrame& batch);
  // Closes the file for writing; then it can be read.
  void finish();
  int64_t rows() const { return rows_; }
  int64_t bytes_on_disk() const;
  size_t num_batches() const;
  DataFrame read_batch(size_t i) const;
  // Every batch as one frame (for callers that know it fits).
  DataFrame read_all() const;

 private:
  std::string path_;
  Schema schema_;
  std::unique_ptr<io::ipc::IpcWriter> writer_;
  std::shared_ptr<io::ipc::IpcFileReader> reader_;
  int64_t rows_ = 0;
};

}  // namespace frazil::exec::spill
