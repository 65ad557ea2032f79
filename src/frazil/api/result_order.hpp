// How much of the row order of a plan's result the plan defines, for verify mode
// (api/verify.hpp). Internal: not part of the installed API.
#pragma once

#include "frazil/api/verify.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil {

ResultOrder result_order(plan::Node root, const plan::IRArena& lp);

}  // namespace frazil
