#include "frazil/exec/sinks/distinct_sink.hpp"

#include <algorithm>

#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/exec/operators/operators.hpp"

namespace frazil::exec {

std::string DistinctSink::describe() const {
  return "distinct on " + (distinct_.subset.empty() ? std::string("every column") : names_text(distinct_.subset)) +
         ", keep " + distinct_.keep + (distinct_.maintain_order ? ", in order" : "");
}

DataFrame DistinctSink::finish(DataFrame all) {
  DataFrame df = all.rechunk();
  std::vector<ArrayRef> keys;
  const std::vector<std::string> names = distinct_.subset.empty() ? df.names() : distinct_.subset;
  for (const auto& n : names) keys.push_back(df.column(n).as_array());
  if (keys.empty()) return df.slice(0, std::min<int64_t>(df.height(), 1));
  return compute::take_frame(df, compute::unique_rows(keys, distinct_.keep));
}

}  // namespace frazil::exec
