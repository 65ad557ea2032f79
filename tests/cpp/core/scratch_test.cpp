#include "frazil/core/scratch.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

#include "frazil/core/buffer.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory.hpp"

using namespace frazil;

TEST(ScratchVector, BehavesAsAVectorWithExplicitValues) {
  ScratchVector<int64_t> v;
  EXPECT_TRUE(v.empty());
  v.resize(0);
  EXPECT_TRUE(v.empty());
  v.push_back(7);
  EXPECT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0], 7);
  v.assign(1000, 3);  // an explicit value is written
  EXPECT_EQ(std::accumulate(v.begin(), v.end(), int64_t{0}), 3000);
  v.resize(2000, -1);
  EXPECT_EQ(v[1999], -1);
  ScratchVector<int64_t> w(v.begin(), v.begin() + 10);
  EXPECT_EQ(w.size(), 10u);
  EXPECT_EQ(w[9], 3);
  ScratchVector<uint8_t> bytes(5, 0);
  for (uint8_t b : bytes) EXPECT_EQ(b, 0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(v.data()) % 64, 0u);  // blocks are 64-byte aligned
}

TEST(ScratchVector, LargeBlocksAreCountedAndRecycled) {
  const int64_t before = memory_in_use();
  const size_t n = (size_t{1} << 20) / sizeof(uint64_t);  // 1 MiB: a cached block class
  const uint64_t* first = nullptr;
  {
    ScratchVector<uint64_t> v(n);
    EXPECT_GE(memory_in_use(), before + (int64_t{1} << 20));
    v[n - 1] = 42;
    first = v.data();
  }
  EXPECT_EQ(memory_in_use(), before);
  const int64_t cached = memory_cached();
  EXPECT_GE(cached, int64_t{1} << 20);
  {
    // The same class comes back from the cache (same block), uninitialised.
    ScratchVector<uint64_t> v(n - 100);
    EXPECT_EQ(v.data(), first);
    EXPECT_EQ(memory_cached(), cached - (int64_t{1} << 20));
  }
  {
    // Buffers share the cache.
    Buffer b = Buffer::allocate((size_t{1} << 20) - 64);
    EXPECT_EQ(b.as<uint64_t>(), first);
  }
  release_cached_memory();
  EXPECT_EQ(memory_cached(), 0);
  EXPECT_EQ(memory_in_use(), before);
}

TEST(ScratchVector, MemoryLimitCountsScratchAndBoundsTheCache) {
  const int64_t before = memory_in_use();
  const int64_t old_limit = memory_limit();
  release_cached_memory();
  set_memory_limit(before + (int64_t{8} << 20));
  // Past the limit: refused, nothing counted.
  EXPECT_THROW(ScratchVector<uint8_t>(size_t{16} << 20), OutOfMemoryError);
  EXPECT_EQ(memory_in_use(), before);
  {
    ScratchVector<uint8_t> a(size_t{4} << 20);
    { ScratchVector<uint8_t> b(size_t{2} << 20); }
    // b's block is cached beside a: 6 MiB held, within the 8 MiB limit.
    EXPECT_EQ(memory_cached(), int64_t{2} << 20);
  }
  // a's block joins the cache: still within the limit.
  EXPECT_LE(memory_in_use() + memory_cached(), before + (int64_t{8} << 20));
  {
    // A fresh 8 MiB block (no cached block of its class) makes the cache give way.
    ScratchVector<uint8_t> c(size_t{8} << 20);
    EXPECT_LE(memory_in_use() + memory_cached(), before + (int64_t{8} << 20));
  }
  set_memory_limit(old_limit);
  release_cached_memory();
  EXPECT_EQ(memory_in_use(), before);
}
