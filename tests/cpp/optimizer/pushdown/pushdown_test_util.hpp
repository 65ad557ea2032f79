// Shared by the pushdown tests: small frames with nulls, NaN and -0.0, a plan converted
// into its own arenas so that one pass can run alone, and result comparisons.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "frazil/exec/executor.hpp"
#include "frazil/frazil.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::pushdown_test {

using dsl::col;
using dsl::lit;

// a: 1, 2, null, 4, 5, 2   b: 1.0, NaN, -0.0, null, 0.0, 2.5   g: x, y, x, null, y, x
inline DataFrame frame() {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  PrimitiveBuilder<double> b(DataType::float64());
  ViewBuilder g;
  const int64_t as[] = {1, 2, 0, 4, 5, 2};
  const double bs[] = {1.0, std::nan(""), -0.0, 0, 0.0, 2.5};
  const char* gs[] = {"x", "y", "x", nullptr, "y", "x"};
  for (int i = 0; i < 6; ++i) {
    if (i == 2) a.push_null();
    else a.push(as[i]);
    if (i == 3) b.push_null();
    else b.push(bs[i]);
    if (gs[i]) g.push(gs[i]);
    else g.push_null();
  }
  return DataFrame({Column("a", a.finish()), Column("b", b.finish()), Column("g", g.finish())});
}

// a: 1, 2, 5, null   f: true, null, false, true
inline DataFrame right_frame() {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  BooleanBuilder f;
  a.push(1), a.push(2), a.push(5), a.push_null();
  f.push(true), f.push_null(), f.push(false), f.push(true);
  return DataFrame({Column("a", a.finish()), Column("f", f.finish())});
}

// A plan converted into its own arenas, as LazyFrame::collect does before optimizing.
struct Plan {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;

  explicit Plan(const LazyFrame& lf) { root = plan::to_alp(lf.plan(), lp, ea, OptFlags()); }
  std::string explain() const { return plan::explain_plan(root, lp, ea); }
  DataFrame run() const { return exec::execute_plan(root, lp, ea); }
  // Runs one pass and checks that the result and the output schema did not change.
  Plan& apply(const std::function<plan::Node(plan::Node, plan::IRArena&, plan::ExprArena&)>& pass) {
    const DataFrame before = run();
    const Schema schema = *lp.get(root).schema;
    root = pass(root, lp, ea);
    EXPECT_EQ(*lp.get(root).schema, schema) << explain();
    const DataFrame after = run();
    EXPECT_TRUE(after.equals(before)) << "after:\n" << after.to_string() << "\nbefore:\n" << before.to_string()
                                      << "\nplan:\n" << explain();
    return *this;
  }
};

inline bool contains(const std::string& text, const std::string& fragment) {
  return text.find(fragment) != std::string::npos;
}

// The result with every optimization against the result with none.
inline void expect_same_as_unoptimized(const LazyFrame& lf) {
  DataFrame want = lf.collect(OptFlags::none());
  DataFrame got = lf.collect();
  EXPECT_TRUE(got.equals(want)) << "optimized:\n" << got.to_string() << "\nunoptimized:\n" << want.to_string()
                                << "\nplan:\n" << lf.explain();
}

}  // namespace frazil::pushdown_test
