#include "frazil/core/buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

#include "frazil/core/error.hpp"

namespace frazil {

namespace {
constexpr size_t kAlignment = 64;

}  // namespace

Buffer Buffer::allocate(size_t size) {
  size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (!p) throw OutOfMemoryError(err_msg("failed to allocate ", size, " bytes"));
  // Zero the padding so that hashing or SIMD over whole words never reads garbage.
  std::memset(static_cast<uint8_t*>(p) + size, 0, rounded - size);
  Buffer b;
  b.owner_ = std::shared_ptr<const void>(p, [](const void* q) { std::free(const_cast<void*>(q)); });
  b.data_ = static_cast<uint8_t*>(p);
  b.size_ = size;
  return b;
}

Buffer Buffer::zeroed(size_t size) {
  Buffer b = allocate(size);
  std::memset(b.data_, 0, size);
  return b;
}

Buffer Buffer::foreign(const void* data, size_t size, std::shared_ptr<const void> owner) {
  Buffer b;
  b.owner_ = std::move(owner);
  b.data_ = static_cast<uint8_t*>(const_cast<void*>(data));
  b.size_ = size;
  return b;
}

Buffer Buffer::slice(size_t offset, size_t len) const {
  FRAZIL_CHECK_LE(offset + len, size_);
  Buffer b = *this;
  b.data_ += offset;
  b.size_ = len;
  return b;
}

}  // namespace frazil
