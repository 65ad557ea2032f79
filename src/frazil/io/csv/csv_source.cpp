#include "frazil/io/csv/csv_source.hpp"

#include <fcntl.h>
#include <glob.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "frazil/core/error.hpp"
#include "frazil/core/os_error.hpp"
#include "frazil/core/file_not_found.hpp"

namespace frazil::io::csv_detail {

CsvBytes map_csv_file(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0 && errno == ENOENT) throw_file_not_found(path);
  if (fd < 0) throw_os_error(path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    throw OsError(e, err_msg("cannot stat CSV file '", path, "'"));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    throw IOError(err_msg("cannot read CSV file '", path, "': it is a directory"));
  }
  CsvBytes out;
  out.name = path;
  out.size = static_cast<size_t>(st.st_size);
  if (out.size == 0) {
    ::close(fd);
    static const char kEmpty = 0;
    out.data = &kEmpty;
    return out;
  }
  void* p = ::mmap(nullptr, out.size, PROT_READ, MAP_PRIVATE, fd, 0);
  int e = errno;
  ::close(fd);
  if (p == MAP_FAILED) throw OsError(e, err_msg("cannot map CSV file '", path, "'"));
  ::madvise(p, out.size, MADV_SEQUENTIAL);
  const size_t len = out.size;
  out.data = static_cast<const char*>(p);
  out.owner = std::shared_ptr<const void>(p, [len](const void* q) { ::munmap(const_cast<void*>(q), len); });
  return out;
}

CsvBytes csv_bytes_from_string(std::string data, std::string name) {
  auto holder = std::make_shared<std::string>(std::move(data));
  CsvBytes out;
  out.name = std::move(name);
  out.data = holder->data();
  out.size = holder->size();
  out.owner = holder;
  return out;
}

std::vector<std::string> expand_csv_paths(const std::string& path) {
  if (path.find_first_of("*?[") == std::string::npos) return {path};
  glob_t g;
  std::memset(&g, 0, sizeof g);
  int rc = ::glob(path.c_str(), 0, nullptr, &g);
  std::vector<std::string> out;
  if (rc == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
  ::globfree(&g);
  if (rc == GLOB_NOMATCH || (rc == 0 && out.empty()))
    throw IOError(err_msg("no CSV files match the pattern '", path, "'"));
  if (rc != 0) throw IOError(err_msg("cannot expand the pattern '", path, "'"));
  return out;  // glob(3) sorts the matches
}

}  // namespace frazil::io::csv_detail
