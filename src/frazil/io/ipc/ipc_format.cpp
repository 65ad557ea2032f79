#include "frazil/io/ipc/ipc_format.hpp"

#include "frazil/io/ipc/ipc_reader.hpp"

namespace frazil::io::ipc {

namespace {

std::shared_ptr<InputFile> input_of(const ScanInput& in, bool memory_map) {
  return in.in_memory ? InputFile::from_buffer(in.bytes, in.path) : InputFile::open(in.path, memory_map);
}

}  // namespace

Schema IpcFormat::schema(const ScanInput& in) { return read_ipc_schema(input_of(in, memory_map_)); }

DataFrame IpcFormat::read(const ScanInput& in, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                          const ReadHints&) {
  IpcReadOptions o;
  o.columns = columns;
  o.n_rows = n_rows;
  o.memory_map = memory_map_;
  DataFrame df = read_ipc(input_of(in, memory_map_), o);
  // No columns: read_ipc's frames still carry the batches' heights.
  return df;
}

}  // namespace frazil::io::ipc
