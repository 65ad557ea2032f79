// The memory limit. Every column buffer frazil allocates (core/buffer.cpp) is counted;
// when a query would take more than the limit, the allocation raises OutOfMemoryError
// (Python: MemoryError) naming the limit, so a query too big for the machine fails
// cleanly instead of the process being killed. The limit comes from FRAZIL_MEMORY_LIMIT
// ("512M", "8G", "1073741824"; unset or 0: no limit) or set_memory_limit().
// What is counted: column data, the buffers kernels build them in, and the kernels' large
// scratch (ScratchVector, core/scratch.hpp: group ids, encoded keys, join tables), output
// files' write buffers, and what operators reserve for std::vector state (MemoryReservation:
// a join's row pairs and output placement, a sink's finalize). Smaller std::vector scratch
// is not, so the process may use somewhat more. Freed large blocks
// are kept for reuse (core/buffer.cpp) and not counted; under a limit they give way so
// that counted and cached bytes together stay within it.
#pragma once

#include <cstdint>
#include <string>

namespace frazil {

// Bytes; 0 means no limit. Throws InvalidOperationError on a malformed text.
int64_t parse_memory_size(const std::string& text);

void set_memory_limit(int64_t bytes);
int64_t memory_limit();
// Bytes of counted buffers alive now.
int64_t memory_in_use();
// Bytes of freed blocks kept for reuse (not part of memory_in_use()).
int64_t memory_cached();
// Returns every cached block to the system.
void release_cached_memory();

namespace detail {
// Counts `bytes` more, or throws OutOfMemoryError when that would pass the limit.
void reserve_memory(int64_t bytes);
void release_memory(int64_t bytes);
// Counts `bytes` more and returns true, or returns false (counting nothing) when that
// would pass the limit: for callers that can spill instead of failing.
bool try_reserve_memory(int64_t bytes);
}  // namespace detail

}  // namespace frazil
