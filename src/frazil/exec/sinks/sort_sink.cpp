#include "frazil/exec/sinks/sort_sink.hpp"

#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/exec/sinks/slice_sink.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::exec {

SortSink::SortSink(const plan::SortNode& sort, const plan::ExprArena& ea, const Schema& input_schema)
    : sort_(sort), ea_(ea), input_schema_(input_schema) {}

std::string SortSink::describe() const {
  std::string s = "sort by [";
  for (size_t i = 0; i < sort_.by.size(); ++i) s += (i ? ", " : "") + plan::format_expr(sort_.by[i], ea_);
  s += "]";
  auto flags = [&](const std::vector<bool>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::string(v[i] ? "true" : "false");
    return out + "]";
  };
  s += ", descending " + flags(sort_.options.descending) + ", nulls_last " + flags(sort_.options.nulls_last);
  if (sort_.options.maintain_order) s += ", stable";
  if (sort_.slice) {
    s += "; top-k: rows [" + std::to_string(sort_.slice->first) + ", +" + std::to_string(sort_.slice->second) + ")";
    if (sort_.slice->first >= 0) s += ", the kernel stops after " + std::to_string(sort_.slice->first + sort_.slice->second);
  }
  return s;
}

DataFrame SortSink::finish(DataFrame all) {
  DataFrame df = all.rechunk();
  physical::ExecState state;
  std::vector<ArrayRef> keys;
  for (const auto& k : physical::create_physical_exprs(sort_.by, ea_, input_schema_))
    keys.push_back(physical::broadcast_to(k->evaluate(df, state), df.height()).as_array());
  compute::SortOptions opts;
  opts.descending = sort_.options.descending;
  opts.nulls_last = sort_.options.nulls_last;
  opts.stable = sort_.options.maintain_order;
  if (sort_.slice && sort_.slice->first >= 0) opts.limit = sort_.slice->first + sort_.slice->second;
  DataFrame sorted = compute::take_frame(df, compute::arg_sort(keys, opts));
  if (sort_.slice) return slice_rows(sorted, sort_.slice->first, sort_.slice->second);
  return sorted;
}

}  // namespace frazil::exec
