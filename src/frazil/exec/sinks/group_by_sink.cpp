#include <algorithm>
#include <atomic>
#include <optional>

#include "frazil/compute/hash.hpp"
#include "frazil/compute/partition.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/compute/boolean.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/group_by_sink.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/exec/pipeline/morsels.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/partial_aggregation.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/exec/query_observer.hpp"
#include "frazil/plan/conversion/expr_to_ir.hpp"
#include "frazil/plan/evaluate_operator.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"

namespace frazil::exec {

using compute::IdxSize;

namespace {

// The aggregations (and len()) reached from an aggregation's input through row-wise nodes
// only, whose own input is row-wise: `inside` tells whether `node` is within such an input.
// `outer` gets the aggregations met outside any aggregation's input.
void collect_inner_aggregations(plan::Node node, const plan::ExprArena& ea, bool inside,
                                std::vector<plan::Node>& out, std::vector<plan::Node>& outer) {
  const plan::AExpr& e = ea.get(node);
  const bool nested = e.kind == plan::AExprKind::Len ||
                      (e.kind == plan::AExprKind::Agg && plan::is_elementwise_rec(e.inputs[0], ea));
  if (inside && nested) {
    if (std::find(out.begin(), out.end(), node) == out.end()) out.push_back(node);
    return;
  }
  if (!inside && (e.kind == plan::AExprKind::Agg || e.kind == plan::AExprKind::Len)) outer.push_back(node);
  if (e.kind == plan::AExprKind::Agg) {
    // An aggregation of one value per group (lit(True).any().count() is 1) must not see
    // that value spread over the group's rows.
    if (!plan::is_scalar_ae(e.inputs[0], ea)) collect_inner_aggregations(e.inputs[0], ea, true, out, outer);
    return;
  }
  const bool row_wise = e.kind == plan::AExprKind::BinaryExpr || e.kind == plan::AExprKind::Cast ||
                        e.kind == plan::AExprKind::Ternary ||
                        (e.kind == plan::AExprKind::Function && e.spec().is_elementwise() &&
                         !e.spec().has_set_input());
  if (!row_wise) return;  // columns, literals; anything else keeps its own evaluation
  for (plan::Node in : e.inputs) collect_inner_aggregations(in, ea, inside, out, outer);
}

// Groups one frame on one thread: the keys, then every aggregation per group.
GroupedRows group_frame(const plan::IR& ir, const DataFrame& df, const plan::ExprArena& ea, const Schema& in) {
  physical::ExecState state;
  std::vector<ArrayRef> keys;
  std::vector<std::string> key_names;
  for (const auto& k : physical::create_physical_exprs(ir.as<plan::GroupByNode>().keys, ea, in)) {
    Column c = physical::broadcast_to(k->evaluate(df, state), df.height());
    keys.push_back(c.as_array());
    key_names.push_back(c.name());
  }
  compute::Groups groups = compute::group_rows(keys);
  const int64_t ng = static_cast<int64_t>(groups.num_groups());
  std::vector<Column> cols;
  for (size_t i = 0; i < keys.size(); ++i) cols.emplace_back(key_names[i], compute::take(*keys[i], groups.first_rows));
  physical::GroupContext ctx{&groups};
  // Aggregations inside another's row-wise input (x - x.mean() in sum(), as corr has) are
  // one value per group: computed by the grouped kernels and spread over their groups' rows
  // as a column, the outer aggregation stays row-wise instead of running group by group.
  std::vector<plan::Node> inner, outer;
  for (const auto& e : ir.as<plan::GroupByNode>().aggs) collect_inner_aggregations(e.node(), ea, false, inner, outer);
  // A node that is also a result of its own (agg(x.mean(), ...)) must keep its evaluation.
  std::erase_if(inner, [&](plan::Node n) { return std::find(outer.begin(), outer.end(), n) != outer.end(); });
  std::vector<Column> spread = df.columns();
  std::vector<Field> fields = in.fields();
  physical::Substitutions subs;
  for (size_t k = 0; k < inner.size(); ++k) {
    const std::string name = "__frazil_group_value_" + std::to_string(k);
    auto expr = physical::create_physical_expr(plan::ExprIR(inner[k], plan::OutputName{}), ea, in);
    Column per_group = expr->evaluate_on_groups(df, ctx, state);
    ArrayRef rows = per_group.is_scalar() && per_group.length() == 1
                        ? physical::broadcast_to(per_group, df.height()).as_array()
                        : compute::take(*per_group.as_array(), groups.group_ids);
    fields.push_back(Field{name, rows->dtype()});
    spread.emplace_back(name, rows);
    subs[inner[k]] = std::make_shared<physical::ColumnExpr>(name, plan::node_to_expr(inner[k], ea));
  }
  const DataFrame wide = inner.empty() ? df : DataFrame(std::move(spread));
  const Schema wide_schema = inner.empty() ? in : Schema(std::move(fields));
  for (const auto& e : ir.as<plan::GroupByNode>().aggs) {
    auto a = physical::create_physical_expr(e, ea, wide_schema, inner.empty() ? nullptr : &subs);
    cols.push_back(physical::broadcast_to(a->evaluate_on_groups(wide, ctx, state), ng));
  }
  return GroupedRows{DataFrame(std::move(cols)), std::move(groups.first_rows)};
}

// Checks the planned names and dtypes: a mismatch is a frazil bug.
DataFrame conform(DataFrame df, const Schema& schema) {
  FRAZIL_CHECK_EQ(df.width(), schema.size());
  for (size_t i = 0; i < schema.size(); ++i)
    if (df.column(i).dtype() != schema.field(i).dtype || df.column(i).name() != schema.field(i).name)
      throw InternalError(err_msg("group_by result column ", i, " is ", df.column(i).name(), ": ",
                                  df.column(i).dtype(), " but the plan says ", schema.field(i).name, ": ",
                                  schema.field(i).dtype));
  return df;
}

// The per-morsel half of a two-phase group_by: groups one morsel and reduces it to
// partial states (the row-wise inputs of the aggregations are computed here too). Output:
// one row per group of the morsel, the key columns "__key<i>" then the states "__agg<a>"
// (a mean keeps "__agg<a>" = sum and "__agg<a>_n" = count).
class PartialGroupByOperator final : public Operator {
 public:
  PartialGroupByOperator(const plan::IR& ir, const plan::ExprArena& ea, const Schema& in,
                         std::vector<plan::Node> aggs)
      : ea_(ea), aggs_(std::move(aggs)), key_exprs_(physical::create_physical_exprs(ir.as<plan::GroupByNode>().keys, ea, in)) {
    inputs_.resize(aggs_.size());
    for (size_t a = 0; a < aggs_.size(); ++a) {
      const plan::AExpr& e = ea.get(aggs_[a]);
      if (e.kind == plan::AExprKind::Agg)
        inputs_[a] = physical::create_physical_expr(plan::ExprIR(e.inputs[0], {}), ea, in);
    }
  }

  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override {
    return *partial(morsel, state, false);
  }
  std::string describe() const override { return "partial group-by states"; }

  // nullopt (with `give_up`) when more than a quarter of the morsel's rows are distinct
  // groups: partials that large cost more than they save.
  std::optional<DataFrame> partial(const DataFrame& in, physical::ExecState& state, bool give_up) const {
    using compute::AggKind;
    const DataFrame morsel = in.rechunk();
    const int64_t len = morsel.height();
    std::vector<ArrayRef> keys;
    for (const auto& k : key_exprs_) keys.push_back(physical::broadcast_to(k->evaluate(morsel, state), len).as_array());
    // Once the first morsels have shown about as many groups as rows, grouping a morsel
    // only to group its partials again in the combine is wasted: every row becomes its
    // own partial state (the same kernels over one group per row), grouped once, later.
    // Not for string keys: grouping strings is what the parallel partials are best at.
    const bool pass_through = !give_up && high_cardinality_.load(std::memory_order_relaxed);
    compute::Groups groups = pass_through ? compute::one_group_per_row(len) : compute::group_rows(keys);
    if (give_up && static_cast<int64_t>(groups.num_groups()) * 4 > len) return std::nullopt;
    if (!pass_through && !give_up && sampled_.fetch_add(1, std::memory_order_relaxed) < kSampleMorsels &&
        static_cast<int64_t>(groups.num_groups()) * 2 > len && len >= 1024 &&
        std::all_of(keys.begin(), keys.end(), [](const ArrayRef& k) { return k->dtype().is_fixed_width(); }))
      high_cardinality_.store(true, std::memory_order_relaxed);
    std::vector<Column> cols;
    for (size_t i = 0; i < keys.size(); ++i)
      cols.emplace_back("__key" + std::to_string(i), pass_through ? keys[i] : compute::take(*keys[i], groups.first_rows));
    for (size_t a = 0; a < aggs_.size(); ++a) {
      const plan::AExpr& e = ea_.get(aggs_[a]);
      std::string name = "__agg" + std::to_string(a);
      if (e.kind == plan::AExprKind::Len) {
        cols.emplace_back(name, compute::aggregate_grouped(AggKind::Len, *keys[0], groups));
        continue;
      }
      ArrayRef values = physical::broadcast_to(inputs_[a]->evaluate(morsel, state), len).as_array();
      if (e.agg == AggKind::Mean) {
        cols.emplace_back(name, compute::aggregate_grouped(AggKind::Sum, *compute::cast(*values, DataType::float64()), groups));
        cols.emplace_back(name + "_n", compute::aggregate_grouped(AggKind::Count, *values, groups));
      } else {
        cols.emplace_back(name, compute::aggregate_grouped(e.agg, *values, groups, e.agg_options()));
      }
    }
    return DataFrame(std::move(cols));
  }

 private:
  static constexpr int kSampleMorsels = 4;
  const plan::ExprArena& ea_;
  std::vector<plan::Node> aggs_;
  std::vector<physical::PhysicalExprRef> key_exprs_;
  std::vector<physical::PhysicalExprRef> inputs_;
  mutable std::atomic<int> sampled_{0};
  mutable std::atomic<bool> high_cardinality_{false};
};

// The second half: groups the partial rows of all morsels again (in morsel order, which
// keeps first appearance) and folds the states the way each aggregation folds, then
// evaluates what stands above the aggregations once per group. first_rows: the partial row
// where each group first appears.
GroupedRows combine_partials(const plan::IR& ir, const plan::ExprArena& ea, const Schema& in,
                           const std::vector<plan::Node>& aggs, const DataFrame& partials) {
  using compute::AggKind;
  DataFrame all = partials.rechunk();
  std::vector<ArrayRef> keys;
  for (size_t i = 0; i < ir.as<plan::GroupByNode>().keys.size(); ++i) keys.push_back(all.column(i).as_array());
  compute::Groups groups = compute::group_rows(keys);
  std::vector<Column> out;
  for (size_t i = 0; i < keys.size(); ++i)
    out.emplace_back(ir.as<plan::GroupByNode>().keys[i].output_name(), compute::take(*keys[i], groups.first_rows));
  std::vector<Column> finals;
  physical::Substitutions subs;
  for (size_t a = 0; a < aggs.size(); ++a) {
    const plan::AExpr& e = ea.get(aggs[a]);
    std::string name = "__agg" + std::to_string(a);
    ArrayRef state = all.column(name).as_array();
    ArrayRef result;
    if (e.kind == plan::AExprKind::Len) {
      result = compute::sum_counts_grouped(*state, groups, "len()");
    } else if (e.agg == AggKind::Count || e.agg == AggKind::Len ||
               (e.agg == AggKind::Sum && plan::node_dtype(e.inputs[0], ea, in).is_boolean())) {
      result = compute::sum_counts_grouped(*state, groups, std::string(compute::agg_name(e.agg)) + "()");
    } else if (e.agg == AggKind::Mean) {
      ArrayRef sum = compute::aggregate_grouped(AggKind::Sum, *state, groups);
      // Counted in UInt64: the morsels' counts must not wrap.
      ArrayRef count = compute::aggregate_grouped(
          AggKind::Sum, *compute::cast(*all.column(name + "_n").as_array(), DataType::uint64()), groups);
      ArrayRef mean = plan::evaluate_operator(dsl::Operator::TrueDivide, *sum, *compute::cast(*count, DataType::float64()));
      // A group with no values has no mean (0 / 0 would be NaN).
      mean = compute::if_then_else(*plan::evaluate_operator(dsl::Operator::Gt, *count, *scalar_to_array(Scalar::uint64(0), 1)),
                                   *mean, *make_null_array(DataType::float64(), 1));
      result = compute::cast(*mean, compute::agg_result_dtype(AggKind::Mean, plan::node_dtype(e.inputs[0], ea, in)));
    } else {
      result = compute::aggregate_grouped(e.agg, *state, groups, e.agg_options());
    }
    finals.emplace_back(name, result);
    subs[aggs[a]] = std::make_shared<physical::ColumnExpr>(name, plan::node_to_expr(aggs[a], ea));
  }
  DataFrame per_group = finals.empty() ? DataFrame::empty_with_height(static_cast<int64_t>(groups.num_groups()))
                                       : DataFrame(std::move(finals));
  physical::ExecState state;
  for (const auto& e : ir.as<plan::GroupByNode>().aggs) {
    auto expr = physical::create_physical_expr(e, ea, in, &subs);
    out.push_back(physical::broadcast_to(expr->evaluate(per_group, state), per_group.height()));
  }
  return GroupedRows{DataFrame(std::move(out)), std::move(groups.first_rows)};
}

// Whether every key of a group_by is computed row by row (so morsel by morsel).
bool keys_elementwise(const plan::IR& ir, const plan::ExprArena& ea) {
  for (const auto& k : ir.as<plan::GroupByNode>().keys)
    if (!plan::is_elementwise_rec(k.node(), ea)) return false;
  return true;
}

// The decomposable aggregations of a group_by; nullopt when some expression has another
// shape.
std::optional<std::vector<plan::Node>> partial_aggs(const plan::IR& ir, const plan::ExprArena& ea, const Schema& in) {
  // Keys are computed morsel by morsel there: a key reading other rows (shift, cum_sum,
  // x - x.mean()) needs the whole input.
  if (!keys_elementwise(ir, ea)) return std::nullopt;
  std::vector<plan::Node> aggs;
  std::unordered_set<uint32_t> seen;
  for (const auto& e : ir.as<plan::GroupByNode>().aggs)
    if (!collect_partial_aggs(e.node(), ea, in, aggs, &seen)) return std::nullopt;
  return aggs;
}

// Few groups and decomposable aggregations over a materialised input: every morsel is
// reduced to partial states in parallel, then the partials are combined. nullopt when the
// shape does not fit or a morsel has too many groups.
std::optional<DataFrame> two_phase_group_by(const plan::IR& ir, const DataFrame& input, const plan::ExprArena& ea,
                                            const Schema& in, int64_t morsel_size) {
  auto aggs = partial_aggs(ir, ea, in);
  if (!aggs) return std::nullopt;
  const PartialGroupByOperator op(ir, ea, in, *aggs);
  const std::vector<DataFrame> pieces = split_morsels(input, morsel_size);
  std::vector<DataFrame> partials(pieces.size());
  std::atomic<bool> too_many_groups{false};
  parallel_for(pieces.size(), [&](size_t m) {
    if (too_many_groups) return;
    physical::ExecState state;
    auto p = op.partial(pieces[m], state, true);
    if (!p) too_many_groups = true;
    else partials[m] = std::move(*p);
  });
  if (too_many_groups) return std::nullopt;
  return combine_partials(ir, ea, in, *aggs, concat_frames(partials)).frame;
}

}  // namespace

DataFrame execute_group_by(const plan::IR& ir, DataFrame input, const plan::ExprArena& ea,
                           int64_t morsel_size) {
  const Schema& in = input.width() ? input.schema() : Schema();
  const int64_t n = input.height();
  const size_t threads = thread_pool_size();
  if (n >= 2 * morsel_size && threads > 1)
    if (auto out = two_phase_group_by(ir, input, ea, in, morsel_size)) return conform(std::move(*out), *ir.schema);
  // Partitioning costs a gather of every needed column; measured on 2 cores it loses to
  // one thread grouping everything (whose tables are already fast), so it only runs where
  // there are more cores to spread the partitions over.
  if (threads <= 2 || n < 2 * morsel_size || !keys_elementwise(ir, ea))
    return conform(group_frame(ir, std::move(input).rechunk(), ea, in).frame, *ir.schema);

  // Only the columns the keys and aggregations read are partitioned.
  std::vector<std::string> needed;
  for (const auto& e : ir.as<plan::GroupByNode>().keys) plan::collect_columns(e.node(), ea, needed);
  for (const auto& e : ir.as<plan::GroupByNode>().aggs) plan::collect_columns(e.node(), ea, needed);
  DataFrame slim = needed.empty() ? input.select({input.column(0).name()}).rechunk() : input.select(needed).rechunk();
  const Schema slim_schema = slim.schema();

  // Phase 1, per morsel: hash the keys and split the rows into partitions.
  const size_t parts = threads * 4;
  const size_t morsels = static_cast<size_t>((n + morsel_size - 1) / morsel_size);
  std::vector<std::vector<std::vector<IdxSize>>> local(morsels, std::vector<std::vector<IdxSize>>(parts));
  auto key_exprs = physical::create_physical_exprs(ir.as<plan::GroupByNode>().keys, ea, slim_schema);
  parallel_for(morsels, [&](size_t m) {
    physical::ExecState state;
    const int64_t off = static_cast<int64_t>(m) * morsel_size;
    const int64_t len = std::min(morsel_size, n - off);
    DataFrame morsel = slim.slice(off, len);
    std::vector<ArrayRef> keys;
    for (const auto& k : key_exprs) keys.push_back(physical::broadcast_to(k->evaluate(morsel, state), len).as_array());
    std::vector<uint64_t> hashes = compute::hash_rows(keys);
    auto& out = local[m];
    for (auto& v : out) v.reserve(static_cast<size_t>(len / parts + 16));
    for (int64_t i = 0; i < len; ++i) {
      // The high bits pick the partition; the tables inside use the low bits.
      size_t p = compute::hash_partition(hashes[i], parts);
      out[p].push_back(static_cast<IdxSize>(off + i));
    }
  });

  // Phase 2, per partition: gather its rows (in row order) and group them.
  std::vector<GroupedRows> results(parts);
  std::vector<std::vector<IdxSize>> rows(parts);
  parallel_for(parts, [&](size_t p) {
    size_t total = 0;
    for (const auto& l : local) total += l[p].size();
    auto& idx = rows[p];
    idx.reserve(total);
    for (const auto& l : local) idx.insert(idx.end(), l[p].begin(), l[p].end());
    DataFrame sub = compute::take_frame(slim, idx);
    results[p] = group_frame(ir, sub, ea, slim_schema);
    for (auto& r : results[p].first_rows) r = idx[r];  // back to rows of the whole input
  });

  // Phase 3: the partitions' groups together; in first-appearance order when asked.
  std::vector<DataFrame> frames;
  std::vector<IdxSize> first_rows;
  for (auto& r : results) {
    frames.push_back(std::move(r.frame));
    first_rows.insert(first_rows.end(), r.first_rows.begin(), r.first_rows.end());
  }
  DataFrame out = concat_frames(frames);
  if (ir.as<plan::GroupByNode>().maintain_order) {
    Buffer b = Buffer::allocate(first_rows.size() * sizeof(IdxSize));
    std::copy(first_rows.begin(), first_rows.end(), b.mutable_as<IdxSize>());
    ArrayRef order_key = Array::make(DataType::uint32(), static_cast<int64_t>(first_rows.size()), Buffer(), {b});
    compute::SortOptions opts;
    out = compute::take_frame(out.rechunk(), compute::arg_sort({order_key}, opts));
  }
  return conform(std::move(out), *ir.schema);
}

}  // namespace frazil::exec

namespace frazil::exec {

std::optional<PartialAggregation> plan_partial_group_by(const plan::IR& ir, const plan::ExprArena& ea,
                                                        const Schema& in) {
  auto aggs = partial_aggs(ir, ea, in);
  if (!aggs) return std::nullopt;
  PartialAggregation out;
  out.partial = std::make_shared<PartialGroupByOperator>(ir, ea, in, *aggs);
  out.combine = [&ir, &ea, in, aggs = *aggs](const DataFrame& partials) {
    return conform(combine_partials(ir, ea, in, aggs, partials).frame, *ir.schema);
  };
  out.combine_grouped = [&ir, &ea, in, aggs = *aggs](const DataFrame& partials) {
    GroupedRows g = combine_partials(ir, ea, in, aggs, partials);
    g.frame = conform(std::move(g.frame), *ir.schema);
    return g;
  };
  return out;
}

}  // namespace frazil::exec

namespace frazil::exec {

namespace {

// Keeps one morsel's rows (or partial states) until they are combined.
struct KeptRows final : LocalSinkState {
  DataFrame rows;
};

int64_t mib(int64_t bytes) { return bytes / (1024 * 1024); }

}  // namespace

GroupBySink::GroupBySink(const plan::IR& group_by, const plan::ExprArena& ea,
                         std::optional<PartialAggregation> two_phase, int64_t morsel_size)
    : ir_(group_by), ea_(ea), two_phase_(std::move(two_phase)), morsel_size_(morsel_size),
      finalize_memory_("group_by") {}

std::string GroupBySink::describe() const {
  const auto& g = ir_.as<plan::GroupByNode>();
  auto list = [&](const std::vector<plan::ExprIR>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + plan::format_expr(v[i], ea_);
    return s + "]";
  };
  std::string s = "group by " + list(g.keys) + ", aggregations " + list(g.aggs) + (g.maintain_order ? ", in order" : "");
  if (two_phase_)
    s += "; adaptive: two-phase (partial states per morsel, combined at finalize) when the source has at least " +
         std::to_string(2 * morsel_size_) + " rows at run time, else on the whole input";
  else
    s += "; on the whole input";
  // Only said under a limit: without one nothing spills.
  if (memory_limit() > 0) {
    const std::string why = cannot_spill();
    s += why.empty() ? "; spills by key hash to FRAZIL_TEMP_DIRECTORY past the memory limit of " +
                           std::to_string(mib(memory_limit())) + " MiB"
                     : "; cannot spill (" + why + ")";
  }
  return s;
}

std::string GroupBySink::cannot_spill() const {
  // The partial states carry their keys; input rows are split by keys computed row by row.
  if (two_phase_ || keys_elementwise(ir_, ea_)) return "";
  return "a key reads across rows, so the input cannot be split by key";
}

void GroupBySink::start(const PipelineStart& info) {
  two_phase_on_ = two_phase_ && info.source_rows >= 2 * morsel_size_;
  source_rows_ = info.source_rows;
}

size_t GroupBySink::wave() const {
  // Without a limit every batch at once (the fastest); under one a few at a time, so the
  // state is counted (and spilled, or refused naming why) before more input is read.
  if (memory_limit() <= 0) return 0;
  return std::max<size_t>(2, thread_pool_size());
}

std::unique_ptr<LocalSinkState> GroupBySink::make_local() const { return std::make_unique<KeptRows>(); }

void GroupBySink::sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const {
  rows_in_ += rows.height();
  if (memory_limit() > 0) wave_bytes_in_ += frame_bytes(rows);
  static_cast<KeptRows&>(local).rows = two_phase_on_ ? two_phase_->partial->execute(rows, state) : std::move(rows);
}

void GroupBySink::combine(LocalSinkState& local) {
  DataFrame rows = std::move(static_cast<KeptRows&>(local).rows);
  const bool limited = memory_limit() > 0;
  const int64_t bytes = limited ? frame_bytes(rows) : 0;
  kept_.push_back(std::move(rows));
  kept_bytes_ += bytes;
  if (!limited) return;
  // The first combine of a wave: what the wave read and made.
  if (const int64_t in = wave_bytes_in_.exchange(0)) {
    last_wave_bytes_ = in + wave_bytes_out_;
    wave_bytes_out_ = 0;
  }
  wave_bytes_out_ += bytes;
  // The finalize needs about as much again as the state kept, and the next wave about twice
  // what this one read and made (the batches, the operators' and partial states' scratch).
  const int64_t headroom = 2 * std::max(last_wave_bytes_, wave_bytes_out_);
  if (finalize_memory_.try_grow(bytes + headroom)) {
    finalize_memory_.shrink(headroom);
    return;
  }
  if (const std::string why = cannot_spill(); !why.empty()) {
    MemoryReservation refused("group_by (" + why + ", so it cannot spill)");
    refused.grow(bytes + headroom);  // throws the MemoryError naming the limit
  }
  spill_kept();
}

void GroupBySink::spill_kept() {
  if (!spill_) {
    // Partitions of about a quarter of the limit each, from the state's size so far and
    // the share of the input it came from.
    const int64_t seen = std::max<int64_t>(rows_in_.load(), 1);
    const double share = source_rows_ > seen ? static_cast<double>(source_rows_) / static_cast<double>(seen) : 1.0;
    const double total = static_cast<double>(kept_bytes_) * share;
    const auto parts = static_cast<size_t>(std::clamp(4.0 * total / static_cast<double>(memory_limit()), 8.0, 256.0));
    spill_ = std::make_unique<GroupBySpill>(
        parts, [this](const DataFrame& rows) { return hash_keys(rows); },
        [this](const DataFrame& rows) { return group_partition(rows); });
  }
  // What was reserved for finalizing the kept rows in memory goes before they are written:
  // the spill files' buffers count against the limit too.
  finalize_memory_.release();
  std::vector<DataFrame> kept = std::move(kept_);
  kept_.clear();
  int64_t rows = 0;
  for (const auto& f : kept) rows += f.height();
  spill_->spill(kept, kept_first_seq_);
  kept_first_seq_ += static_cast<uint64_t>(rows);
  kept_bytes_ = 0;
}

std::vector<uint64_t> GroupBySink::hash_keys(const DataFrame& rows) const {
  std::vector<ArrayRef> keys;
  const size_t n = ir_.as<plan::GroupByNode>().keys.size();
  if (two_phase_on_) {
    for (size_t i = 0; i < n; ++i) keys.push_back(rows.column(i).as_array());  // "__key<i>"
  } else {
    physical::ExecState state;
    for (const auto& k : physical::create_physical_exprs(ir_.as<plan::GroupByNode>().keys, ea_, rows.schema()))
      keys.push_back(physical::broadcast_to(k->evaluate(rows, state), rows.height()).as_array());
  }
  return compute::hash_rows(keys);
}

GroupedRows GroupBySink::group_partition(const DataFrame& rows) const {
  if (two_phase_on_) return two_phase_->combine_grouped(rows);
  GroupedRows g = group_frame(ir_, rows, ea_, rows.schema());
  g.frame = conform(std::move(g.frame), *ir_.schema);
  return g;
}

void GroupBySink::finalize() {
  // What was reserved for this is given back: the work below counts its own buffers.
  finalize_memory_.release();
  if (spill_) {
    spill_kept();  // the rest joins its partitions: one partition in memory at a time
    DataFrame out = spill_->finish();
    spill_.reset();
    output_ = out.width() ? conform(std::move(out), *ir_.schema) : DataFrame::empty_with_schema(*ir_.schema);
    return;
  }
  std::vector<DataFrame> kept = std::move(kept_);
  kept_.clear();
  DataFrame all = concat_frames(kept);
  kept.clear();
  output_ = two_phase_on_ ? two_phase_->combine(all) : execute_group_by(ir_, std::move(all), ea_, morsel_size_);
}


}  // namespace frazil::exec
