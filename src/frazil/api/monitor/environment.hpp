// The environment switches of query monitoring, read once per process:
//   FRAZIL_VERBOSE=1 (or POLARS_VERBOSE=1)  log optimizer passes and pipelines to stderr
//   FRAZIL_TRACE=1                          also list every rewrite the optimizer made
//   FRAZIL_PROGRESS=0/1                     progress display off / on (default: on when
//                                           stderr is a terminal)
//   FRAZIL_PROGRESS_DELAY_MS                how long a query runs before it shows (2000)
#pragma once

#include <optional>

namespace frazil::monitor {

bool verbose_enabled();
bool trace_enabled();
// nullopt: not set (then the display follows whether stderr is a terminal).
std::optional<bool> progress_setting();
int progress_delay_ms();

}  // namespace frazil::monitor
