// Builders: append values (and nulls) one by one, then finish() into an immutable Array.
// Validity is only materialised once the first null arrives.
#pragma once

#include <string_view>
#include <type_traits>

#include "frazil/core/array.hpp"

namespace frazil {

// Tracks nulls for a builder; no bitmap until the first null.
class ValidityBuilder {
 public:
  void push(bool valid) {
    if (!valid && !bits_active_) {
      bits_.resize(length_, true);
      bits_active_ = true;
    }
    if (bits_active_) bits_.push(valid);
    if (!valid) ++null_count_;
    ++length_;
  }
  int64_t null_count() const { return null_count_; }
  Buffer finish() {
    Buffer out = bits_active_ ? bits_.finish() : Buffer();
    bits_active_ = false;
    length_ = null_count_ = 0;
    return out;
  }

 private:
  BitmapBuilder bits_;
  bool bits_active_ = false;
  int64_t length_ = 0;
  int64_t null_count_ = 0;
};

// Fixed-width values of C++ type T (int32_t for Date, int64_t for Datetime, ...).
template <typename T>
class PrimitiveBuilder {
 public:
  explicit PrimitiveBuilder(DataType dtype, int64_t capacity = 0) : dtype_(std::move(dtype)) {
    reserve(capacity);
  }
  void reserve(int64_t n) {
    if (n <= capacity_) return;
    Buffer next = Buffer::allocate(n * sizeof(T));
    if (length_) std::memcpy(next.mutable_data(), values_.data(), length_ * sizeof(T));
    values_ = std::move(next);
    capacity_ = n;
  }
  void push(T v) {
    if (length_ == capacity_) reserve(capacity_ * 2 + 16);
    values_.mutable_as<T>()[length_++] = v;
    validity_.push(true);
  }
  void push_null() {
    if (length_ == capacity_) reserve(capacity_ * 2 + 16);
    values_.mutable_as<T>()[length_++] = T{};
    validity_.push(false);
  }
  int64_t length() const { return length_; }
  ArrayRef finish() {
    if (values_.empty()) reserve(1);
    values_.set_size(length_ * sizeof(T));
    int64_t nc = validity_.null_count();
    auto out = Array::make(dtype_, length_, validity_.finish(), {values_}, {}, 0, nc);
    values_ = Buffer();
    length_ = capacity_ = 0;
    return out;
  }

 private:
  DataType dtype_;
  Buffer values_;
  int64_t length_ = 0;
  int64_t capacity_ = 0;
  ValidityBuilder validity_;
};

class BooleanBuilder {
 public:
  explicit BooleanBuilder(int64_t capacity = 0) : values_(capacity) {}
  void push(bool v) {
    values_.push(v);
    validity_.push(true);
  }
  void push_null() {
    values_.push(false);
    validity_.push(false);
  }
  int64_t length() const { return values_.length(); }
  ArrayRef finish() {
    int64_t n = values_.length();
    int64_t nc = validity_.null_count();
    return Array::make(DataType::boolean(), n, validity_.finish(), {values_.finish()}, {}, 0, nc);
  }

 private:
  BitmapBuilder values_;
  ValidityBuilder validity_;
};

// String or Binary views; long values are copied into data blocks that grow geometrically.
class ViewBuilder {
 public:
  explicit ViewBuilder(DataType dtype = DataType::string(), int64_t capacity = 0)
      : dtype_(std::move(dtype)) {
    reserve(capacity);
  }
  void reserve(int64_t n);
  void push(std::string_view s);
  void push_null();
  // Appends a view of another array's value without copying its bytes when possible.
  int64_t length() const { return length_; }
  ArrayRef finish();

 private:
  void new_block(size_t min_size);

  DataType dtype_;
  Buffer views_;
  int64_t length_ = 0;
  int64_t capacity_ = 0;
  std::vector<Buffer> blocks_;
  size_t block_used_ = 0;
  size_t next_block_size_ = 32 * 1024;
  ValidityBuilder validity_;
};

}  // namespace frazil
