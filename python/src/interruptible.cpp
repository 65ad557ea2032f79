#include "interruptible.hpp"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <system_error>
#include <thread>

#include "frazil/plan/optimization_rule.hpp"

namespace nb = nanobind;

namespace frazil::py {

namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(20);

unsigned long g_main_thread = 0;

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

// Takes the GIL back. A daemon thread that comes back while the interpreter shuts down
// would be ended by pthread_exit inside PyEval_RestoreThread, which unwinds C++ frames and
// aborts the process ("terminate called without an active exception"): it waits instead,
// until the process exits.
void restore_thread(PyThreadState* state) {
  while (interpreter_finalizing()) std::this_thread::sleep_for(std::chrono::hours(1));
  PyEval_RestoreThread(state);
}

// The thread that runs the main thread's queries: started on first use and kept (a thread
// per query cost 200 us). One query at a time; a query started while it is busy (from a
// signal handler that runs while the main thread waits) runs on the calling thread. After
// fork() the child gets a fresh one (the parent's thread does not exist there).
class Runner {
 public:
  static Runner& get() {
    static bool registered = [] {
      pthread_atfork(nullptr, nullptr, [] { instance() = nullptr; });
      return true;
    }();
    (void)registered;
    Runner*& r = instance();
    if (!r) r = new Runner();  // never deleted: the thread may still wait at exit
    return *r;
  }

  // Starts `task` on the runner's thread; false when it is busy or has no thread.
  bool start(std::function<void()> task) {
    std::lock_guard<std::mutex> lock(mu_);
    if (busy_) return false;
    if (!started_) {
      try {
        std::thread([this] { loop(); }).detach();
      } catch (const std::system_error&) {
        return false;  // no thread to be had (a process limit)
      }
      started_ = true;
    }
    task_ = std::move(task);
    busy_ = true;
    done_ = false;
    wake_.notify_one();
    return true;
  }

  // Waits up to `slice` (forever without one) for the task to finish; true when it has.
  bool wait(std::optional<std::chrono::milliseconds> slice) {
    std::unique_lock<std::mutex> lock(mu_);
    if (slice) return finished_.wait_for(lock, *slice, [&] { return done_; });
    finished_.wait(lock, [&] { return done_; });
    return true;
  }

  void release() {
    std::lock_guard<std::mutex> lock(mu_);
    busy_ = false;
  }

 private:
  static Runner*& instance() {
    static Runner* r = nullptr;
    return r;
  }

  void loop() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        wake_.wait(lock, [&] { return task_ != nullptr; });
        task = std::move(task_);
        task_ = nullptr;
      }
      task();
      std::lock_guard<std::mutex> lock(mu_);
      done_ = true;
      finished_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_, finished_;
  std::function<void()> task_;
  bool started_ = false, busy_ = false, done_ = false;
};

DataFrame run_here(const std::function<DataFrame(const std::shared_ptr<CancelToken>&)>& query,
                   const std::shared_ptr<CancelToken>& token) {
  PyThreadState* state = PyEval_SaveThread();
  try {
    DataFrame out = query(token);
    restore_thread(state);
    return out;
  } catch (...) {
    restore_thread(state);
    throw;
  }
}

}  // namespace

void remember_main_thread() { g_main_thread = PyThread_get_thread_ident(); }

DataFrame run_interruptible(const std::function<DataFrame(const std::shared_ptr<CancelToken>&)>& query) {
  auto token = std::make_shared<CancelToken>();
  if (PyThread_get_thread_ident() != g_main_thread) return run_here(query, token);
  std::optional<DataFrame> frame;
  std::exception_ptr error;
  std::vector<plan::RewriteEvent> trace;
  const bool tracing = plan::RewriteTrace::enabled();
  Runner& runner = Runner::get();
  const bool started = runner.start([&] {
    // The rewrite trace is per thread: the runner records it and hands it back.
    plan::RewriteTrace::set_enabled(tracing);
    try {
      frame = query(token);
    } catch (...) {
      error = std::current_exception();
    }
    trace = plan::RewriteTrace::take();
  });
  if (!started) return run_here(query, token);
  // The main thread cannot see the interpreter finalize while it is in here.
  auto wait = [&](std::optional<std::chrono::milliseconds> slice) {
    PyThreadState* state = PyEval_SaveThread();
    const bool done = runner.wait(slice);
    PyEval_RestoreThread(state);
    return done;
  };
  while (!wait(kPollInterval)) {
    if (PyErr_CheckSignals() != 0) {
      // Keep the handler's exception while the query unwinds.
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      token->cancel();
      wait(std::nullopt);
      runner.release();
      PyErr_Restore(type, value, tb);
      throw nb::python_error();
    }
  }
  runner.release();
  for (auto& e : trace) plan::RewriteTrace::record(std::move(e));
  if (error) std::rethrow_exception(error);
  return std::move(*frame);
}

}  // namespace frazil::py
