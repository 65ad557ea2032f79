#include "frazil/core/builder.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"

namespace frazil {

void ViewBuilder::reserve(int64_t n) {
  if (n <= capacity_) return;
  Buffer next = Buffer::allocate(n * sizeof(View));
  if (length_) std::memcpy(next.mutable_data(), views_.data(), length_ * sizeof(View));
  views_ = std::move(next);
  capacity_ = n;
}

void ViewBuilder::new_block(size_t min_size) {
  if (!blocks_.empty()) blocks_.back().set_size(block_used_);
  size_t size = std::max(next_block_size_, min_size);
  next_block_size_ = std::min<size_t>(next_block_size_ * 2, 4u << 20);
  blocks_.push_back(Buffer::allocate(size));
  block_used_ = 0;
}

void ViewBuilder::push(std::string_view s) {
  if (length_ == capacity_) reserve(capacity_ * 2 + 16);
  if (s.size() > UINT32_MAX) throw ComputeError("string value longer than 4 GiB");
  uint32_t n = static_cast<uint32_t>(s.size());
  View* out = views_.mutable_as<View>() + length_;
  if (n <= View::kInlineSize) {
    *out = View::make_inline(s.data(), n);
  } else {
    if (blocks_.empty() || block_used_ + n > blocks_.back().size()) new_block(n);
    std::memcpy(blocks_.back().mutable_data() + block_used_, s.data(), n);
    *out = View::make_ref(s.data(), n, static_cast<uint32_t>(blocks_.size() - 1),
                          static_cast<uint32_t>(block_used_));
    block_used_ += n;
  }
  ++length_;
  validity_.push(true);
}

void ViewBuilder::push_null() {
  if (length_ == capacity_) reserve(capacity_ * 2 + 16);
  views_.mutable_as<View>()[length_++] = View{};
  validity_.push(false);
}

ArrayRef ViewBuilder::finish() {
  if (views_.empty()) reserve(1);
  views_.set_size(length_ * sizeof(View));
  if (!blocks_.empty()) blocks_.back().set_size(block_used_);
  std::vector<Buffer> buffers{views_};
  for (auto& b : blocks_) buffers.push_back(std::move(b));
  int64_t nc = validity_.null_count();
  auto out = Array::make(dtype_, length_, validity_.finish(), std::move(buffers), {}, 0, nc);
  views_ = Buffer();
  blocks_.clear();
  length_ = capacity_ = 0;
  block_used_ = 0;
  return out;
}

}  // namespace frazil
