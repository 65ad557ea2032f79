#include <unordered_map>

#include "frazil/compute/cast.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/aggregate_sinks.hpp"
#include "frazil/exec/morsels.hpp"
#include "frazil/exec/partial_aggregation.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"

namespace frazil::exec {

using compute::AggKind;
using plan::AExpr;
using plan::AExprKind;
using plan::Node;

namespace {

ArrayRef scalars_to_array(const std::vector<Scalar>& values, const DataType& dtype) {
  std::vector<ArrayRef> parts;
  for (const auto& v : values) parts.push_back(scalar_to_array(v.is_null() ? Scalar::null(dtype) : v, 1));
  return parts.empty() ? make_empty_array(dtype) : concat_arrays(parts);
}

}  // namespace

std::optional<DataFrame> try_scalar_aggregate(const plan::IR& ir, const DataFrame& input, const plan::ExprArena& ea,
                                              int64_t morsel_size) {
  const Schema in = input.schema();
  std::vector<Node> aggs;
  for (const auto& e : ir.exprs)
    if (!collect_partial_aggs(e.node(), ea, in, aggs)) return std::nullopt;
  if (aggs.empty()) return std::nullopt;

  // The aggregations' inputs, planned once.
  std::vector<physical::PhysicalExprRef> inputs(aggs.size());
  for (size_t a = 0; a < aggs.size(); ++a) {
    const AExpr& e = ea.get(aggs[a]);
    if (e.kind == AExprKind::Agg) inputs[a] = physical::create_physical_expr(plan::ExprIR(e.inputs[0], {}), ea, in);
  }

  const std::vector<DataFrame> pieces = split_morsels(input, morsel_size);
  const size_t morsels = pieces.size();
  // partial[a][m]: the state of aggregation a over morsel m (mean keeps a sum and a count).
  std::vector<std::vector<Scalar>> partial(aggs.size(), std::vector<Scalar>(morsels));
  std::vector<std::vector<Scalar>> counts(aggs.size(), std::vector<Scalar>(morsels));
  parallel_for(morsels, [&](size_t m) {
    physical::ExecState state;
    const DataFrame& morsel = pieces[m];
    for (size_t a = 0; a < aggs.size(); ++a) {
      const AExpr& e = ea.get(aggs[a]);
      if (e.kind == AExprKind::Len) {
        partial[a][m] = Scalar::uint32(static_cast<uint64_t>(morsel.height()));
        continue;
      }
      ArrayRef values = physical::broadcast_to(inputs[a]->evaluate(morsel, state), morsel.height()).as_array();
      switch (e.agg) {
        case AggKind::Mean:
          partial[a][m] = compute::aggregate(AggKind::Sum, *compute::cast(*values, DataType::float64()));
          counts[a][m] = compute::aggregate(AggKind::Count, *values);
          break;
        default: partial[a][m] = compute::aggregate(e.agg, *values, e.agg_options); break;
      }
    }
  });

  // Combine the partials, then evaluate what stands above the aggregations.
  physical::Substitutions subs;
  for (size_t a = 0; a < aggs.size(); ++a) {
    const AExpr& e = ea.get(aggs[a]);
    Scalar result;
    if (e.kind == AExprKind::Len) {
      result = compute::aggregate(AggKind::Sum, *scalars_to_array(partial[a], DataType::uint32()));
    } else if (e.agg == AggKind::Mean) {
      Scalar sum = compute::aggregate(AggKind::Sum, *scalars_to_array(partial[a], DataType::float64()));
      Scalar count = compute::aggregate(AggKind::Sum, *scalars_to_array(counts[a], DataType::uint32()));
      DataType out = compute::agg_result_dtype(AggKind::Mean, plan::node_dtype(e.inputs[0], ea, in));
      Scalar mean = count.as_uint64() == 0 ? Scalar::null(DataType::float64())
                                            : Scalar::float64(sum.as_double() / static_cast<double>(count.as_uint64()));
      result = array_get(*compute::cast(*scalar_to_array(mean, 1), out), 0);
    } else {
      DataType t = compute::agg_result_dtype(e.agg, plan::node_dtype(e.inputs[0], ea, in));
      // Counts add up; the others reduce their partials the way they reduce values.
      AggKind combine = (e.agg == AggKind::Count || e.agg == AggKind::Len) ? AggKind::Sum : e.agg;
      result = compute::aggregate(combine, *scalars_to_array(partial[a], t), e.agg_options);
    }
    subs[aggs[a]] = std::make_shared<physical::LiteralExpr>(result, plan::node_to_expr(aggs[a], ea));
  }
  std::vector<physical::PhysicalExprRef> exprs;
  for (const auto& e : ir.exprs) exprs.push_back(physical::create_physical_expr(e, ea, in, &subs));
  physical::ExecState state;
  return physical::evaluate_to_frame(exprs, DataFrame::empty_with_height(1), state, 1);
}

}  // namespace frazil::exec
