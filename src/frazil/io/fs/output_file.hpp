// Where writers put their bytes. OutputFile never leaves a half-written target behind: it
// writes a temporary file in the target's directory and renames it over the target only
// when commit() is called; on abort (or destruction without commit) it removes only that
// temporary file. A target that is not a regular file (a device such as /dev/null, a FIFO)
// is written in place, as Polars does, and never unlinked; a directory is refused.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "frazil/core/memory_reservation.hpp"

namespace frazil::io {

class OutputStream {
 public:
  virtual ~OutputStream() = default;
  // Throws OsError (an IOError) with the OS reason when the bytes cannot be written.
  virtual void write(const void* data, size_t size) = 0;
  void write(std::string_view text) { write(text.data(), text.size()); }
  virtual int64_t bytes_written() const = 0;
};

// Bytes kept in memory (write_* to a Python file-like object or to a string).
class MemoryOutput final : public OutputStream {
 public:
  using OutputStream::write;
  void write(const void* data, size_t size) override { data_.append(static_cast<const char*>(data), size); }
  int64_t bytes_written() const override { return static_cast<int64_t>(data_.size()); }
  const std::string& data() const { return data_; }
  std::string take() { return std::move(data_); }

 private:
  std::string data_;
};

class OutputFile final : public OutputStream {
 public:
  // Opens the temporary file (or the device / FIFO itself); throws OsError naming `path`
  // (ENOENT when its directory does not exist, EISDIR for a directory, EACCES, ...).
  // `buffer_bytes`: small writes are gathered into system calls of this size; the buffer
  // counts against the memory limit (a writer keeping many files open, a spilling
  // operator's partitions, asks for a small one).
  static constexpr size_t kDefaultBufferBytes = size_t{1} << 20;
  explicit OutputFile(std::string path, size_t buffer_bytes = kDefaultBufferBytes);
  ~OutputFile() override;  // abort() unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  using OutputStream::write;
  void write(const void* data, size_t size) override;
  int64_t bytes_written() const override { return written_; }

  // Flushes, closes and renames the temporary file over the target. Throws OsError (the
  // temporary file is removed and the old target kept) when any of it fails.
  void commit();
  // Drops what was written: removes the temporary file (never the target). Idempotent.
  void abort() noexcept;

  const std::string& path() const { return path_; }
  // Whether the bytes go straight to the target (a device or FIFO: no temporary file).
  bool in_place() const { return in_place_; }

 private:
  void flush_buffer();
  void write_fd(const char* data, size_t size);
  void open_temporary(int mode);
  void name_temporary();
  std::string temp_name() const;

  std::string path_;    // as given, for messages
  std::string target_;  // symlinks followed: what the rename replaces
  std::string temp_;    // the temporary file's name (empty while it is unnamed, O_TMPFILE)
  bool unnamed_ = false;
  bool in_place_ = false;
  bool done_ = false;
  int fd_ = -1;
  MemoryReservation buffer_memory_;
  std::vector<char> buffer_;
  size_t used_ = 0;
  int64_t written_ = 0;
};

}  // namespace frazil::io
