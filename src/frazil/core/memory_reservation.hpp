// A reservation of memory against the limit (core/memory.hpp) for state an operator keeps
// outside column buffers: hash tables, row-index vectors, sort buffers, spill read-back.
// The operator grows it before it grows its state; when try_grow() says no it can spill
// and shrink instead of failing (DuckDB's TemporaryMemoryManager and Velox's MemoryPool
// reservations have this shape). The destructor gives back whatever is still held, so an
// exception or a cancelled query leaves nothing counted.
#pragma once

#include <cstdint>
#include <string>

namespace frazil {

class MemoryReservation {
 public:
  // `owner` names the operator in the MemoryError raised by grow().
  explicit MemoryReservation(std::string owner = "query") : owner_(std::move(owner)) {}
  ~MemoryReservation() { release(); }
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  MemoryReservation(MemoryReservation&& other) noexcept;
  MemoryReservation& operator=(MemoryReservation&& other) noexcept;

  int64_t bytes() const { return bytes_; }
  // Holds `bytes` more, or returns false (holding what it held) when the limit would pass.
  bool try_grow(int64_t bytes);
  // Holds `bytes` more, or throws OutOfMemoryError naming the limit and the owner.
  void grow(int64_t bytes);
  // Holds exactly `bytes` (grows with try_grow semantics, or shrinks).
  bool try_resize(int64_t bytes);
  void shrink(int64_t bytes);
  void release();

 private:
  std::string owner_;
  int64_t bytes_ = 0;
};

}  // namespace frazil
