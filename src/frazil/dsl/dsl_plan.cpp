#include "frazil/dsl/dsl_plan.hpp"

namespace frazil::dsl {

const char* scan_format_name(ScanFormat f) {
  switch (f) {
    case ScanFormat::Csv: return "csv";
    case ScanFormat::Parquet: return "parquet";
    case ScanFormat::Ipc: return "ipc";
    case ScanFormat::Ndjson: return "ndjson";
  }
  return "?";
}

const char* asof_strategy_name(AsofStrategy s) {
  switch (s) {
    case AsofStrategy::Backward: return "backward";
    case AsofStrategy::Forward: return "forward";
    case AsofStrategy::Nearest: return "nearest";
  }
  return "?";
}

DslPlan::~DslPlan() {
  if (inputs.empty()) return;
  std::vector<DslPlanRef> dying;
  auto take = [&](std::vector<DslPlanRef>& from) {
    for (DslPlanRef& p : from)
      if (p && p.use_count() == 1) dying.push_back(std::move(p));
  };
  take(inputs);
  while (!dying.empty()) {
    DslPlanRef p = std::move(dying.back());
    dying.pop_back();
    take(const_cast<DslPlan&>(*p).inputs);
  }
}

}  // namespace frazil::dsl
