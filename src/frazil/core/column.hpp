// Column: a named chunked array, or a scalar broadcast to a length (Polars' Column).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/core/scalar.hpp"

namespace frazil {

class Column {
 public:
  Column() = default;
  Column(std::string name, ArrayRef array);
  Column(std::string name, DataType dtype, std::vector<ArrayRef> chunks);
  static Column scalar(std::string name, Scalar value, int64_t length);

  const std::string& name() const { return name_; }
  const DataType& dtype() const { return dtype_; }
  int64_t length() const { return length_; }
  bool is_scalar() const { return scalar_.has_value(); }
  const Scalar& scalar_value() const { return *scalar_; }
  // Chunks of an array column (a scalar column is materialised into one chunk).
  std::vector<ArrayRef> chunks() const;
  size_t num_chunks() const { return is_scalar() ? 1 : chunks_.size(); }
  // One contiguous array: the only chunk, the chunks concatenated, or the scalar repeated.
  ArrayRef as_array() const;
  int64_t null_count() const;
  Scalar get(int64_t i) const;

  Column rename(std::string name) const;
  Column slice(int64_t offset, int64_t length) const;
  // Same data with a new logical dtype of the same layout.
  Column with_dtype(DataType dtype) const;

 private:
  std::string name_;
  DataType dtype_;
  int64_t length_ = 0;
  std::vector<ArrayRef> chunks_;
  std::optional<Scalar> scalar_;
};

}  // namespace frazil
