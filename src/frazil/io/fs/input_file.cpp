#include "frazil/io/fs/input_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "frazil/core/error.hpp"
#include "frazil/core/file_not_found.hpp"
#include "frazil/core/os_error.hpp"

namespace frazil::io {

std::shared_ptr<InputFile> InputFile::open(const std::string& path, bool memory_map) {
  std::shared_ptr<InputFile> f(new InputFile());
  f->name_ = path;
  f->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f->fd_ < 0 && errno == ENOENT) throw_file_not_found(path);
  if (f->fd_ < 0) throw_os_error(path);
  struct stat st {};
  if (::fstat(f->fd_, &st) != 0) throw_os_error("cannot stat '" + path + "'");
  if (S_ISDIR(st.st_mode)) throw OsError(EISDIR, "cannot read '" + path + "'");
  f->size_ = static_cast<int64_t>(st.st_size);
  if (memory_map && S_ISREG(st.st_mode) && f->size_ > 0) {
    void* p = ::mmap(nullptr, static_cast<size_t>(f->size_), PROT_READ, MAP_PRIVATE, f->fd_, 0);
    if (p != MAP_FAILED) {
      const size_t len = static_cast<size_t>(f->size_);
      std::shared_ptr<const void> owner(p, [len](const void* q) { ::munmap(const_cast<void*>(q), len); });
      f->whole_ = Buffer::foreign(p, len, std::move(owner));
      ::close(f->fd_);
      f->fd_ = -1;
    }
  }
  return f;
}

std::shared_ptr<InputFile> InputFile::from_buffer(Buffer bytes, std::string name) {
  std::shared_ptr<InputFile> f(new InputFile());
  f->name_ = std::move(name);
  f->size_ = static_cast<int64_t>(bytes.size());
  f->whole_ = std::move(bytes);
  return f;
}

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

Buffer InputFile::read(int64_t offset, int64_t length) const {
  if (offset < 0 || length < 0 || offset > size_ || length > size_ - offset)
    throw IOError(err_msg("'", name_, "': range [", offset, ", +", length, ") is outside the file of ", size_,
                          " bytes"));
  if (length == 0) return Buffer::allocate(0);
  if (fd_ < 0) return whole_.slice(static_cast<size_t>(offset), static_cast<size_t>(length));
  Buffer out = Buffer::allocate(static_cast<size_t>(length));
  size_t done = 0;
  while (done < static_cast<size_t>(length)) {
    const ssize_t n = ::pread(fd_, out.mutable_data() + done, static_cast<size_t>(length) - done,
                              static_cast<off_t>(offset + static_cast<int64_t>(done)));
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_os_error("cannot read '" + name_ + "'");
    }
    if (n == 0) throw IOError(err_msg("'", name_, "' ended early (was it truncated while being read?)"));
    done += static_cast<size_t>(n);
  }
  return out;
}

}  // namespace frazil::io
