#include "frazil/core/stack.hpp"

#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <exception>
#include <string>

#include "frazil/core/error.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define FRAZIL_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FRAZIL_ASAN_FIBERS 1
#endif
#endif
#ifdef FRAZIL_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace frazil {

namespace stack_detail {
constinit thread_local std::uintptr_t t_check_below = UINTPTR_MAX;
}  // namespace stack_detail

namespace {

using stack_detail::t_check_below;

constexpr size_t kDefaultLargeStack = size_t{1} << 30;
constexpr size_t kMinLargeStack = size_t{1} << 20;
// Left free below the last check, for the frames between two checks, unwinding and the
// error message.
constexpr size_t kReserve = size_t{256} << 10;
// The top of a large stack that stays resident between runs; a run that went deeper gives
// the rest back.
constexpr size_t kKeepResident = size_t{8} << 20;
// Below a large stack, unmapped against frames that jump past a single page.
constexpr size_t kGuard = size_t{64} << 10;

// The stack the thread runs on now.
struct Bounds {
  std::uintptr_t low = 0;    // the lowest usable address
  std::uintptr_t high = 0;   // the top
  std::uintptr_t hard = 0;   // check_stack() raises below this
  std::uintptr_t soft = 0;   // a large stack: below this a run counts as deep (0: not tracked)
  bool deep = false;         // the soft mark was passed since the pages were last given back
  bool large = false;
  bool read = false;         // set once the thread's bounds are read
};
thread_local Bounds t_bounds;

// The current frame's address (not a local's: clang rejects returning that address).
std::uintptr_t here() { return reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)); }

std::uintptr_t page_size() {
  static const auto size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

void set_bounds(std::uintptr_t low, std::uintptr_t high, bool large) {
  Bounds b;
  b.low = low;
  b.high = high;
  const size_t size = high - low;
  b.hard = low + (size >= 4 * kReserve ? kReserve : size / 4);
  b.large = large;
  b.read = true;
  if (large && size > 2 * kKeepResident) b.soft = high - kKeepResident;
  t_bounds = b;
  t_check_below = b.soft ? b.soft : b.hard;
}

// The bounds of the thread's own stack, read once.
void read_thread_bounds() {
  pthread_attr_t attr;
  void* addr = nullptr;
  size_t size = 0;
  bool ok = pthread_getattr_np(pthread_self(), &attr) == 0;
  if (ok) {
    ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!ok || size == 0) {
    // Unknown bounds: never raise.
    t_bounds = Bounds{};
    t_bounds.read = true;
    t_check_below = 0;
    return;
  }
  const auto low = reinterpret_cast<std::uintptr_t>(addr);
  set_bounds(low, low + size, false);
}

// Gives back the pages of [low, end) of the current large stack.
void release_pages(std::uintptr_t low, std::uintptr_t end) {
  const std::uintptr_t page = page_size();
  low = (low + page - 1) & ~(page - 1);
  end &= ~(page - 1);
  if (end > low) madvise(reinterpret_cast<void*>(low), end - low, MADV_DONTNEED);
}

std::string describe_size(size_t bytes) {
  if (bytes >= (size_t{1} << 30) && bytes % (size_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  return std::to_string(bytes >> 20) + " MiB";
}

struct LargeStackSize {
  size_t bytes = kDefaultLargeStack;
  std::string error;  // FRAZIL_STACK_SIZE is set but not a size
};

LargeStackSize read_large_stack_size() {
  LargeStackSize out;
  const char* v = std::getenv("FRAZIL_STACK_SIZE");
  if (!v || !*v) return out;
  const std::string text = v;
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = text.substr(i);
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() >= 2 && unit.back() == 'B' && unit[unit.size() - 2] == 'I') unit.resize(unit.size() - 2);
  else if (unit.size() >= 2 && unit.back() == 'B') unit.pop_back();
  size_t shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : 64;
  size_t n = 0;
  bool ok = i > 0 && i <= 18 && shift < 64;
  if (ok) {
    n = std::stoull(text.substr(0, i));
    ok = shift == 0 || n <= (SIZE_MAX >> shift);
  }
  if (ok) n <<= shift;
  if (!ok || n < kMinLargeStack)
    out.error = err_msg("FRAZIL_STACK_SIZE='", text, "' is not a stack size of at least 1M (bytes, or with a K, M or ",
                        "G suffix, like 512M or 2G)");
  else
    out.bytes = n;
  return out;
}

const LargeStackSize& configured_size() {
  static const LargeStackSize size = read_large_stack_size();
  return size;
}

// The thread's large stack, reserved on first use and unmapped when the thread ends.
struct FiberStack {
  void* base = nullptr;
  size_t size = 0;
  bool failed = false;
  bool active = false;  // the thread runs on it now

  ~FiberStack() {
    if (base) munmap(base, size);
  }
  bool reserve() {
    if (base || failed) return base != nullptr;
    // Address space only: MAP_NORESERVE commits nothing, pages come as they are touched.
    // A system that refuses the size (a low address-space limit) gets smaller stacks.
    for (size_t want = large_stack_size(); want >= kMinLargeStack; want /= 2) {
      void* p = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                     -1, 0);
      if (p == MAP_FAILED) continue;
      if (mprotect(p, kGuard, PROT_NONE) != 0) {
        munmap(p, want);
        continue;
      }
      base = p;
      size = want;
      return true;
    }
    failed = true;
    return false;
  }
};
thread_local FiberStack t_fiber;

struct Task {
  void (*fn)(void*);
  void* arg;
  std::exception_ptr error;
#ifdef FRAZIL_ASAN_FIBERS
  const void* caller_bottom = nullptr;
  size_t caller_size = 0;
#endif
};
thread_local Task* t_task = nullptr;

void trampoline() {
  Task* task = t_task;
#ifdef FRAZIL_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(nullptr, &task->caller_bottom, &task->caller_size);
#endif
  try {
    task->fn(task->arg);
  } catch (...) {
    task->error = std::current_exception();
  }
#ifdef FRAZIL_ASAN_FIBERS
  // This fiber ends: back to the caller (uc_link), with nothing of it to keep.
  __sanitizer_start_switch_fiber(nullptr, task->caller_bottom, task->caller_size);
#endif
}

}  // namespace

namespace stack_detail {

void slow_path(const char* what) {
  const std::uintptr_t sp = here();
  if (!t_bounds.read) {
    read_thread_bounds();
    if (sp >= t_check_below) return;
  }
  Bounds& b = t_bounds;
  if (sp >= b.hard) {
    // Only past the soft mark of a large stack: note that this run went deep.
    b.deep = true;
    t_check_below = b.hard;
    return;
  }
  const size_t size = b.high - b.low;
  throw ComputeError(err_msg(what, ": the plan or expression is nested too deeply for the stack (",
                             describe_size(size), b.large ? "; FRAZIL_STACK_SIZE sets the stack size of queries)"
                                                          : " of this thread)"));
}

void run_impl(void (*fn)(void*), void* arg) {
  const LargeStackSize& config = configured_size();
  if (!config.error.empty()) throw InvalidOperationError(config.error);
  if (!t_bounds.read) read_thread_bounds();
  FiberStack& fiber = t_fiber;
  if (fiber.active || t_bounds.large || !fiber.reserve()) {
    fn(arg);
    return;
  }
  Task task{fn, arg, nullptr};
  const Bounds saved = t_bounds;
  const std::uintptr_t saved_check = t_check_below;
  Task* const saved_task = t_task;
  ucontext_t caller, callee;
  if (getcontext(&callee) != 0) {
    fn(arg);
    return;
  }
  callee.uc_stack.ss_sp = fiber.base;
  callee.uc_stack.ss_size = fiber.size;
  callee.uc_link = &caller;
  makecontext(&callee, trampoline, 0);
  const auto base = reinterpret_cast<std::uintptr_t>(fiber.base);
  set_bounds(base + kGuard, base + fiber.size, true);
  t_task = &task;
  fiber.active = true;
#ifdef FRAZIL_ASAN_FIBERS
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, fiber.base, fiber.size);
#endif
  swapcontext(&caller, &callee);
#ifdef FRAZIL_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
  fiber.active = false;
  if (t_bounds.deep) release_pages(t_bounds.low, t_bounds.soft);
  t_bounds = saved;
  t_check_below = saved_check;
  t_task = saved_task;
  if (task.error) std::rethrow_exception(task.error);
}

}  // namespace stack_detail

size_t stack_remaining() {
  if (!t_bounds.read) read_thread_bounds();
  const std::uintptr_t sp = here();
  return sp > t_bounds.hard ? sp - t_bounds.hard : 0;
}

size_t large_stack_size() {
  const LargeStackSize& config = configured_size();
  if (!config.error.empty()) throw InvalidOperationError(config.error);
  return config.bytes;
}

void release_unused_stack() {
  Bounds& b = t_bounds;
  if (!b.large || !b.deep) return;
  // Below the frames in use now, with a margin for the ones this call makes.
  release_pages(b.low, here() - (size_t{64} << 10));
  b.deep = false;
  t_check_below = b.soft ? b.soft : b.hard;
}

}  // namespace frazil
