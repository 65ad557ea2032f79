#include "frazil/api/monitor/progress_display.hpp"

#include <unistd.h>

#include <cstdio>

#include "frazil/api/monitor/environment.hpp"

namespace frazil::monitor {

namespace {

std::string count(double n) {
  char buf[32];
  if (n >= 1e9) std::snprintf(buf, sizeof buf, "%.1fB", n / 1e9);
  else if (n >= 1e6) std::snprintf(buf, sizeof buf, "%.1fM", n / 1e6);
  else if (n >= 1e3) std::snprintf(buf, sizeof buf, "%.1fk", n / 1e3);
  else std::snprintf(buf, sizeof buf, "%.0f", n);
  return buf;
}

std::string bytes(double n) {
  char buf[32];
  if (n >= 1 << 30) std::snprintf(buf, sizeof buf, "%.1f GB", n / (1 << 30));
  else if (n >= 1 << 20) std::snprintf(buf, sizeof buf, "%.1f MB", n / (1 << 20));
  else std::snprintf(buf, sizeof buf, "%.0f kB", n / 1024);
  return buf;
}

}  // namespace

bool ProgressDisplay::wanted() {
  if (auto s = progress_setting()) return *s;
  return isatty(STDERR_FILENO) == 1;
}

ProgressDisplay::ProgressDisplay() : start_(std::chrono::steady_clock::now()) {
  thread_ = std::thread([this] { loop(); });
}

ProgressDisplay::~ProgressDisplay() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
  if (drawn_) {
    std::fputs("\r\x1b[2K", stderr);
    std::fflush(stderr);
  }
}

void ProgressDisplay::pipeline_started(size_t, int64_t source_rows) {
  ++pipelines_running_;
  if (source_rows >= 0) total_rows_ += source_rows;
  else total_known_ = false;
}

void ProgressDisplay::batch_done(int64_t rows, int64_t b) {
  rows_ += rows;
  bytes_ += b;
}

void ProgressDisplay::pipeline_finished(int64_t) {
  --pipelines_running_;
  ++pipelines_done_;
}

std::string ProgressDisplay::line() const {
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char head[32];
  std::snprintf(head, sizeof head, "frazil: %.1f s", secs);
  std::string out = head;
  out += " | " + count(static_cast<double>(rows_.load()));
  if (total_known_ && total_rows_.load() > 0) out += " of " + count(static_cast<double>(total_rows_.load()));
  out += " rows read (" + bytes(static_cast<double>(bytes_.load())) + ")";
  int done = pipelines_done_.load(), running = pipelines_running_.load();
  out += " | " + std::to_string(done) + (done == 1 ? " pipeline done" : " pipelines done");
  if (running > 0) out += ", " + std::to_string(running) + " running";
  return out;
}

void ProgressDisplay::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  // Quick queries end before the delay and draw nothing.
  if (cv_.wait_for(lock, std::chrono::milliseconds(progress_delay_ms()), [this] { return stop_; })) return;
  while (!stop_) {
    std::string text = "\r\x1b[2K" + line();
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
    drawn_ = true;
    cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stop_; });
  }
}

}  // namespace frazil::monitor
