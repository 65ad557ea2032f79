#include "frazil/core/memory_reservation.hpp"

#include <algorithm>
#include <utility>

#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"

namespace frazil {

MemoryReservation::MemoryReservation(MemoryReservation&& other) noexcept
    : owner_(std::move(other.owner_)), bytes_(std::exchange(other.bytes_, 0)) {}

MemoryReservation& MemoryReservation::operator=(MemoryReservation&& other) noexcept {
  if (this != &other) {
    release();
    owner_ = std::move(other.owner_);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

bool MemoryReservation::try_grow(int64_t bytes) {
  if (bytes <= 0) return true;
  if (!detail::try_reserve_memory(bytes)) return false;
  bytes_ += bytes;
  return true;
}

void MemoryReservation::grow(int64_t bytes) {
  if (try_grow(bytes)) return;
  const int64_t mib = 1024 * 1024;
  throw OutOfMemoryError(err_msg("the query needs more memory than the limit of ", memory_limit() / mib,
                                 " MiB (FRAZIL_MEMORY_LIMIT / frazil.Config.set_memory_limit): ", owner_,
                                 " holds ", bytes_ / mib, " MiB and needs ", bytes / mib, " MiB more, with ",
                                 memory_in_use() / mib, " MiB in use"));
}

bool MemoryReservation::try_resize(int64_t bytes) {
  if (bytes >= bytes_) return try_grow(bytes - bytes_);
  shrink(bytes_ - bytes);
  return true;
}

void MemoryReservation::shrink(int64_t bytes) {
  bytes = std::min(bytes, bytes_);
  if (bytes <= 0) return;
  detail::release_memory(bytes);
  bytes_ -= bytes;
}

void MemoryReservation::release() { shrink(bytes_); }

}  // namespace frazil
