// Arrow IPC (file or stream format, told apart by the magic) as a FileScan format.
#pragma once

#include "frazil/io/dataset/file_scan.hpp"

namespace frazil::io::ipc {

class IpcFormat final : public FormatReader {
 public:
  explicit IpcFormat(bool memory_map = true) : memory_map_(memory_map) {}
  const char* format_name() const override { return "ipc"; }
  Schema schema(const ScanInput& input) override;
  DataFrame read(const ScanInput& input, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                 const ReadHints& hints) override;
  bool memory_map() const { return memory_map_; }  // (a serialized scan carries it)

 private:
  bool memory_map_;
};

}  // namespace frazil::io::ipc
