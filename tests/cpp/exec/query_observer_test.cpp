#include "frazil/exec/query_observer.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/exec/executor.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

namespace {

// Records what the executor reports.
struct Recorder : exec::QueryObserver {
  std::mutex mu;
  std::vector<std::string> events;
  int depth = 0, max_depth = 0;
  std::atomic<int64_t> batch_rows{0}, batch_bytes{0}, batches{0};
  void node_started(plan::Node, const plan::IR&) override {
    std::lock_guard<std::mutex> lock(mu);
    max_depth = std::max(max_depth, ++depth);
  }
  void node_finished(plan::Node, const plan::IR& ir, int64_t rows) override {
    std::lock_guard<std::mutex> lock(mu);
    --depth;
    events.push_back("node " + std::to_string(static_cast<int>(ir.kind())) + " " + std::to_string(rows));
  }
  void pipeline_started(size_t n, int64_t rows) override {
    std::lock_guard<std::mutex> lock(mu);
    events.push_back("pipeline " + std::to_string(n) + " " + std::to_string(rows));
  }
  void batch_done(int64_t rows, int64_t bytes) override {
    batch_rows += rows;
    batch_bytes += bytes;
    ++batches;
  }
  void pipeline_finished(int64_t rows) override {
    std::lock_guard<std::mutex> lock(mu);
    events.push_back("done " + std::to_string(rows));
  }
};

DataFrame numbers(int64_t n) {
  PrimitiveBuilder<int64_t> k(DataType::int64()), v(DataType::int64());
  for (int64_t i = 0; i < n; ++i) {
    k.push(i % 7);
    v.push(i);
  }
  return DataFrame({Column("k", k.finish()), Column("v", v.finish())});
}

}  // namespace

// Every node that runs is reported once, nested, with its output height; every batch a
// pipeline's source gives is counted; a run without an observer calls nothing.
TEST(QueryObserver, ReportsNodesPipelinesAndBatches) {
  LazyFrame lf = LazyFrame::from_frame(numbers(10'000))
                     .filter(col("v") > lit(int64_t{99}))
                     .group_by({col("k")})
                     .agg({col("v").sum()})
                     .sort({col("k")});
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root = optimizer::optimize(plan::to_alp(lf.plan(), lp, ea, OptFlags()), lp, ea, OptFlags());
  Recorder r;
  exec::ExecOptions options;
  options.morsel_size = 1000;
  options.observer = &r;
  DataFrame out = exec::execute_plan(root, lp, ea, options);
  EXPECT_EQ(out.height(), 7);
  EXPECT_EQ(r.depth, 0);
  EXPECT_GE(r.max_depth, 2);  // the sort holds the group-by
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events.back(), "node " + std::to_string(static_cast<int>(plan::IRKind::Sort)) + " 7");
  EXPECT_EQ(r.batch_rows.load(), 10'000);  // the frame's rows, read once
  EXPECT_EQ(r.batch_bytes.load(), 10'000 * 16);
  EXPECT_GE(r.batches.load(), 1);
  const bool has_pipeline = std::any_of(r.events.begin(), r.events.end(),
                                        [](const std::string& e) { return e.rfind("pipeline ", 0) == 0; });
  EXPECT_TRUE(has_pipeline);
  // The same query without an observer gives the same answer.
  EXPECT_TRUE(exec::execute_plan(root, lp, ea, exec::ExecOptions{}).equals(out));
}

TEST(QueryObserver, FrameBytesCountsEveryBuffer) {
  EXPECT_EQ(exec::frame_bytes(numbers(100)), 100 * 16);
  ViewBuilder s;
  s.push("short");
  s.push_null();
  DataFrame df({Column("s", s.finish())});
  EXPECT_GE(exec::frame_bytes(df), 2 * 16);
}
