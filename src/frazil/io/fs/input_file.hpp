// InputFile: random-access bytes of a file, a memory map of it, or a buffer in memory (a
// Python BytesIO, a test), read as Buffers. A memory-mapped file hands out slices of the
// map, so readers that keep them (Arrow IPC) share the file's pages instead of copying.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "frazil/core/buffer.hpp"

namespace frazil::io {

class InputFile {
 public:
  // Throws OsError naming the path (FileNotFoundError in Python when it does not exist).
  static std::shared_ptr<InputFile> open(const std::string& path, bool memory_map);
  static std::shared_ptr<InputFile> from_buffer(Buffer bytes, std::string name);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& name() const { return name_; }
  int64_t size() const { return size_; }
  // Bytes [offset, offset + length); throws IOError when the range is outside the file.
  Buffer read(int64_t offset, int64_t length) const;
  // The whole file as one buffer (a slice of the map, or read once).
  Buffer read_all() const { return read(0, size_); }

 private:
  InputFile() = default;
  std::string name_;
  int fd_ = -1;
  Buffer whole_;  // the map or the in-memory bytes; empty when reading through fd_
  int64_t size_ = 0;
};

}  // namespace frazil::io
