#include "frazil/optimizer/optimizer.hpp"

#include <chrono>
#include <functional>

#include "frazil/core/error.hpp"

namespace frazil::optimizer {

using plan::Node;

namespace {

struct Pass {
  const char* name;
  bool enabled;
  std::function<Node(Node)> run;
};

}  // namespace

Node optimize(Node root, plan::IRArena& lp, plan::ExprArena& ea, const plan::OptFlags& flags,
              std::vector<PassTiming>* timings) {
  std::vector<Pass> passes = {
      // Passes are added here in the order Polars runs them.
  };
  const Schema before = *lp.get(root).schema;
  for (auto& pass : passes) {
    if (!pass.enabled) continue;
    auto start = std::chrono::steady_clock::now();
    root = pass.run(root);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (timings) timings->push_back({pass.name, secs});
    const Schema& after = *lp.get(root).schema;
    if (!(after == before))
      throw InternalError(err_msg("optimizer pass '", pass.name, "' changed the output schema from ",
                                  before.to_string(), " to ", after.to_string()));
  }
  return root;
}

}  // namespace frazil::optimizer
