// The memory limit. Every column buffer frazil allocates (core/buffer.cpp) is counted;
// when a query would take more than the limit, the allocation raises OutOfMemoryError
// (Python: MemoryError) naming the limit, so a query too big for the machine fails
// cleanly instead of the process being killed. The limit comes from FRAZIL_MEMORY_LIMIT
// ("512M", "8G", "1073741824"; unset or 0: no limit) or set_memory_limit().
// What is counted: column data and the buffers kernels build them in. Scratch vectors of
// the hash tables and index lists are not, so the process may use somewhat more.
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

namespace detail {
// Counts `bytes` more, or throws OutOfMemoryError when that would pass the limit.
void reserve_memory(int64_t bytes);
void release_memory(int64_t bytes);
}  // namespace detail

}  // namespace frazil
