// Buffer: ref-counted, 64-byte aligned bytes. Copies and slices share the memory;
// foreign memory (an imported Arrow array) is kept alive by an owner handle.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace frazil {

class Buffer {
 public:
  Buffer() = default;

  // Fresh, 64-byte aligned, zero-padded to a multiple of 64 bytes. Contents undefined.
  static Buffer allocate(size_t size);
  // Fresh and zero-filled.
  static Buffer zeroed(size_t size);
  // Wraps memory owned elsewhere; `owner` keeps it alive for as long as any copy exists.
  static Buffer foreign(const void* data, size_t size, std::shared_ptr<const void> owner);

  const uint8_t* data() const { return data_; }
  // Only valid while this buffer is being built and not yet shared.
  uint8_t* mutable_data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return data_ == nullptr; }

  template <typename T>
  const T* as() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_as() const { return reinterpret_cast<T*>(data_); }

  // A view on [offset, offset + len) sharing this buffer's memory.
  Buffer slice(size_t offset, size_t len) const;
  // Shrinks the visible size (used by builders that over-allocated).
  void set_size(size_t size) { size_ = size; }
  const std::shared_ptr<const void>& owner() const { return owner_; }

 private:
  std::shared_ptr<const void> owner_;
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace frazil
