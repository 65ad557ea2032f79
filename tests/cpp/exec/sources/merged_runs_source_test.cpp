#include "frazil/exec/sources/merged_runs_source.hpp"

#include <gtest/gtest.h>

#include "frazil/compute/row_encoding/row_encoding.hpp"
#include "frazil/core/builder.hpp"
#include "../spill/spill_test_util.hpp"

using namespace frazil;
using namespace frazil::exec;

namespace {

// A run of the values start, start + step, ... (ascending), with their row encoding last.
DataFrame run_of(int64_t start, int64_t step, int64_t n) {
  PrimitiveBuilder<int64_t> v(DataType::int64());
  for (int64_t i = 0; i < n; ++i) v.push(start + i * step);
  ArrayRef values = v.finish();
  return DataFrame({Column("v", values), Column(spill::kRunKeyColumn, compute::row_encode({values}, {}))});
}

}  // namespace

TEST(MergedRunsSource, BatchesAskedOutOfOrderInAWaveComeInMergedOrderWithTheSliceAndNoKey) {
  spill::TempDirEnv env;
  auto runs = std::make_shared<spill::SortedRuns>();
  runs->add(run_of(0, 3, 400), 64);  // 0, 3, 6, ...
  runs->add(run_of(1, 3, 400), 50);  // 1, 4, 7, ...
  runs->add(run_of(2, 3, 400), 77);  // 2, 5, 8, ...
  // Rows [100, 100 + 1000) of the merge, in batches of 300.
  MergedRunsSource source(runs, 100, 1000, 300, 2);
  source.open();
  EXPECT_EQ(source.wave(), 2u);
  ASSERT_EQ(source.num_batches(), 4u);
  EXPECT_EQ(source.total_rows(), 1000);
  std::vector<DataFrame> got(4);
  for (size_t i : {1, 0, 3, 2}) got[i] = source.batch(i);  // a wave's workers in any order
  int64_t want = 100;
  for (const DataFrame& b : got) {
    ASSERT_EQ(b.width(), 1u) << "the key column is dropped";
    for (int64_t i = 0; i < b.height(); ++i) ASSERT_EQ(b.column(0).get(i).as_int64(), want++);
  }
  EXPECT_EQ(want, 1100);
}
