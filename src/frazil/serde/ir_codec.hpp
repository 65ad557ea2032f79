// The optimized plan (the IR and expression arenas) in the plan format, for plan fragments
// that run elsewhere: only the nodes reachable from the root are written, children before
// parents, so a plan read back is acyclic by construction and its node indices are dense.
// DSL expressions kept inside the IR (list.eval's element expressions) use the expression
// table; dtypes, literals, frames and scans use the same encoders as the DSL plan.
#pragma once

#include <string>
#include <string_view>

#include "frazil/plan/ir.hpp"
#include "frazil/serde/serialize.hpp"

namespace frazil::serde {

struct IrPlan {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root;
};

std::string serialize_ir(plan::Node root, const plan::IRArena& lp, const plan::ExprArena& ea);
IrPlan deserialize_ir(std::string_view bytes, const ReadOptions& options = {});

}  // namespace frazil::serde
