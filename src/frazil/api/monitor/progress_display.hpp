// The progress line of a long query on a terminal: after the query has run for about two
// seconds, stderr shows (redrawn four times a second, erased when the query ends)
//
//   frazil: 4.2 s | 18.0M of 60.0M rows read (1.3 GB) | 2 pipelines done, 1 running
//
// Rows are those the pipelines' sources gave (a Parquet scan's row groups, or results
// read again); the total grows as pipelines start. Shown when stderr is a terminal, or
// always with FRAZIL_PROGRESS=1; never with FRAZIL_PROGRESS=0.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "frazil/exec/query_observer.hpp"

namespace frazil::monitor {

class ProgressDisplay : public exec::QueryObserver {
 public:
  // Whether a query started now would show progress (the environment and the terminal).
  static bool wanted();

  ProgressDisplay();
  ~ProgressDisplay() override;  // stops the redraw thread and erases the line

  void pipeline_started(size_t batches, int64_t source_rows) override;
  void batch_done(int64_t rows, int64_t bytes) override;
  void pipeline_finished(int64_t rows_out) override;

  // The line as it would be drawn now (for tests).
  std::string line() const;

 private:
  void loop();

  std::chrono::steady_clock::time_point start_;
  std::atomic<int64_t> rows_{0}, bytes_{0}, total_rows_{0};
  std::atomic<int> pipelines_done_{0}, pipelines_running_{0};
  std::atomic<bool> total_known_{true};
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  std::thread thread_;
};

}  // namespace frazil::monitor
