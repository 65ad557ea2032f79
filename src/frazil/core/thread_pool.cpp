#include "frazil/core/thread_pool.hpp"

#include "frazil/core/cancel.hpp"
#include "frazil/core/env.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"

namespace frazil {

namespace {

// One parallel_for call: tasks are claimed by an atomic counter.
struct Job {
  size_t n;
  const std::function<void(size_t)>* fn;
  // The submitter's cancellation scope: its tasks run in it on every thread, and once it
  // is cancelled the tasks not started yet are skipped (each task is a morsel or a batch).
  const detail::CancelState* cancel = nullptr;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex mu;
  std::condition_variable finished;
  std::exception_ptr error;

  // Claims and runs tasks until none are left.
  void work() {
    const detail::CancelState* outer = detail::current_cancel_state();
    detail::set_current_cancel_state(cancel);
    size_t i;
    while ((i = next.fetch_add(1)) < n) {
      try {
        if (cancel && cancel->stopped()) cancel->raise();
        (*fn)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
      }
      if (done.fetch_add(1) + 1 == n) {
        std::lock_guard<std::mutex> lock(mu);
        finished.notify_all();
      }
    }
    detail::set_current_cancel_state(outer);
  }
};

class Pool {
 public:
  explicit Pool(size_t threads) {
    // Evaluation recurses through deep expressions: the workers live on large stacks
    // (on their own only if FRAZIL_STACK_SIZE is not a size: collect() reports that).
    for (size_t i = 0; i < threads; ++i)
      workers_.emplace_back([this] {
        try {
          run_on_large_stack([this] { loop(); });
        } catch (const Error&) {
          loop();
        }
      });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : workers_) t.join();
  }
  void submit(const std::shared_ptr<Job>& job, size_t helpers) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (size_t i = 0; i < helpers; ++i) queue_.push_back(job);
    }
    cv_.notify_all();
  }

 private:
  void loop() {
    for (;;) {
      std::shared_ptr<Job> job;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (stop_ && queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      job->work();
      release_unused_stack();  // the pages a deep job touched
    }
  }

  std::vector<std::thread> workers_;
  std::deque<std::shared_ptr<Job>> queue_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
};

size_t configured_threads() {
  for (const char* var : {"FRAZIL_MAX_THREADS", "POLARS_MAX_THREADS"})
    if (auto n = env_int(var, 1, kMaxThreads)) return static_cast<size_t>(*n);
  return std::max(1u, std::thread::hardware_concurrency());
}

Pool& pool() {
  // The caller always works too, so the pool has one thread fewer than the parallelism.
  static Pool p(thread_pool_size() - 1);
  return p;
}

}  // namespace

size_t thread_pool_size() {
  static size_t n = configured_threads();
  return n;
}

void parallel_for(size_t n, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  if (n == 1 || thread_pool_size() == 1) {
    for (size_t i = 0; i < n; ++i) {
      check_cancelled();
      fn(i);
    }
    return;
  }
  auto job = std::make_shared<Job>();
  job->n = n;
  job->fn = &fn;
  job->cancel = detail::current_cancel_state();
  pool().submit(job, std::min(n - 1, thread_pool_size() - 1));
  job->work();
  std::unique_lock<std::mutex> lock(job->mu);
  job->finished.wait(lock, [&] { return job->done.load() == n; });
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace frazil
