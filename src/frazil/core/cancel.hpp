// Stopping a running query: a CancelToken that another thread (or a signal handler) sets,
// and a deadline (a per-query timeout). A query runs inside a CancelScope; the executor's
// morsel and batch loops (every parallel_for task), and long kernels every kCheckRows rows,
// call check_cancelled(), which throws CancelledError once the token is set or the
// deadline has passed. The scope's state reaches the pool's workers: parallel_for hands the
// submitting thread's scope to the threads that run its tasks.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>

namespace frazil {

class CancelToken {
 public:
  // Thread-safe and async-signal-safe (one lock-free atomic store).
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }
  void reset() noexcept { cancelled_.store(false, std::memory_order_relaxed); }

 private:
  std::atomic<bool> cancelled_{false};
};

namespace detail {
struct CancelState {
  const CancelToken* token = nullptr;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  std::chrono::milliseconds timeout{0};
  [[noreturn]] void raise() const;
  bool stopped() const {
    return (token && token->cancelled()) || (deadline && std::chrono::steady_clock::now() >= *deadline);
  }
};
// The scope the current thread runs in (nullptr: none).
const CancelState* current_cancel_state() noexcept;
void set_current_cancel_state(const CancelState* state) noexcept;
}  // namespace detail

// Makes `token` (may be null) and `timeout` (from now) govern the work this thread does
// until the scope ends; scopes nest (the inner one governs).
class CancelScope {
 public:
  CancelScope(const CancelToken* token, std::optional<std::chrono::milliseconds> timeout);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  detail::CancelState state_;
  const detail::CancelState* previous_;
};

// Throws CancelledError when the current scope's token is set or its deadline passed;
// nothing (one thread-local load) outside a scope.
inline void check_cancelled() {
  const detail::CancelState* s = detail::current_cancel_state();
  if (s && s->stopped()) [[unlikely]]
    s->raise();
}

// Rows a kernel's loop handles between two check_cancelled() calls.
inline constexpr int64_t kCheckRows = int64_t{1} << 16;

}  // namespace frazil
