// Running a query with the GIL released, so that Ctrl-C stops it. On the main thread the
// query runs on a worker thread while this one waits in slices of kPollInterval, calling
// PyErr_CheckSignals between them: a signal handler that raises (SIGINT's
// KeyboardInterrupt, or any handler of the user's) cancels the query's token, the worker
// unwinds (freeing what the query held) and the handler's exception is raised here.
// Elsewhere the query runs on the calling thread (Python runs signal handlers on the
// main thread only).
#pragma once

#include <nanobind/nanobind.h>

#include <functional>
#include <memory>

#include "frazil/core/cancel.hpp"
#include "frazil/core/frame.hpp"

namespace frazil::py {

// Runs `query(token)` as above; `query` must stop with CancelledError once the token is set.
DataFrame run_interruptible(const std::function<DataFrame(const std::shared_ptr<CancelToken>&)>& query);

// Records the main thread (called when the module is imported, on the importing thread).
void remember_main_thread();

}  // namespace frazil::py
