#include "frazil/core/column.hpp"

#include "frazil/core/error.hpp"
#include "frazil/core/length_limit.hpp"

namespace frazil {

Column::Column(std::string name, ArrayRef array)
    : name_(std::move(name)), dtype_(array->dtype()), length_(array->length()) {
  if (length_ > kMaxLength) [[unlikely]]
    check_length(length_, "column '" + name_ + "'");
  chunks_.push_back(std::move(array));
}

Column::Column(std::string name, DataType dtype, std::vector<ArrayRef> chunks)
    : name_(std::move(name)), dtype_(std::move(dtype)) {
  for (auto& c : chunks) {
    if (c->dtype() != dtype_)
      throw SchemaError(err_msg("column '", name_, "': chunk of dtype ", c->dtype(), " in a column of dtype ", dtype_));
    length_ += c->length();
    if (c->length() > 0 || chunks_.empty()) chunks_.push_back(std::move(c));
  }
  if (length_ > kMaxLength) [[unlikely]]
    check_length(length_, "column '" + name_ + "'");
  if (chunks_.size() > 1 && chunks_[0]->length() == 0) chunks_.erase(chunks_.begin());
  if (chunks_.empty()) chunks_.push_back(make_empty_array(dtype_));
}

Column Column::scalar(std::string name, Scalar value, int64_t length) {
  if (length > kMaxLength) [[unlikely]]
    check_length(length, "column '" + name + "'");
  Column c;
  c.name_ = std::move(name);
  c.dtype_ = value.dtype();
  c.length_ = length;
  c.scalar_ = std::move(value);
  return c;
}

std::vector<ArrayRef> Column::chunks() const {
  if (scalar_) return {scalar_to_array(*scalar_, length_)};
  return chunks_;
}

ArrayRef Column::as_array() const {
  if (scalar_) return scalar_to_array(*scalar_, length_);
  if (chunks_.size() == 1) return chunks_[0];
  return concat_arrays(chunks_);
}

int64_t Column::null_count() const {
  if (scalar_) return scalar_->is_null() ? length_ : 0;
  int64_t n = 0;
  for (const auto& c : chunks_) n += c->null_count();
  return n;
}

Scalar Column::get(int64_t i) const {
  if (i < 0 || i >= length_)
    throw OutOfBoundsError(err_msg("index ", i, " is out of bounds for column '", name_, "' of length ", length_));
  if (scalar_) return *scalar_;
  for (const auto& c : chunks_) {
    if (i < c->length()) return array_get(*c, i);
    i -= c->length();
  }
  FRAZIL_CHECK(false);
  return Scalar();
}

Column Column::rename(std::string name) const {
  Column c = *this;
  c.name_ = std::move(name);
  return c;
}

Column Column::slice(int64_t offset, int64_t length) const {
  FRAZIL_CHECK(offset >= 0 && length >= 0 && offset + length <= length_);
  if (scalar_) return scalar(name_, *scalar_, length);
  std::vector<ArrayRef> parts;
  int64_t skip = offset, want = length;
  for (const auto& c : chunks_) {
    if (want == 0) break;
    if (skip >= c->length()) {
      skip -= c->length();
      continue;
    }
    int64_t take = std::min(want, c->length() - skip);
    parts.push_back(c->slice(skip, take));
    want -= take;
    skip = 0;
  }
  return Column(name_, dtype_, std::move(parts));
}

Column Column::with_dtype(DataType dtype) const {
  if (scalar_) return scalar(name_, scalar_->with_dtype(dtype), length_);
  std::vector<ArrayRef> parts;
  for (const auto& c : chunks_) parts.push_back(c->with_dtype(dtype));
  return Column(name_, std::move(dtype), std::move(parts));
}

}  // namespace frazil
