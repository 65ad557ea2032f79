// Scratch memory for kernels: ScratchVector<T> is a std::vector whose memory comes from
// the same counted, recycled blocks as column buffers (core/buffer.cpp) and whose
// elements are default-initialised: resize(n) of a trivial type leaves the new elements
// unset instead of writing zeros, so a vector that is filled right after costs no memset
// (and, for large sizes, no page faults: blocks are reused instead of mapped fresh).
// Use it for big per-row scratch that is written before it is read (group ids, encoded
// keys, partition lists). For zeros, say so: assign(n, 0) or resize(n, 0).
#pragma once

#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace frazil {

namespace detail {
// Bytes a block of at least `size` bytes takes (what is counted against the limit).
size_t block_size(size_t size);
// A 64-byte aligned block of `rounded` = block_size(...) bytes, counted against the memory
// limit (OutOfMemoryError past it); large blocks are taken from the block cache.
void* allocate_block(size_t rounded);
// Returns a block from allocate_block(rounded): uncounted, then cached or freed.
void free_block(void* p, size_t rounded) noexcept;
}  // namespace detail

template <typename T>
struct ScratchAllocator {
  using value_type = T;
  static_assert(alignof(T) <= 64, "blocks are 64-byte aligned");

  ScratchAllocator() noexcept = default;
  template <typename U>
  ScratchAllocator(const ScratchAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    if (n > max_size()) throw std::bad_array_new_length();
    return static_cast<T*>(detail::allocate_block(detail::block_size(n * sizeof(T))));
  }
  void deallocate(T* p, size_t n) noexcept { detail::free_block(p, detail::block_size(n * sizeof(T))); }
  static constexpr size_t max_size() noexcept { return size_t(-1) / 2 / sizeof(T); }

  // Value-less construction default-initialises (no zeroing for trivial types).
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0) ::new (static_cast<void*>(p)) U;
    else ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const ScratchAllocator<U>&) const noexcept { return true; }
};

template <typename T>
using ScratchVector = std::vector<T, ScratchAllocator<T>>;

}  // namespace frazil
