#include "frazil/api/monitor/query_monitor.hpp"

#include <cstdio>

#include "frazil/api/monitor/environment.hpp"
#include "frazil/api/monitor/node_label.hpp"
#include "frazil/plan/optimization_rule.hpp"

namespace frazil::monitor {

namespace {

// Start times of the nodes and pipelines running on this thread (they nest).
thread_local std::vector<int64_t> t_node_starts;
thread_local std::vector<std::pair<int64_t, size_t>> t_pipeline_starts;  // start, batches
thread_local std::vector<int64_t> t_pipeline_rows;

std::string ms(int64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f ms", static_cast<double>(us) / 1e3);
  return buf;
}

}  // namespace

void log_line(const std::string& text) {
  static std::mutex mu;
  std::lock_guard<std::mutex> lock(mu);
  std::fprintf(stderr, "[frazil] %s\n", text.c_str());
}

QueryMonitor::QueryMonitor(bool profile)
    : start_(std::chrono::steady_clock::now()), profile_(profile), verbose_(verbose_enabled()) {
  if (ProgressDisplay::wanted()) progress_ = std::make_unique<ProgressDisplay>();
  active_ = profile_ || verbose_ || progress_;
}

QueryMonitor::~QueryMonitor() = default;

int64_t QueryMonitor::now_us() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start_).count();
}

void QueryMonitor::optimized() {
  if (profile_) {
    std::lock_guard<std::mutex> lock(mu_);
    spans_.push_back({"optimization", 0, now_us()});
  }
  print_trace_events();
}

void print_trace_events() {
  // Events are recorded when FRAZIL_TRACE or FRAZIL_VERBOSE is set (plan::RewriteTrace);
  // a trace enabled per query by a caller (Python's set_trace) is left for it to take.
  if (!trace_enabled() && !verbose_enabled()) return;
  for (const auto& e : plan::RewriteTrace::take()) {
    if (e.rule == "timing") {
      log_line(e.before + ": " + e.after);
    } else if (trace_enabled()) {
      log_line("rewrite " + e.rule + ": " + e.before + "  ->  " + e.after);
    }
  }
}

void QueryMonitor::finished(int64_t rows) {
  if (verbose_) log_line("query done: " + std::to_string(rows) + " rows in " + ms(now_us()));
}

void QueryMonitor::node_started(plan::Node, const plan::IR&) { t_node_starts.push_back(now_us()); }

void QueryMonitor::node_finished(plan::Node, const plan::IR& ir, int64_t rows) {
  int64_t start = t_node_starts.empty() ? 0 : t_node_starts.back();
  if (!t_node_starts.empty()) t_node_starts.pop_back();
  int64_t end = now_us();
  if (!profile_ && !verbose_) return;
  std::string label = node_label(ir);
  if (verbose_) log_line(label + ": " + std::to_string(rows) + " rows in " + ms(end - start));
  if (profile_) {
    std::lock_guard<std::mutex> lock(mu_);
    spans_.push_back({std::move(label), start, end});
  }
}

void QueryMonitor::pipeline_started(size_t batches, int64_t source_rows) {
  t_pipeline_starts.push_back({now_us(), batches});
  t_pipeline_rows.push_back(source_rows);
  if (progress_) progress_->pipeline_started(batches, source_rows);
}

void QueryMonitor::batch_done(int64_t rows, int64_t bytes) {
  if (progress_) progress_->batch_done(rows, bytes);
}

void QueryMonitor::pipeline_finished(int64_t rows_out) {
  auto [start, batches] = t_pipeline_starts.empty() ? std::pair<int64_t, size_t>{0, 0} : t_pipeline_starts.back();
  int64_t source_rows = t_pipeline_rows.empty() ? -1 : t_pipeline_rows.back();
  if (!t_pipeline_starts.empty()) t_pipeline_starts.pop_back();
  if (!t_pipeline_rows.empty()) t_pipeline_rows.pop_back();
  if (progress_) progress_->pipeline_finished(rows_out);
  if (!verbose_ && !profile_) return;
  const int64_t end = now_us();
  std::string label = "pipeline: " + std::to_string(batches) + " batches" +
                      (source_rows >= 0 ? ", " + std::to_string(source_rows) + " rows in" : std::string()) + ", " +
                      std::to_string(rows_out) + " rows out";
  if (verbose_) log_line(label + " in " + ms(end - start));
  if (profile_) {
    std::lock_guard<std::mutex> lock(mu_);
    spans_.push_back({std::move(label), start, end});
  }
}

}  // namespace frazil::monitor
