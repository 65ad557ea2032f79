#include "frazil/exec/spill/spill_partitions.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "frazil/compute/hash.hpp"
#include "frazil/core/builder.hpp"
#include "spill_test_util.hpp"

using namespace frazil;
using namespace frazil::exec::spill;

namespace {

// Keys repeating every `keys` rows, and the row number as the value.
DataFrame keyed(int64_t n, int64_t keys, int64_t start) {
  ViewBuilder k;
  PrimitiveBuilder<int64_t> row(DataType::int64());
  for (int64_t i = start; i < start + n; ++i) {
    if (i % keys == 0) k.push_null();
    else k.push("key" + std::to_string(i % keys));
    row.push(i);
  }
  return DataFrame({Column("k", k.finish()), Column("row", row.finish())});
}

std::vector<uint64_t> hashes(const DataFrame& df) { return compute::hash_rows({df.column("k").as_array()}); }

}  // namespace

TEST(SpillPartitions, EveryKeyInOnePartitionRowsInOrderFilesGoWithTheOwner) {
  TempDirEnv env;
  {
    SpillPartitions parts("group-by", 8);
    for (int64_t start : {0, 3000, 7000}) {
      DataFrame df = keyed(start == 3000 ? 4000 : 3000, 97, start);
      parts.append(df, hashes(df));
    }
    parts.finish();
    EXPECT_GT(env.files(), 1u);
    std::map<std::string, size_t> partition_of_key;
    int64_t total = 0;
    for (size_t p = 0; p < parts.parts(); ++p) {
      if (!parts.file(p)) continue;
      DataFrame back = parts.file(p)->read_all().rechunk();
      EXPECT_EQ(back.height(), parts.rows(p));
      EXPECT_GT(parts.bytes(p), 0);
      total += back.height();
      int64_t last = -1;
      for (int64_t i = 0; i < back.height(); ++i) {
        const int64_t row = back.column("row").get(i).as_int64();
        EXPECT_GT(row, last) << "rows keep their order within a partition";
        last = row;
        auto [it, fresh] = partition_of_key.emplace(back.column("k").get(i).to_string(), p);
        EXPECT_EQ(it->second, p) << "key " << it->first << " in two partitions";
      }
      parts.drop(p);
    }
    EXPECT_EQ(total, 10000);
    EXPECT_EQ(partition_of_key.size(), 97u);
    EXPECT_EQ(env.files(), 0u);  // each dropped once read back
    DataFrame again = keyed(100, 7, 0);
    SpillPartitions kept("group-by", 4);
    kept.append(again, hashes(again));
    kept.finish();
    EXPECT_GT(env.files(), 0u);
  }
  EXPECT_EQ(env.files(), 0u);  // gone with their owner
}

TEST(SpillPartitions, AFinerLevelSplitsTheRowsOfOnePartition) {
  TempDirEnv env;
  DataFrame df = keyed(20000, 5000, 0);
  const std::vector<uint64_t> h = hashes(df);
  SpillPartitions top("group-by", 4);
  SpillPartitions finer("group-by", 16, 1);
  std::set<size_t> finer_parts;
  for (size_t i = 0; i < h.size(); ++i)
    if (top.partition_of(h[i]) == 0) finer_parts.insert(finer.partition_of(h[i]));
  // The rows of one level-0 partition share their high hash bits; level 1 spreads them.
  EXPECT_GE(finer_parts.size(), 12u);
}
