#include "frazil/core/memory_reservation.hpp"

#include <gtest/gtest.h>

#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"

using namespace frazil;

namespace {
struct LimitGuard {
  int64_t old = memory_limit();
  ~LimitGuard() { set_memory_limit(old); }
};
}  // namespace

TEST(MemoryReservation, GrowsWithinTheLimitAndRefusesPastIt) {
  LimitGuard guard;
  const int64_t base = memory_in_use();
  set_memory_limit(base + (10 << 20));
  MemoryReservation r("test sink");
  EXPECT_TRUE(r.try_grow(6 << 20));
  EXPECT_EQ(r.bytes(), 6 << 20);
  EXPECT_EQ(memory_in_use(), base + (6 << 20));
  EXPECT_FALSE(r.try_grow(6 << 20));  // 12 MiB > 10 MiB: refused, nothing more counted
  EXPECT_EQ(r.bytes(), 6 << 20);
  EXPECT_EQ(memory_in_use(), base + (6 << 20));
  try {
    r.grow(6 << 20);
    FAIL() << "grow past the limit did not throw";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("limit of"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("test sink"), std::string::npos);
  }
  r.shrink(4 << 20);
  EXPECT_TRUE(r.try_grow(6 << 20));  // 8 MiB now fits
  EXPECT_TRUE(r.try_resize(1 << 20));
  EXPECT_EQ(memory_in_use(), base + (1 << 20));
}

TEST(MemoryReservation, DestructorAndMoveGiveBackExactlyOnce) {
  const int64_t base = memory_in_use();
  {
    MemoryReservation a("a");
    a.grow(3 << 20);
    MemoryReservation b = std::move(a);
    EXPECT_EQ(a.bytes(), 0);
    EXPECT_EQ(b.bytes(), 3 << 20);
    MemoryReservation c("c");
    c.grow(1 << 20);
    c = std::move(b);  // c's own MiB is given back
    EXPECT_EQ(memory_in_use(), base + (3 << 20));
  }
  EXPECT_EQ(memory_in_use(), base);
  {
    MemoryReservation d("d");
    d.grow(2 << 20);
    try {
      throw std::runtime_error("operator failed");
    } catch (...) {
    }
  }
  EXPECT_EQ(memory_in_use(), base);
}

TEST(MemoryReservation, NoLimitAlwaysGrows) {
  LimitGuard guard;
  set_memory_limit(0);
  MemoryReservation r;
  EXPECT_TRUE(r.try_grow(int64_t{1} << 40));  // counted, never refused
  r.release();
  EXPECT_EQ(r.bytes(), 0);
}
