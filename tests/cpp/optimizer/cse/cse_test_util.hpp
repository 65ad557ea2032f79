// Shared by the CSE tests: frames, a plan converted into arenas, and running it.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frazil/exec/executor.hpp"
#include "frazil/frazil.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::cse_test {

// k: 1..4 cycling, a: 0..n-1, b: a * 10 (every 7th null), s: "x<k>".
inline DataFrame frame(int64_t n = 40) {
  PrimitiveBuilder<int64_t> k(DataType::int64()), a(DataType::int64()), b(DataType::int64());
  for (int64_t i = 0; i < n; ++i) {
    k.push(i % 4 + 1);
    a.push(i);
    if (i % 7 == 3) b.push_null();
    else b.push(i * 10);
  }
  return DataFrame({Column("k", k.finish()), Column("a", a.finish()), Column("b", b.finish())});
}

// A plan converted into its own arenas, as LazyFrame::collect does before optimizing.
struct Plan {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;

  explicit Plan(const LazyFrame& lf, const OptFlags& flags = OptFlags()) {
    root = plan::to_alp(lf.plan(), lp, ea, flags);
  }
  std::string explain() const { return plan::explain_plan(root, lp, ea); }
  DataFrame run(exec::ExecStats* stats = nullptr) const {
    exec::ExecOptions o;
    o.stats = stats;
    return exec::execute_plan(root, lp, ea, o);
  }
  void optimize(const OptFlags& flags = OptFlags()) { root = optimizer::optimize(root, lp, ea, flags); }
  size_t count(const std::string& needle) const {
    const std::string s = explain();
    size_t n = 0;
    for (size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
    return n;
  }
};

inline OptFlags no_cse() {
  OptFlags f;
  f.comm_subexpr_elim = false;
  f.comm_subplan_elim = false;
  return f;
}

// The result with every optimization against the result with none.
inline void expect_same_as_unoptimized(const LazyFrame& lf, const OptFlags& flags = OptFlags()) {
  DataFrame want = lf.collect(OptFlags::none());
  DataFrame got = lf.collect(flags);
  EXPECT_TRUE(got.equals(want)) << "optimized:\n" << got.to_string() << "\nunoptimized:\n" << want.to_string()
                                << "\nplan:\n" << lf.explain(true, flags);
}

}  // namespace frazil::cse_test
