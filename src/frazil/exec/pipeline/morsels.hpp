// Cutting a materialised frame into morsels of about `morsel_size` rows without copying.
// A frame built from pipeline output has one chunk per morsel already; those chunks are
// grouped as they are (slicing a many-chunk column row by row would cost a walk over all
// chunks per morsel). Other frames are sliced.
#pragma once

#include <vector>

#include "frazil/core/frame.hpp"

namespace frazil::exec {

std::vector<DataFrame> split_morsels(const DataFrame& df, int64_t morsel_size);

}  // namespace frazil::exec
