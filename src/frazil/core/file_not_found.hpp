// A file that does not exist: an IOError that Python raises as FileNotFoundError, with
// Polars' wording and a "did you mean" among the files beside it.
#pragma once

#include <string>

#include "frazil/core/error.hpp"

namespace frazil {

class FileNotFoundError : public IOError {
 public:
  explicit FileNotFoundError(const std::string& message) : IOError(message) {}
};

// "No such file or directory (os error 2): <path>", and "Did you mean "<path'>"?" when
// the directory holds a file of a close name.
[[noreturn]] void throw_file_not_found(const std::string& path);

}  // namespace frazil
