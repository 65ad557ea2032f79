#include "frazil/io/fs/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <thread>

#include "frazil/core/os_error.hpp"

namespace frazil::io {

namespace {

std::string dir_of(const std::string& p) {
  const size_t slash = p.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string base_of(const std::string& p) {
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// Follows symlinks (also dangling ones) so that the rename replaces the file a link points
// to, not the link.
std::string follow_links(std::string p) {
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(p.c_str(), buf, sizeof(buf) - 1);
    if (n < 0) return p;
    std::string link(buf, static_cast<size_t>(n));
    p = (!link.empty() && link[0] == '/') ? link : dir_of(p) + "/" + link;
  }
  throw OsError(ELOOP, "cannot write '" + p + "'");
}

std::atomic<uint64_t> g_temp_counter{0};

// Removes a file at once, but gives back its blocks (which unlink does before it returns:
// 15-100 ms for 180 MB) on a thread: the name goes now, the inode when the last descriptor
// held here is closed there.
void remove_in_background(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  ::unlink(path.c_str());
  if (fd < 0) return;
  try {
    std::thread([fd] { ::close(fd); }).detach();
  } catch (...) {
    ::close(fd);  // no thread to be had: the caller waits instead
  }
}

// Puts `temp` in the place of `target`; false with errno set.
bool replace_target(const std::string& temp, const std::string& target) {
#ifdef RENAME_EXCHANGE
  // An existing target is swapped with the new file, atomically as by rename(), and the old
  // file (now at the temporary name) is removed, its blocks freed off this thread. rename() over an
  // existing file makes ext4 (auto_da_alloc) allocate and start writing back the new
  // file's blocks before returning, and frees the old one's: 0.1 s of a 180 MB write_ipc.
  if (::renameat2(AT_FDCWD, temp.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    remove_in_background(temp);
    return true;
  }
  // No target (ENOENT), or a file system / kernel without the exchange: a plain rename.
#endif
  return ::rename(temp.c_str(), target.c_str()) == 0;
}

}  // namespace

OutputFile::OutputFile(std::string path, size_t buffer_bytes)
    : path_(std::move(path)), buffer_memory_("the write buffer of '" + path_ + "'") {
  if (path_.empty()) throw OsError(ENOENT, "cannot write to an empty path");
  buffer_bytes = std::max<size_t>(buffer_bytes, 4096);
  buffer_memory_.grow(static_cast<int64_t>(buffer_bytes));
  target_ = follow_links(path_);
  struct stat st {};
  int mode = 0666;  // as a plain create: the umask applies
  if (::stat(target_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw OsError(EISDIR, "cannot write '" + path_ + "'");
    if (!S_ISREG(st.st_mode)) {
      // A device or a FIFO: written in place, as any program writing to it would.
      in_place_ = true;
      fd_ = ::open(target_.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      if (fd_ < 0) throw_os_error("cannot open '" + path_ + "' for writing");
      buffer_.resize(buffer_bytes);
      return;
    }
    mode = static_cast<int>(st.st_mode & 07777);  // the replacement keeps the old file's permissions
  }
  open_temporary(mode);
  buffer_.resize(buffer_bytes);
}

void OutputFile::open_temporary(int mode) {
#ifdef O_TMPFILE
  // An unnamed file: a kill leaves nothing behind. It gets a name only at commit(), which
  // needs /proc to link it.
  static const bool have_proc = ::access("/proc/self/fd", X_OK) == 0;
  if (have_proc) {
    fd_ = ::open(dir_of(target_).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      unnamed_ = true;
      if (mode != 0666) (void)::fchmod(fd_, static_cast<mode_t>(mode));
      return;
    }
    // Only "not supported here" falls back to a named file; other reasons are the answer.
    if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL && errno != ENOSYS)
      throw_os_error("cannot create '" + path_ + "'");
  }
#endif
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_ = temp_name();
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
      if (mode != 0666) (void)::fchmod(fd_, static_cast<mode_t>(mode));
      return;
    }
    if (errno != EEXIST) {
      temp_.clear();
      throw_os_error("cannot create '" + path_ + "'");
    }
  }
  temp_.clear();
  throw OsError(EEXIST, "cannot create a temporary file beside '" + path_ + "'");
}

OutputFile::~OutputFile() {
  if (!done_) abort();
}

void OutputFile::write_fd(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw_os_error("cannot write '" + path_ + "'");
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void OutputFile::flush_buffer() {
  if (used_ == 0) return;
  const size_t n = used_;
  used_ = 0;
  write_fd(buffer_.data(), n);
}

void OutputFile::write(const void* data, size_t size) {
  if (done_ || fd_ < 0) throw IOError("write to '" + path_ + "' after it was closed");
  const char* p = static_cast<const char*>(data);
  written_ += static_cast<int64_t>(size);
  if (used_ + size <= buffer_.size()) {
    std::memcpy(buffer_.data() + used_, p, size);
    used_ += size;
    return;
  }
  flush_buffer();
  if (size >= buffer_.size()) return write_fd(p, size);
  std::memcpy(buffer_.data(), p, size);
  used_ = size;
}

void OutputFile::commit() {
  if (done_) throw IOError("'" + path_ + "' was already closed");
  try {
    flush_buffer();
    if (unnamed_) name_temporary();
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw_os_error("cannot write '" + path_ + "'");
  } catch (...) {
    abort();
    throw;
  }
  if (!in_place_ && !replace_target(temp_, target_)) {
    const int err = errno;
    abort();
    throw OsError(err, "cannot replace '" + path_ + "'");
  }
  temp_.clear();
  done_ = true;
}

void OutputFile::name_temporary() {
  // linkat cannot replace an existing name: link to a fresh temporary name, then rename.
  const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = temp_name();
    if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      temp_ = std::move(name);
      unnamed_ = false;
      return;
    }
    if (errno != EEXIST) throw_os_error("cannot create '" + path_ + "'");
  }
  throw OsError(EEXIST, "cannot create a temporary file beside '" + path_ + "'");
}

std::string OutputFile::temp_name() const {
  // Hidden, so that a directory scan running at the same time does not pick it up.
  return dir_of(target_) + "/." + base_of(target_) + "." + std::to_string(::getpid()) + "." +
         std::to_string(g_temp_counter++) + ".frazil-tmp";
}

void OutputFile::abort() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    temp_.clear();
  }
  done_ = true;
}

}  // namespace frazil::io
