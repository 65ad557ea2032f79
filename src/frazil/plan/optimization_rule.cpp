#include "frazil/plan/optimization_rule.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "frazil/core/env.hpp"

namespace frazil::plan {

bool passes_on_filter_predicate(const AExpr& e) {
  return e.kind == AExprKind::BinaryExpr && (e.op == dsl::Operator::And || e.op == dsl::Operator::Or);
}

namespace {
thread_local std::vector<RewriteEvent> t_events;
thread_local int t_enabled = -1;  // -1: not decided yet, read the environment
}  // namespace

bool RewriteTrace::enabled() {
  if (t_enabled < 0) {
    // FRAZIL_TRACE lists the rewrites; FRAZIL_VERBOSE (POLARS_VERBOSE) logs the timings.
    // Polars' own variable is read as Polars reads it; frazil's strictly (core/env.hpp).
    const char* polars = std::getenv("POLARS_VERBOSE");
    const bool polars_verbose = polars && *polars && std::string(polars) != "0";
    t_enabled = (env_flag("FRAZIL_TRACE") || env_flag("FRAZIL_VERBOSE") || polars_verbose) ? 1 : 0;
  }
  return t_enabled == 1;
}

RewriteEvent timing_event(const char* step, double seconds) {
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.3fms", seconds * 1e3);
  return {"timing", step, ms};
}

void RewriteTrace::set_enabled(bool on) { t_enabled = on ? 1 : 0; }

void RewriteTrace::record(RewriteEvent event) { t_events.push_back(std::move(event)); }

size_t RewriteTrace::recorded() { return t_events.size(); }

std::vector<RewriteEvent> RewriteTrace::take() { return std::exchange(t_events, {}); }

}  // namespace frazil::plan
