// The call stack as a resource a deep input can exhaust. Walks over user-shaped structure
// (expressions, plans) are iterative; where recursion is the clear way to write one, each
// level calls check_stack(), which raises ComputeError while enough stack is left to unwind
// and report. Query work runs on large stacks, so that deep but reasonable plans run:
// run_on_large_stack() runs a function on a stack of large_stack_size() bytes that the
// calling thread reserves once (address space only: just the pages touched take memory, and
// pages a deep query touched are given back afterwards), and the thread pool's workers live
// on one. The calling thread stays the same, so its thread-locals (traces, monitors, the
// Python thread state) are the ones the function sees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace frazil {

namespace stack_detail {
// The stack address below which check_stack() calls slow_path(); every address until this
// thread's bounds are read. Constant-initialized: reading it costs no TLS wrapper call.
extern constinit thread_local std::uintptr_t t_check_below;
// Reads the bounds (once per thread), or notes a deep run, or raises.
void slow_path(const char* what);
void run_impl(void (*fn)(void*), void* arg);
}  // namespace stack_detail

// Raises ComputeError naming `what` and the stack size when the current thread's stack is
// nearly used up. One comparison when there is room.
inline void check_stack(const char* what) {
  char probe;
  if (reinterpret_cast<std::uintptr_t>(&probe) < stack_detail::t_check_below) stack_detail::slow_path(what);
}

// Bytes of the current thread's stack left before check_stack() raises.
size_t stack_remaining();

// The size of the stacks query work runs on: FRAZIL_STACK_SIZE (bytes, or with a K, M or G
// suffix; at least 1M), 1 GiB by default. Throws InvalidOperationError for a value that is
// not a size.
size_t large_stack_size();

// Runs fn() on a large stack and returns its result; exceptions pass through. Runs it where
// it is when the thread is on a large stack already, or when none can be reserved.
template <typename Fn>
std::invoke_result_t<Fn&> run_on_large_stack(Fn&& fn) {
  using Result = std::invoke_result_t<Fn&>;
  if constexpr (std::is_void_v<Result>) {
    stack_detail::run_impl([](void* f) { (*static_cast<std::remove_reference_t<Fn>*>(f))(); }, &fn);
  } else {
    std::optional<Result> out;
    auto call = [&] { out.emplace(fn()); };
    stack_detail::run_impl([](void* c) { (*static_cast<decltype(call)*>(c))(); }, &call);
    return std::move(*out);
  }
}

// Gives back the pages of the current (large) stack that a deep run touched, below the
// frames in use now. Thread pool workers call it between jobs.
void release_unused_stack();

}  // namespace frazil
