#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>

#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"

using namespace frazil;

namespace {

// A recursion with real frames (about 1 KiB each), checked at every level.
int64_t descend(int64_t depth) {
  volatile char frame[1024];
  std::memset(const_cast<char*>(frame), static_cast<int>(depth & 0x7f), sizeof frame);
  check_stack("descend");
  if (depth == 0) return frame[7];
  return descend(depth - 1) + frame[depth % sizeof frame];
}

}  // namespace

TEST(Stack, CheckRaisesBeforeTheStackRunsOut) {
  // 100,000 KiB-frames need about 100 MiB: more than a default 8 MiB thread stack.
  std::string message;
  std::thread t([&] {
    try {
      descend(100000);
    } catch (const ComputeError& e) {
      message = e.what();
    }
  });
  t.join();
  EXPECT_NE(message.find("descend: the plan or expression is nested too deeply for the stack"), std::string::npos)
      << message;
}

TEST(Stack, LargeStacksRunDeepRecursions) {
  std::thread t([] {
    const size_t before = stack_remaining();
    int64_t value = 0;
    size_t inside = 0;
    run_on_large_stack([&] {
      inside = stack_remaining();
      value = descend(100000);
    });
    EXPECT_GT(inside, before);
    EXPECT_GE(inside + (size_t{1} << 20), large_stack_size() / 2);
    EXPECT_GT(value, 0);
    EXPECT_EQ(stack_remaining(), before);  // back on the thread's own stack
  });
  t.join();
}

TEST(Stack, ResultsAndExceptionsPassThrough) {
  EXPECT_EQ(run_on_large_stack([] { return std::string("done"); }), "done");
  EXPECT_THROW(run_on_large_stack([]() -> int { throw ShapeError("shape"); }), ShapeError);
  // A call inside runs where it is; the stack stays usable after an error.
  const int nested = run_on_large_stack([] {
    const size_t outer = stack_remaining();
    return run_on_large_stack([&] { return stack_remaining() <= outer ? 7 : 0; });
  });
  EXPECT_EQ(nested, 7);
  EXPECT_EQ(run_on_large_stack([] { return descend(1000) > 0; }), true);
}
