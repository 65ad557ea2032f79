#include "frazil/core/buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <malloc.h>

#include <bit>
#include <mutex>
#include <new>
#include <vector>

#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"

namespace frazil {

namespace {
constexpr size_t kAlignment = 64;

// Large blocks are recycled instead of returned to the system: glibc maps big blocks
// fresh on every allocation, so each new array would pay a page fault per 4 KiB it
// touches. Blocks of at least kMinCached bytes are rounded up to a power of two and kept
// (up to kMaxCachedBytes in all) for the next allocation of the same class.
constexpr size_t kMinCached = 256 * 1024;
constexpr size_t kMaxCachedBytes = size_t(1) << 30;

class BlockCache {
 public:
  void* take(size_t size_class) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& list = free_[class_index(size_class)];
    if (list.empty()) return nullptr;
    void* p = list.back();
    list.pop_back();
    cached_bytes_ -= size_class;
    return p;
  }
  void give(void* p, size_t size_class) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cached_bytes_ + size_class <= kMaxCachedBytes) {
        free_[class_index(size_class)].push_back(p);
        cached_bytes_ += size_class;
        return;
      }
    }
    std::free(p);
  }

 private:
  static size_t class_index(size_t size_class) { return static_cast<size_t>(std::countr_zero(size_class)); }
  std::mutex mu_;
  std::vector<void*> free_[64];
  size_t cached_bytes_ = 0;
};

BlockCache& block_cache() {
  static BlockCache* cache = [] {
    // The kernels' scratch vectors (hashes, group ids, partitions) are tens of MB: keep
    // them on the heap, where freed memory is reused, instead of fresh zeroed mappings.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    return new BlockCache();  // never destroyed: buffers may outlive statics
  }();
  return *cache;
}

}  // namespace

Buffer Buffer::allocate(size_t size) {
  size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  const bool cached = rounded >= kMinCached;
  if (cached) rounded = std::bit_ceil(rounded);
  detail::reserve_memory(static_cast<int64_t>(rounded));
  void* p = cached ? block_cache().take(rounded) : nullptr;
  if (!p) p = std::aligned_alloc(kAlignment, rounded);
  if (!p) {
    detail::release_memory(static_cast<int64_t>(rounded));
    throw OutOfMemoryError(err_msg("failed to allocate ", size, " bytes"));
  }
  // Zero the padding so that hashing or SIMD over whole words never reads garbage.
  std::memset(static_cast<uint8_t*>(p) + size, 0, std::min(rounded - size, size_t(64)));
  Buffer b;
  if (cached)
    b.owner_ = std::shared_ptr<const void>(p, [rounded](const void* q) {
      detail::release_memory(static_cast<int64_t>(rounded));
      block_cache().give(const_cast<void*>(q), rounded);
    });
  else
    b.owner_ = std::shared_ptr<const void>(p, [rounded](const void* q) {
      detail::release_memory(static_cast<int64_t>(rounded));
      std::free(const_cast<void*>(q));
    });
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
