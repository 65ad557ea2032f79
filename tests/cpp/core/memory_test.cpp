#include <gtest/gtest.h>

#include "frazil/core/buffer.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"

using namespace frazil;

TEST(MemoryLimit, ParsesSizes) {
  EXPECT_EQ(parse_memory_size("1024"), 1024);
  EXPECT_EQ(parse_memory_size("512M"), int64_t{512} << 20);
  EXPECT_EQ(parse_memory_size("8g"), int64_t{8} << 30);
  EXPECT_EQ(parse_memory_size("2GiB"), int64_t{2} << 30);
  EXPECT_EQ(parse_memory_size("3kb"), 3072);
  EXPECT_THROW(parse_memory_size("G"), InvalidOperationError);
  EXPECT_THROW(parse_memory_size("12X"), InvalidOperationError);
}

TEST(MemoryLimit, BuffersAreCountedAndTheLimitHolds) {
  const int64_t before = memory_in_use();
  const int64_t old_limit = memory_limit();
  {
    Buffer a = Buffer::allocate(1 << 20);
    EXPECT_GE(memory_in_use(), before + (1 << 20));
    set_memory_limit(memory_in_use() + (4 << 20));
    EXPECT_THROW(Buffer::allocate(8 << 20), OutOfMemoryError);
    Buffer b = Buffer::allocate(2 << 20);  // within the limit
    set_memory_limit(old_limit);
  }
  EXPECT_EQ(memory_in_use(), before);  // freed buffers are uncounted, a refused one never counted
  EXPECT_THROW(set_memory_limit(-1), InvalidOperationError);
}
