// Walks over the plan DAG in the IR arena, with explicit stacks: each reachable node once,
// however many consumers share it, and a plan of many thousand nodes without deep
// recursion. Passes use these instead of writing the stack-and-seen loop themselves.
#pragma once

#include <functional>
#include <vector>

#include "frazil/plan/ir.hpp"

namespace frazil::plan {

// Calls fn(node) once for every node reachable from `root`, a node before its inputs.
// fn may rewrite the node in place; the walk goes on into the inputs it has afterwards
// (and a node that fn replaced by another is not visited again).
void for_each_plan_node(Node root, const IRArena& lp, const std::function<void(Node)>& fn);

// The reachable nodes, every node after all of its inputs (consumers last, `root` at the end).
std::vector<Node> plan_post_order(Node root, const IRArena& lp);

// How many parents each node reachable from `root` has (indexed by node); a node with
// more than one is shared and must not be rewritten for one consumer.
std::vector<uint32_t> count_parents(Node root, const IRArena& lp);

}  // namespace frazil::plan
