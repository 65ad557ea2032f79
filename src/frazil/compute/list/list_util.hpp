// Internal helpers of the list kernels: reading a List array's rows (with its offset and
// nulls) and building a List array from child indices. Not part of the public compute API.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/core/array.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute::list_detail {

// The rows of a List array: row i holds values()[start(i), end(i)) of the child restricted
// to the elements the rows cover (a sliced list's other elements are left out).
class Lists {
 public:
  Lists(const Array& list, std::string_view what) : list_(list) {
    if (!list.dtype().is_list_like())
      throw InvalidOperationError(err_msg(what, " operation not supported for dtype `", list.dtype().short_name(),
                                          "`: expected a List"));
    offs_ = list.list_offsets();
    base_ = list.length() ? offs_[0] : 0;
    const int64_t end = list.length() ? offs_[list.length()] : 0;
    values_ = list.child(0)->slice(base_, end - base_);
  }
  int64_t size() const { return list_.length(); }
  bool valid(int64_t i) const { return list_.is_valid(i); }
  int64_t start(int64_t i) const { return offs_[i] - base_; }
  int64_t end(int64_t i) const { return offs_[i + 1] - base_; }
  int64_t len(int64_t i) const { return offs_[i + 1] - offs_[i]; }
  const ArrayRef& values() const { return values_; }
  const DataType& inner() const { return list_.dtype().inner(); }
  const Array& array() const { return list_; }

 private:
  const Array& list_;
  const int64_t* offs_ = nullptr;
  int64_t base_ = 0;
  ArrayRef values_;
};

// Builds a List array row by row from indices into a values array (kNullIdx: a null element).
class ListGather {
 public:
  explicit ListGather(int64_t rows) {
    offsets_.reserve(static_cast<size_t>(rows) + 1);
    offsets_.push_back(0);
  }
  void push(IdxSize index) { indices_.push_back(index); }
  void push_range(int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) indices_.push_back(static_cast<IdxSize>(k));
  }
  // Ends the current row (a null list when !valid: its elements, if any, are dropped).
  void end_row(bool valid) {
    if (!valid) indices_.resize(static_cast<size_t>(offsets_.back()));
    offsets_.push_back(static_cast<int64_t>(indices_.size()));
    validity_.push(valid);
  }
  ArrayRef finish(const Array& values) {
    ArrayRef child = take(values, indices_);
    return finish_with_child(std::move(child));
  }
  // The rows' offsets over `child` (the elements already in row order).
  ArrayRef finish_with_child(ArrayRef child) {
    const int64_t n = static_cast<int64_t>(offsets_.size()) - 1;
    Buffer off = Buffer::allocate(offsets_.size() * sizeof(int64_t));
    std::memcpy(off.mutable_data(), offsets_.data(), offsets_.size() * sizeof(int64_t));
    const int64_t nulls = validity_.null_count();
    DataType dt = DataType::list(child->dtype());
    return Array::make(std::move(dt), n, validity_.finish(), {std::move(off)}, {std::move(child)}, 0, nulls);
  }
  std::vector<IdxSize>& indices() { return indices_; }
  int64_t row_start() const { return offsets_.back(); }

 private:
  std::vector<int64_t> offsets_;
  std::vector<IdxSize> indices_;
  ValidityBuilder validity_;
};

// An integer argument read row by row (one row broadcasts); null rows read as nullopt.
class IntArg {
 public:
  IntArg(const Array& arg, std::string_view what);
  bool broadcast() const { return n_ == 1; }
  bool is_null(int64_t i) const { return !values_->is_valid(n_ == 1 ? 0 : i); }
  int64_t get(int64_t i) const { return values_->values<int64_t>()[n_ == 1 ? 0 : i]; }
  int64_t length() const { return n_; }

 private:
  ArrayRef values_;
  int64_t n_;
};

// The output height of a root of `n` rows with an argument of `m` rows (one row broadcasts).
int64_t broadcast_length(int64_t n, int64_t m, std::string_view what);

}  // namespace frazil::compute::list_detail
