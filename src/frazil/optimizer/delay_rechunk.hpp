// Polars' DelayRechunk: concat(rechunk=True) makes a union's output one contiguous chunk
// per column, a copy of every row. A consumer that gathers its input itself (group-by,
// join, sort, distinct, another union) does not need it, so the union below it, reached
// through row-wise nodes (filter, select, with_columns, projection, rename, explode), keeps
// its rows as they come. A union read by more than one node keeps its rechunk: another
// reader may need it. Polars stops at the first group-by of one key; in frazil every
// operator of this list gathers (or streams) its input whatever the chunks, so it stops at
// each of them. Polars has no flag for it (it runs unless a query is eager); nor does frazil.
#pragma once

#include "frazil/plan/ir.hpp"

namespace frazil::optimizer {

plan::Node delay_rechunk(plan::Node root, plan::IRArena& lp_arena, plan::ExprArena& expr_arena);

}  // namespace frazil::optimizer
