#include "frazil/exec/spill/spill_file.hpp"

#include <filesystem>

#include "frazil/core/error.hpp"
#include "frazil/exec/spill/spill_directory.hpp"
#include "frazil/io/ipc/ipc_reader.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"

namespace frazil::exec::spill {

SpillFile::SpillFile(const std::string& prefix, Schema schema)
    : path_(new_spill_path(prefix)), schema_(std::move(schema)) {
  io::ipc::IpcWriteOptions options;
  options.compression = io::ipc::IpcCompression::Lz4;
  // A spilling sink keeps a file per partition open (up to hundreds): 1 MiB write buffers
  // each were the largest memory the limit did not see.
  options.file_buffer_bytes = 32 << 10;
  writer_ = std::make_unique<io::ipc::IpcWriter>(path_, schema_, options);
}

SpillFile::~SpillFile() {
  reader_.reset();
  if (writer_) writer_->abort();  // removes the unfinished temporary file
  writer_.reset();
  std::error_code ec;
  std::filesystem::remove(path_, ec);
}

void SpillFile::write(const DataFrame& batch) {
  if (!writer_) throw InvalidOperationError(err_msg("spill file '", path_, "' was written after finish()"));
  if (batch.height() == 0) return;
  writer_->write_batch(batch);
  rows_ += batch.height();
}

void SpillFile::finish() {
  if (!writer_) return;
  writer_->finish();
  writer_.reset();
  // Read with pread, not mmap: mapped pages would count in RSS without passing the limit.
  reader_ = io::ipc::IpcFileReader::open(path_, /*memory_map=*/false);
}

int64_t SpillFile::bytes_on_disk() const {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path_, ec);
  return ec ? 0 : static_cast<int64_t>(n);
}

size_t SpillFile::num_batches() const { return reader_ ? reader_->num_batches() : 0; }

DataFrame SpillFile::read_batch(size_t i) const {
  if (!reader_) throw InvalidOperationError(err_msg("spill file '", path_, "' was read before finish()"));
  return reader_->read_batch(i);
}

DataFrame SpillFile::read_all() const {
  if (!reader_ || reader_->num_batches() == 0) return DataFrame::empty_with_schema(schema_);
  std::vector<DataFrame> parts;
  for (size_t i = 0; i < reader_->num_batches(); ++i) parts.push_back(reader_->read_batch(i));
  return concat_frames(parts);
}

}  // namespace frazil::exec::spill
