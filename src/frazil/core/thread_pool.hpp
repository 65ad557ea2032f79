// The process-wide worker pool: one worker per core. io/ and exec/ both schedule work on it.
// parallel_for() is safe to call from inside a task: the calling thread takes tasks too,
// so nested parallelism never deadlocks.
#pragma once

#include <cstddef>
#include <functional>

namespace frazil {

// Number of threads the pool uses (FRAZIL_MAX_THREADS or POLARS_MAX_THREADS, else the
// number of cores).
size_t thread_pool_size();

// Runs fn(i) for every i in [0, n) on the pool and returns when all are done. The first
// exception thrown by a task is rethrown here after the others finish.
void parallel_for(size_t n, const std::function<void(size_t)>& fn);

}  // namespace frazil
