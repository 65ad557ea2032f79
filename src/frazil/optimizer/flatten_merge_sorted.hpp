// Polars' FlattenMergeSortedRule: a chain of merge_sorted on one key (a.merge_sorted(b)
// .merge_sorted(c)...) is rebuilt as a balanced tree of two-way merges over the same inputs
// in the same order (split at ceil(n / 2), as Polars), so a row passes log2(n) merges instead
// of up to n - 1, and a chain and pl.merge_sorted of the same frames plan alike. Equal keys
// keep their input order either way (each merge is stable, left first).
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node flatten_merge_sorted(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
