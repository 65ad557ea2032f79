// What the operators and the sink of a pipeline learn when it starts: the pipelines it
// reads have finalized and its source is open, so its size is known. Adaptive rules that
// lowering chose (which side of a join to build, whether a group-by runs in two phases)
// are decided here, once, before the first morsel.
#pragma once

#include <cstdint>

namespace frazil::exec {

struct PipelineStart {
  int64_t source_rows = 0;  // rows the source gives (before any filter of the pipeline)
  int64_t morsel_size = 100'000;
};

}  // namespace frazil::exec
