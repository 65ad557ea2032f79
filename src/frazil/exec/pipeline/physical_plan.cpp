#include "frazil/exec/pipeline/physical_plan.hpp"

#include <sstream>

namespace frazil::exec {

namespace {

std::string id_list(const std::vector<PipelineId>& ids) {
  std::string s;
  for (size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + std::to_string(ids[i]);
  return s;
}

}  // namespace

std::string PhysicalPlan::explain() const {
  std::ostringstream os;
  os << "PHYSICAL PLAN: " << pipelines.size() << (pipelines.size() == 1 ? " pipeline" : " pipelines")
     << ", the result is pipeline " << root << "'s\n";
  for (size_t i = 0; i < pipelines.size(); ++i) {
    const Pipeline& p = pipelines[i];
    os << "PIPELINE " << i;
    if (p.node && lp) os << " (" << plan::ir_kind_name(lp->get(*p.node).kind()) << ")";
    if (!p.after.empty()) os << ", after " << id_list(p.after);
    if (!p.reads.empty()) os << ", reads " << id_list(p.reads);
    os << "\n  source: " << p.source->describe() << "\n";
    for (const auto& op : p.ops) os << "  -> " << op->describe() << "\n";
    os << "  sink: " << p.sink->describe() << (p.finalizes ? "" : " (finalized by a later pipeline)") << "\n";
  }
  return os.str();
}

}  // namespace frazil::exec
