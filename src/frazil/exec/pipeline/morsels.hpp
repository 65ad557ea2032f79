// Cutting a materialised frame into morsels of about `morsel_size` rows without copying.
// A frame built from pipeline output has one chunk per morsel already; those chunks are
// grouped as they are (slicing a many-chunk column row by row would cost a walk over all
// chunks per morsel). Other frames are sliced.
#pragma once

#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/exec/operators/operators.hpp"

namespace frazil::exec {

std::vector<DataFrame> split_morsels(const DataFrame& df, int64_t morsel_size);

// The morsels of `df` through `ops` on every core, the outputs concatenated in order.
DataFrame run_on_morsels(const DataFrame& df, const std::vector<OperatorRef>& ops, int64_t morsel_size);

}  // namespace frazil::exec
