// OsError: an IOError caused by a failed system call, carrying its errno so that callers
// (and the Python bindings: FileNotFoundError, PermissionError, ...) can tell the reasons
// apart. The message is Polars': "<the OS reason> (os error N): <the path, or what was
// being done>".
#pragma once

#include <cerrno>
#include <cstring>
#include <string>

#include "frazil/core/error.hpp"

namespace frazil {

class OsError : public IOError {
 public:
  OsError(int code, const std::string& context)
      : IOError(std::string(std::strerror(code)) + " (os error " + std::to_string(code) + "): " + context),
        code_(code) {}
  int code() const { return code_; }

 private:
  int code_;
};

// Throws OsError for the current errno.
[[noreturn]] inline void throw_os_error(const std::string& context) { throw OsError(errno, context); }

}  // namespace frazil
