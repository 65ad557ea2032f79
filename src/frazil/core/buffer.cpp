#include "frazil/core/buffer.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <mutex>
#include <new>
#include <vector>

#include "frazil/core/env.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/core/scratch.hpp"

namespace frazil {

namespace {
constexpr size_t kAlignment = 64;

// Large blocks are recycled instead of returned to the system: glibc maps big blocks
// fresh on every allocation, so each new array or scratch vector would pay a page fault
// (and the kernel's zeroing) per 4 KiB it touches. Blocks of at least kMinCached bytes
// are rounded up to a power of two and kept for the next allocation of the same class.
// The cache holds at most an eighth of the machine's memory (FRAZIL_BLOCK_CACHE
// overrides: "2G", "0" turns it off): at scale 10 of PDS-H, 2-6 GB cached take most of
// the page-fault time away (q21: 12.6 s of system time uncached, 9.1 s with 512 MB,
// 4.4 s with 2 GB), at a few hundred MB more peak memory. Under a memory limit, cached
// and counted bytes together stay within the limit (cached blocks make room).
constexpr size_t kMinCached = 256 * 1024;

size_t default_cache_cap() {
  if (auto bytes = env_bytes("FRAZIL_BLOCK_CACHE")) return static_cast<size_t>(*bytes);
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page <= 0) return size_t(1) << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(page) / 8;
}

class BlockCache {
 public:
  BlockCache() : cap_(default_cache_cap()) {}

  void* take(size_t size_class) {
    std::lock_guard<std::mutex> lock(mu_);
    auto& list = free_[class_index(size_class)];
    if (list.empty()) return nullptr;
    void* p = list.back();
    list.pop_back();
    cached_bytes_ -= size_class;
    return p;
  }
  // Keeps the block if it fits under the cap (and, with a memory limit, beside the
  // counted bytes); frees it otherwise.
  void give(void* p, size_t size_class) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (cached_bytes_ + size_class <= room()) {
        free_[class_index(size_class)].push_back(p);
        cached_bytes_ += size_class;
        return;
      }
    }
    std::free(p);
  }
  // Frees cached blocks, largest first, until at most `target` bytes stay cached.
  void trim(size_t target) {
    std::vector<void*> drop;
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (int c = 63; c >= 0 && cached_bytes_ > target; --c)
        while (!free_[c].empty() && cached_bytes_ > target) {
          drop.push_back(free_[c].back());
          free_[c].pop_back();
          cached_bytes_ -= size_t(1) << c;
        }
    }
    for (void* p : drop) std::free(p);
  }
  // Before a fresh allocation under a memory limit (already counted): cached blocks give
  // way so that counted plus cached memory stays within the limit.
  void make_room() {
    if (memory_limit() <= 0 || cached() == 0) return;
    trim(headroom());
  }
  size_t cached() {
    std::lock_guard<std::mutex> lock(mu_);
    return cached_bytes_;
  }

 private:
  static size_t class_index(size_t size_class) { return static_cast<size_t>(std::countr_zero(size_class)); }
  // Bytes the memory limit leaves beside the counted ones (no bound without a limit).
  static size_t headroom() {
    const int64_t limit = memory_limit();
    if (limit <= 0) return SIZE_MAX;
    const int64_t left = limit - memory_in_use();
    return left > 0 ? static_cast<size_t>(left) : 0;
  }
  size_t room() const { return std::min(cap_, headroom()); }
  std::mutex mu_;
  std::vector<void*> free_[64];
  size_t cached_bytes_ = 0;
  const size_t cap_;
};

BlockCache& block_cache() {
  static BlockCache* cache = [] {
    // The kernels' smaller scratch vectors stay on the heap, where freed memory is reused,
    // instead of fresh zeroed mappings.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    return new BlockCache();  // never destroyed: buffers may outlive statics
  }();
  return *cache;
}

}  // namespace

namespace detail {

size_t block_size(size_t size) {
  size_t rounded = (size + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  return rounded >= kMinCached ? std::bit_ceil(rounded) : rounded;
}

void* allocate_block(size_t rounded) {
  reserve_memory(static_cast<int64_t>(rounded));
  const bool cached = rounded >= kMinCached;
  void* p = cached ? block_cache().take(rounded) : nullptr;
  if (!p) {
    if (cached) block_cache().make_room();
    p = std::aligned_alloc(kAlignment, rounded);
  }
  if (!p) {
    release_memory(static_cast<int64_t>(rounded));
    throw OutOfMemoryError(err_msg("failed to allocate ", rounded, " bytes"));
  }
  return p;
}

void free_block(void* p, size_t rounded) noexcept {
  if (!p) return;
  release_memory(static_cast<int64_t>(rounded));
  if (rounded >= kMinCached) block_cache().give(p, rounded);
  else std::free(p);
}

}  // namespace detail

int64_t memory_cached() { return static_cast<int64_t>(block_cache().cached()); }

void release_cached_memory() { block_cache().trim(0); }

Buffer Buffer::allocate(size_t size) {
  const size_t rounded = detail::block_size(size);
  void* p = detail::allocate_block(rounded);
  // Zero the padding so that hashing or SIMD over whole words never reads garbage.
  std::memset(static_cast<uint8_t*>(p) + size, 0, std::min(rounded - size, size_t(64)));
  Buffer b;
  b.owner_ = std::shared_ptr<const void>(
      p, [rounded](const void* q) { detail::free_block(const_cast<void*>(q), rounded); });
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
