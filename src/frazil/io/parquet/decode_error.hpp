// Malformed page data found while decoding; the column reader rewraps it as an IOError
// naming the file, row group and column.
#pragma once

#include <stdexcept>

namespace frazil::io::parquet {

class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace frazil::io::parquet
