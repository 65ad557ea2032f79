#include "frazil/exec/spill/run_merger.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frazil/compute/row_encoding/row_encoding.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/exec/spill/sorted_runs.hpp"
#include "spill_test_util.hpp"

using namespace frazil;
using namespace frazil::exec::spill;

namespace {

// Few distinct keys (many ties) with nulls, NaN and -0.0; "row" numbers the input.
DataFrame input(int64_t n, int64_t start, uint32_t seed) {
  std::mt19937 rng(seed);
  PrimitiveBuilder<int64_t> k(DataType::int64());
  PrimitiveBuilder<double> f(DataType::float64());
  ViewBuilder s;
  PrimitiveBuilder<int64_t> row(DataType::int64());
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t r = rng();
    if (r % 11 == 0) k.push_null();
    else k.push(static_cast<int64_t>(r % 7) - 3);
    const uint32_t q = (r >> 8) % 13;
    if (q == 0) f.push_null();
    else if (q == 1) f.push(std::nan(""));
    else if (q == 2) f.push(-0.0);
    else if (q == 3) f.push(0.0);
    else f.push(static_cast<double>(q % 5) - 2.5);
    if ((r >> 16) % 9 == 0) s.push_null();
    else s.push(std::string((r >> 20) % 4, 'z') + std::to_string((r >> 24) % 3));
    row.push(start + i);
  }
  return DataFrame({Column("k", k.finish()), Column("f", f.finish()), Column("s", s.finish()),
                    Column("row", row.finish())});
}

struct Order {
  std::vector<bool> descending;
  std::vector<bool> nulls_last;
};

std::vector<ArrayRef> keys_of(const DataFrame& df, const std::vector<std::string>& by) {
  std::vector<ArrayRef> keys;
  for (const auto& name : by) keys.push_back(df.column(name).as_array());
  return keys;
}

compute::SortOptions options(const Order& o) {
  compute::SortOptions opts;
  opts.descending = o.descending;
  opts.nulls_last = o.nulls_last;
  opts.stable = true;
  return opts;
}

// What the sort sink writes: the rows stably sorted, their keys' row encoding last.
DataFrame sorted_run(const DataFrame& df, const std::vector<std::string>& by, const Order& o) {
  const std::vector<ArrayRef> keys = keys_of(df, by);
  std::vector<compute::RowEncodingField> fields;
  for (size_t i = 0; i < by.size(); ++i) fields.push_back({o.descending[i], o.nulls_last[i]});
  DataFrame with_key = df.with_column(Column(kRunKeyColumn, compute::row_encode(keys, fields)));
  return compute::take_frame(with_key, compute::arg_sort(keys, options(o)));
}

DataFrame without_key(const DataFrame& df) {
  std::vector<std::string> names = df.names();
  names.pop_back();
  return df.select(names);
}

void expect_same(const DataFrame& got, const DataFrame& want) {
  ASSERT_EQ(got.height(), want.height());
  ASSERT_EQ(got.names(), want.names());
  for (size_t c = 0; c < got.width(); ++c)
    for (int64_t i = 0; i < got.height(); ++i)
      ASSERT_EQ(got.column(c).get(i).to_string(), want.column(c).get(i).to_string())
          << got.column(c).name() << " row " << i;
}

DataFrame drain(RunMerger& m, int64_t batch) {
  std::vector<DataFrame> parts;
  for (DataFrame b = m.next(batch); b.height() > 0; b = m.next(batch)) {
    EXPECT_LE(b.height(), batch);
    parts.push_back(b);
  }
  return concat_frames(parts).rechunk();
}

// Runs of various sizes (one empty) cut from one input in order.
struct Cut {
  DataFrame whole;
  SortedRuns runs;
};

void cut(Cut& c, const std::vector<std::string>& by, const Order& o, int64_t batch_rows) {
  std::vector<DataFrame> parts;
  int64_t start = 0;
  uint32_t seed = 1;
  for (int64_t n : {3000, 1, 0, 4500, 2200, 777}) {
    DataFrame part = input(n, start, seed++);
    start += n;
    parts.push_back(part);
    if (n > 0) c.runs.add(sorted_run(part, by, o), batch_rows);
  }
  c.whole = concat_frames(parts).rechunk();
}

}  // namespace

TEST(RunMerger, MergesRunsAsOneStableSortOfTheWholeInput) {
  TempDirEnv env;
  const std::vector<std::string> by = {"k", "f", "s"};
  for (const Order& o : {Order{{false, false, false}, {false, false, false}},
                         Order{{true, false, true}, {true, false, true}},
                         Order{{false, true, false}, {false, true, true}}}) {
    Cut c;
    cut(c, by, o, /*batch_rows=*/333);
    EXPECT_EQ(c.runs.size(), 5u);
    const DataFrame want = compute::take_frame(c.whole, compute::arg_sort(keys_of(c.whole, by), options(o)));
    for (int64_t batch : {1, 1000, 100'000}) {
      RunMerger m(c.runs.files());
      EXPECT_EQ(m.remaining(), c.whole.height());
      expect_same(without_key(drain(m, batch)), want);
      EXPECT_EQ(m.remaining(), 0);
    }
  }
}

TEST(RunMerger, SkipsAnOffsetThenGoesOn) {
  TempDirEnv env;
  const Order o{{true}, {true}};
  Cut c;
  cut(c, {"f"}, o, 500);
  const DataFrame want = compute::take_frame(c.whole, compute::arg_sort(keys_of(c.whole, {"f"}), options(o)));
  RunMerger m(c.runs.files());
  m.skip(4321);
  EXPECT_EQ(m.remaining(), c.whole.height() - 4321);
  expect_same(without_key(m.next(100)), want.slice(4321, 100));
  m.skip(1'000'000);  // past the end
  EXPECT_EQ(m.remaining(), 0);
  EXPECT_EQ(m.next(10).height(), 0);
}

TEST(SortedRuns, ReducingTheFanInKeepsTheOrderAndRemovesMergedRuns) {
  TempDirEnv env;
  const std::vector<std::string> by = {"s", "k"};
  const Order o{{false, true}, {true, false}};
  Cut c;
  cut(c, by, o, 250);
  const DataFrame want = compute::take_frame(c.whole, compute::arg_sort(keys_of(c.whole, by), options(o)));
  EXPECT_EQ(env.files(), 5u);
  c.runs.reduce(/*fan_in=*/2, /*batch_rows=*/400);
  EXPECT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(env.files(), 2u) << "the merged runs' files are gone";
  EXPECT_EQ(c.runs.rows(), c.whole.height());
  RunMerger m(c.runs.files());
  expect_same(without_key(drain(m, 4096)), want);
}

TEST(SortedRuns, FilesGoWithTheRuns) {
  TempDirEnv env;
  {
    SortedRuns runs;
    runs.add(sorted_run(input(100, 0, 3), {"k"}, Order{{false}, {false}}), 10);
    runs.add(sorted_run(input(100, 100, 4), {"k"}, Order{{false}, {false}}), 10);
    EXPECT_EQ(env.files(), 2u);
  }
  EXPECT_EQ(env.files(), 0u);
}
