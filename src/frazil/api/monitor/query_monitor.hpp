// Everything that watches one query run: the progress display, the FRAZIL_VERBOSE log
// and, for LazyFrame::profile(), the timing of every plan node. LazyFrame::collect()
// makes one per query; when nothing watches, observer() is null and the executor calls
// nothing.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "frazil/api/monitor/progress_display.hpp"
#include "frazil/exec/query_observer.hpp"

namespace frazil::monitor {

// One timed span of a profile, microseconds since the query started.
struct ProfileSpan {
  std::string node;
  int64_t start_us;
  int64_t end_us;
};

class QueryMonitor : public exec::QueryObserver {
 public:
  explicit QueryMonitor(bool profile = false);
  ~QueryMonitor() override;

  // Null when neither the progress display, the verbose log nor a profile is on.
  exec::QueryObserver* observer() { return active_ ? this : nullptr; }

  // The plan has been converted and optimized: prints what FRAZIL_TRACE / FRAZIL_VERBOSE
  // ask for (the recorded rewrites and pass timings) and, for a profile, records the
  // "optimization" span.
  void optimized();
  // The query is done: the verbose log's summary line.
  void finished(int64_t rows);
  const std::vector<ProfileSpan>& spans() const { return spans_; }

  void node_started(plan::Node node, const plan::IR& ir) override;
  void node_finished(plan::Node node, const plan::IR& ir, int64_t rows) override;
  void pipeline_started(size_t batches, int64_t source_rows) override;
  void batch_done(int64_t rows, int64_t bytes) override;
  void pipeline_finished(int64_t rows_out) override;

 private:
  int64_t now_us() const;

  std::chrono::steady_clock::time_point start_;
  bool profile_;
  bool verbose_;
  bool active_;
  std::unique_ptr<ProgressDisplay> progress_;
  std::mutex mu_;
  std::vector<ProfileSpan> spans_;
};

// Writes one line to stderr, prefixed "[frazil] ", whole even when threads log at once.
void log_line(const std::string& text);

// Prints (and clears) the rewrites and timings recorded while a plan was converted and
// optimized, when FRAZIL_TRACE (everything) or FRAZIL_VERBOSE (timings) is set.
void print_trace_events();

}  // namespace frazil::monitor
