// Helpers of the distributed tests: a frame's rows in a canonical order, for comparing
// outputs whose row order the stage graph does not keep.
#pragma once

#include <vector>

#include "frazil/api/lazy_frame.hpp"

namespace frazil::distributed::test {

// The rows sorted by every column, first to last, nulls first.
inline DataFrame sorted_rows(const DataFrame& df) {
  std::vector<dsl::Expr> by;
  const Schema s = df.schema();
  for (const auto& f : s.fields()) by.push_back(dsl::col(f.name));
  SortArgs args;
  args.descending = {false};
  args.nulls_last = {false};
  return LazyFrame::from_frame(df).sort(by, args).collect();
}

}  // namespace frazil::distributed::test
