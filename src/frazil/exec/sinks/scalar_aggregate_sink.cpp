#include <unordered_map>

#include "frazil/compute/cast.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/scalar_aggregate_sink.hpp"
#include "frazil/exec/sinks/partial_aggregation.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"

namespace frazil::exec {

using compute::AggKind;
using plan::AExpr;
using plan::AExprKind;
using plan::Node;

namespace {

// One morsel's partial states: a one-row frame, column "__agg<a>" per aggregation (a mean
// keeps "__agg<a>" = sum as Float64 and "__agg<a>_n" = count). Every morsel's frame has
// the same dtypes, so they concatenate.
class PartialSelectOperator final : public Operator {
 public:
  PartialSelectOperator(const plan::ExprArena& ea, const Schema& in, std::vector<Node> aggs)
      : ea_(ea), aggs_(std::move(aggs)) {
    inputs_.resize(aggs_.size());
    state_types_.resize(aggs_.size());
    for (size_t a = 0; a < aggs_.size(); ++a) {
      const AExpr& e = ea.get(aggs_[a]);
      if (e.kind == AExprKind::Len) {
        state_types_[a] = DataType::uint32();
        continue;
      }
      inputs_[a] = physical::create_physical_expr(plan::ExprIR(e.inputs[0], {}), ea, in);
      const DataType in_type = plan::node_dtype(e.inputs[0], ea, in);
      state_types_[a] = e.agg == AggKind::Mean ? DataType::float64() : compute::agg_result_dtype(e.agg, in_type);
      // Null-skipping reductions of a plain column see a filter's rows through a mask.
      const bool null_skipping = e.agg == AggKind::Sum || e.agg == AggKind::Min || e.agg == AggKind::Max ||
                                 e.agg == AggKind::Count || e.agg == AggKind::Mean;
      maskable_ &= null_skipping && ea.get(e.inputs[0]).kind == AExprKind::Column &&
                   (in_type.is_fixed_width() || in_type.is_boolean() || in_type.is_view());
    }
  }

  // A copy that also runs `filter` and then the row-preserving `between` operators: the
  // aggregations read the filter's mask as nulls instead of a filtered copy. nullptr when
  // some aggregation would see the difference.
  std::shared_ptr<PartialSelectOperator> fused_with(OperatorRef filter, std::vector<OperatorRef> between) const {
    if (!maskable_) return nullptr;
    auto out = std::make_shared<PartialSelectOperator>(*this);
    out->filter_ = std::move(filter);
    out->between_ = std::move(between);
    return out;
  }

  std::string describe() const override {
    if (!filter_) return "partial aggregation states";
    return "partial aggregation states, reading " + filter_->describe() + " as a mask (no filtered copy)";
  }

  DataFrame execute(const DataFrame& input, physical::ExecState& state) const override {
    ArrayRef mask;
    DataFrame morsel = input;
    if (filter_) {
      const auto& f = static_cast<const FilterOperator&>(*filter_);
      Column m = f.predicate()->evaluate(input, state);
      if (!m.is_scalar() && m.length() == input.height() && m.dtype().is_boolean()) {
        mask = m.as_array();
        morsel = run_operators(between_, std::move(morsel), state);
        const int64_t kept = compute::mask_true_count(*mask);
        // A sparse mask copies few rows, cheaper than reading every row through the mask.
        if (kept == input.height()) {
          mask = nullptr;
        } else if (kept * 8 < input.height()) {
          morsel = compute::filter_frame(morsel, *mask);
          mask = nullptr;
        }
      } else {
        morsel = run_operators(between_, f.execute(input, state), state);  // broadcast masks: the filter's rules
      }
    }
    std::vector<Column> cols;
    auto state_column = [&](std::string name, const Scalar& v, const DataType& t) {
      cols.emplace_back(std::move(name), scalar_to_array(v.is_null() ? Scalar::null(t) : v, 1));
    };
    for (size_t a = 0; a < aggs_.size(); ++a) {
      const AExpr& e = ea_.get(aggs_[a]);
      const std::string name = "__agg" + std::to_string(a);
      if (e.kind == AExprKind::Len) {
        const int64_t rows = mask ? compute::mask_true_count(*mask) : morsel.height();
        state_column(name, Scalar::uint32(static_cast<uint64_t>(rows)), state_types_[a]);
        continue;
      }
      ArrayRef values = physical::broadcast_to(inputs_[a]->evaluate(morsel, state), morsel.height()).as_array();
      if (mask) values = compute::mask_to_validity(*values, *mask);
      if (e.agg == AggKind::Mean) {
        state_column(name, compute::aggregate(AggKind::Sum, *compute::cast(*values, DataType::float64())),
                     state_types_[a]);
        state_column(name + "_n", compute::aggregate(AggKind::Count, *values), DataType::uint32());
      } else {
        state_column(name, compute::aggregate(e.agg, *values, e.agg_options()), state_types_[a]);
      }
    }
    return DataFrame(std::move(cols));
  }

 private:
  const plan::ExprArena& ea_;
  std::vector<Node> aggs_;
  std::vector<physical::PhysicalExprRef> inputs_;
  std::vector<DataType> state_types_;
  bool maskable_ = true;
  OperatorRef filter_;                // a FilterOperator fused in front, or nullptr
  std::vector<OperatorRef> between_;  // row-preserving operators after that filter
};

// Whether an aggregation's partial states are UInt32 counts that add up (count, len, the
// sum of a Boolean), whose total must not wrap.
bool is_count_state(const AExpr& e, const plan::ExprArena& ea, const Schema& in) {
  if (e.agg == AggKind::Count || e.agg == AggKind::Len) return true;
  return e.agg == AggKind::Sum && plan::node_dtype(e.inputs[0], ea, in).is_boolean();
}

// Folds the partials of all morsels, then evaluates what stands above the aggregations.
DataFrame combine_partials(const plan::IR& ir, const plan::ExprArena& ea, const Schema& in,
                           const std::vector<Node>& aggs, const DataFrame& partials) {
  physical::Substitutions subs;
  for (size_t a = 0; a < aggs.size(); ++a) {
    const AExpr& e = ea.get(aggs[a]);
    const ArrayRef states = partials.column("__agg" + std::to_string(a)).as_array();
    Scalar result;
    if (e.kind == AExprKind::Len) {
      result = compute::sum_counts(*states, "len()");
    } else if (e.agg == AggKind::Mean) {
      Scalar sum = compute::aggregate(AggKind::Sum, *states);
      // Counted in UInt64: the morsels' counts must not wrap.
      Scalar count = compute::aggregate(
          AggKind::Sum,
          *compute::cast(*partials.column("__agg" + std::to_string(a) + "_n").as_array(), DataType::uint64()));
      DataType out = compute::agg_result_dtype(AggKind::Mean, plan::node_dtype(e.inputs[0], ea, in));
      Scalar mean = count.as_uint64() == 0 ? Scalar::null(DataType::float64())
                                            : Scalar::float64(sum.as_double() / static_cast<double>(count.as_uint64()));
      result = array_get(*compute::cast(*scalar_to_array(mean, 1), out), 0);
    } else if (is_count_state(e, ea, in)) {
      result = compute::sum_counts(*states, std::string(compute::agg_name(e.agg)) + "()");
    } else {
      // The others reduce their partials the way they reduce values.
      result = compute::aggregate(e.agg, *states, e.agg_options());
    }
    subs[aggs[a]] = std::make_shared<physical::LiteralExpr>(result, plan::node_to_expr(aggs[a], ea));
  }
  std::vector<physical::PhysicalExprRef> exprs;
  for (const auto& e : ir.as<plan::SelectNode>().exprs) exprs.push_back(physical::create_physical_expr(e, ea, in, &subs));
  physical::ExecState state;
  return physical::evaluate_to_frame(exprs, DataFrame::empty_with_height(1), state, 1);
}

}  // namespace

void fuse_filter_into_partial_select(std::vector<OperatorRef>& ops) {
  if (ops.empty()) return;
  auto partial = std::dynamic_pointer_cast<const PartialSelectOperator>(ops.back());
  if (!partial) return;
  // Walk back over column selections to a filter.
  size_t k = ops.size() - 1;
  while (k > 0 && std::dynamic_pointer_cast<const SimpleProjectOperator>(ops[k - 1])) --k;
  if (k == 0 || !std::dynamic_pointer_cast<const FilterOperator>(ops[k - 1])) return;
  std::vector<OperatorRef> between(ops.begin() + static_cast<std::ptrdiff_t>(k), ops.end() - 1);
  auto fused = partial->fused_with(ops[k - 1], std::move(between));
  if (!fused) return;
  ops.resize(k - 1);
  ops.push_back(std::move(fused));
}

std::optional<PartialAggregation> plan_partial_select(const plan::IR& ir, const plan::ExprArena& ea,
                                                      const Schema& in) {
  std::vector<Node> aggs;
  std::unordered_set<uint32_t> seen;
  for (const auto& e : ir.as<plan::SelectNode>().exprs)
    if (!collect_partial_aggs(e.node(), ea, in, aggs, &seen)) return std::nullopt;
  if (aggs.empty()) return std::nullopt;
  PartialAggregation out;
  out.partial = std::make_shared<PartialSelectOperator>(ea, in, aggs);
  out.combine = [&ir, &ea, in, aggs](const DataFrame& partials) { return combine_partials(ir, ea, in, aggs, partials); };
  return out;
}

}  // namespace frazil::exec

namespace frazil::exec {

std::string ScalarAggregateSink::describe() const {
  return "select of aggregations " + select_text_ + ": " + partial_.partial->describe() +
         " per morsel, combined at finalize";
}

}  // namespace frazil::exec
