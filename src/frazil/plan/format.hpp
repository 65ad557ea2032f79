// explain() and show_graph(): the IR printed as an indented tree in Polars' style, and as
// Graphviz DOT.
#pragma once

#include <string>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

std::string format_expr(const ExprIR& e, const ExprArena& arena);
// `streaming_engine`: the names Polars' streaming engine prints where they differ from the
// in-memory one's (explain(engine="streaming")): a range-shaped IEJoin is a RANGE JOIN.
std::string explain_plan(Node root, const IRArena& lp_arena, const ExprArena& expr_arena,
                         bool streaming_engine = false);
std::string plan_to_dot(Node root, const IRArena& lp_arena, const ExprArena& expr_arena);

}  // namespace frazil::plan
