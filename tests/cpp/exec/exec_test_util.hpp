// Helpers of the exec tests: a query's optimized plan (arenas and root), its lowering with
// fixed threads and morsel size (so the text does not depend on the machine), and small
// frames.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/exec/executor.hpp"
#include "frazil/exec/lower/lower.hpp"
#include "frazil/exec/pipeline/runner.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

namespace frazil::exec_test {

struct OptimizedPlan {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;

  explicit OptimizedPlan(const LazyFrame& lf, const OptFlags& flags = OptFlags()) {
    root = optimizer::optimize(plan::to_alp(lf.plan(), lp, ea, flags), lp, ea, flags);
  }

  // The first node of `kind` reachable from the root (depth first, inputs in order).
  plan::Node find(plan::IRKind kind) const {
    std::vector<plan::Node> stack{root};
    while (!stack.empty()) {
      plan::Node n = stack.back();
      stack.pop_back();
      const plan::IR& ir = lp.get(n);
      if (ir.kind() == kind) return n;
      for (auto it = ir.inputs.rbegin(); it != ir.inputs.rend(); ++it) stack.push_back(*it);
    }
    ADD_FAILURE() << "no node of that kind in the plan";
    return root;
  }
};

inline exec::ExecOptions test_options(int64_t threads = 2, int64_t morsel_size = 1000) {
  exec::ExecOptions o;
  o.threads = threads;
  o.morsel_size = morsel_size;
  return o;
}

// Columns k = i % modulo and v = i, for i in [0, n).
inline DataFrame keyed(int64_t n, int64_t modulo, const std::string& k = "k", const std::string& v = "v") {
  PrimitiveBuilder<int64_t> kb(DataType::int64()), vb(DataType::int64());
  for (int64_t i = 0; i < n; ++i) {
    kb.push(i % modulo);
    vb.push(i);
  }
  return DataFrame({Column(k, kb.finish()), Column(v, vb.finish())});
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace frazil::exec_test
