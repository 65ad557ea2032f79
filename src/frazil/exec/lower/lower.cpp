#include "frazil/exec/lower/lower.hpp"

#include <algorithm>
#include <unordered_map>

#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/lower/join_strategy.hpp"
#include "frazil/exec/operators/explode.hpp"
#include "frazil/exec/operators/join.hpp"
#include "frazil/exec/operators/join_probe.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/aggregate_sinks.hpp"
#include "frazil/exec/sinks/asof_join_sink.hpp"
#include "frazil/exec/sinks/inequality_join_sink.hpp"
#include "frazil/exec/sinks/merge_sorted_sink.hpp"
#include "frazil/exec/sinks/cache_sink.hpp"
#include "frazil/exec/sinks/consumer_sink.hpp"
#include "frazil/exec/sinks/distinct_sink.hpp"
#include "frazil/exec/sinks/group_by_sink.hpp"
#include "frazil/exec/sinks/join_build_sink.hpp"
#include "frazil/exec/sinks/join_sinks.hpp"
#include "frazil/exec/sinks/row_index_sink.hpp"
#include "frazil/exec/sinks/scalar_aggregate_sink.hpp"
#include "frazil/exec/sinks/slice_sink.hpp"
#include "frazil/exec/sinks/sort_sink.hpp"
#include "frazil/exec/sinks/union_sink.hpp"
#include "frazil/exec/sinks/whole_frame_sink.hpp"
#include "frazil/exec/sources/pipeline_output_source.hpp"
#include "frazil/exec/sources/scan.hpp"
#include "frazil/exec/sources/scan_source.hpp"
#include "frazil/exec/sources/source.hpp"
#include "frazil/physical/planner.hpp"
#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/expr/walk.hpp"
#include "frazil/plan/format.hpp"
#include "frazil/plan/row_order.hpp"

namespace frazil::exec {

using plan::IR;
using plan::IRKind;
using plan::Node;

namespace {

// A pipeline being built: its source and operators, not yet closed by a sink.
struct OpenPipeline {
  SourceRef source;
  std::vector<OperatorRef> ops;
  std::vector<PipelineId> reads;
  std::vector<Node> runs;
};

// What a join's key filter needs from the join above the group-by it filters.
struct KeyFilterEdge {
  Node join;
  PipelineId left;
  double grouped_rows;
};

class Lowering {
 public:
  Lowering(Node root, const plan::IRArena& lp, const plan::ExprArena& ea, const ExecOptions& opts)
      : lp_(lp),
        ea_(ea),
        opts_(opts),
        unordered_(opts.check_order_observe ? plan::unordered_outputs(root, lp, ea) : std::vector<bool>(lp.size(), false)) {
    threads_ = opts.threads > 0 ? opts.threads : static_cast<int64_t>(thread_pool_size());
    plan_.lp = &lp;
  }

  PhysicalPlan lower(Node root) {
    plan_.root = materialize(root);
    return std::move(plan_);
  }

  PhysicalPlan lower_into(Node root, std::function<void(const DataFrame&)> consume) {
    auto sink = std::make_shared<ConsumerSink>(std::move(consume), std::max<size_t>(1, 2 * static_cast<size_t>(threads_)));
    const IR& ir = ir_of(root);
    if (is_streaming(ir) || ir.kind() == IRKind::DataFrameScan || ir.kind() == IRKind::Scan)
      plan_.root = close(stream(root), sink, root);
    else
      plan_.root = close(output_of(materialize(root), /*whole=*/true), sink, std::nullopt);
    return std::move(plan_);
  }

 private:
  const IR& ir_of(Node n) const { return lp_.get(n); }
  const Schema& input_schema(const IR& ir, size_t i = 0) const { return *lp_.get(ir.inputs[i]).schema; }

  PipelineId close(OpenPipeline open, SinkRef sink, std::optional<Node> node) {
    Pipeline p;
    p.source = std::move(open.source);
    p.ops = std::move(open.ops);
    p.sink = std::move(sink);
    p.reads = std::move(open.reads);
    p.runs = std::move(open.runs);
    if (node && std::find(p.runs.begin(), p.runs.end(), *node) == p.runs.end()) p.runs.push_back(*node);
    p.node = node;
    plan_.pipelines.push_back(std::move(p));
    return plan_.pipelines.size() - 1;
  }

  SinkRef sink_of(PipelineId id) const { return plan_.pipelines[id].sink; }

  // A pipeline over the finalized output of pipeline `id`.
  OpenPipeline output_of(PipelineId id, bool whole) {
    OpenPipeline open;
    open.source = std::make_shared<PipelineOutputSource>(sink_of(id), id, whole, opts_.morsel_size);
    open.reads.push_back(id);
    return open;
  }

  // --- what streams ---

  bool is_streaming(const IR& ir) const {
    switch (ir.kind()) {
      case IRKind::Filter: return plan::is_elementwise_rec(ir.as<plan::FilterNode>().predicate.node(), ea_);
      case IRKind::SimpleProjection:
      case IRKind::Rename:
      case IRKind::Explode: return true;
      case IRKind::Select:
      case IRKind::HStack: {
        bool any_column = false;
        for (const auto& e : plan::projection_exprs(ir)) {
          if (!plan::is_elementwise_rec(e.node(), ea_)) return false;
          any_column |= !plan::is_scalar_ae(e.node(), ea_);
        }
        // A select of scalars only has one row, not one per morsel.
        return ir.kind() == IRKind::HStack || any_column;
      }
      default: return false;
    }
  }

  OperatorRef make_operator(const IR& ir) const {
    switch (ir.kind()) {
      case IRKind::Filter: return make_filter(ir.as<plan::FilterNode>().predicate, input_schema(ir));
      case IRKind::Select:
      case IRKind::HStack:
        return std::make_shared<ProjectOperator>(
            physical::create_physical_exprs(plan::projection_exprs(ir), ea_, input_schema(ir)),
            ir.kind() == IRKind::HStack);
      case IRKind::SimpleProjection:
        return std::make_shared<SimpleProjectOperator>(ir.as<plan::SimpleProjectionNode>().columns);
      case IRKind::Explode: return make_explode_operator(ir.as<plan::ExplodeNode>());
      case IRKind::Rename: return std::make_shared<SimpleProjectOperator>(input_schema(ir).names(), ir.schema->names());
      default: throw InternalError("not a streaming operator");
    }
  }

  // A filter, told its conjuncts when they are row-wise (then each may run on the rows the
  // ones before it kept). Tests that read strings are the costly ones and go last.
  OperatorRef make_filter(const plan::ExprIR& predicate, const Schema& schema) const {
    std::vector<Node> parts;
    plan::split_conjuncts(predicate.node(), ea_, schema, parts);
    std::vector<FilterOperator::Conjunct> conjuncts;
    if (parts.size() > 1 &&
        std::all_of(parts.begin(), parts.end(), [&](Node n) { return plan::is_elementwise_rec(n, ea_); })) {
      for (Node n : parts) {
        std::vector<std::string> cols;
        plan::collect_columns(n, ea_, cols);
        const bool costly = std::any_of(cols.begin(), cols.end(), [&](const std::string& c) {
          const auto i = schema.index_of(c);
          const DataType& t = i ? schema.field(*i).dtype : DataType::boolean();
          return !t.is_fixed_width() && !t.is_boolean();
        });
        conjuncts.push_back(
            {physical::create_physical_expr(plan::ExprIR(n, predicate.output_name_inner()), ea_, schema), costly});
      }
      std::stable_partition(conjuncts.begin(), conjuncts.end(), [](const auto& c) { return !c.costly; });
    }
    return std::make_shared<FilterOperator>(physical::create_physical_expr(predicate, ea_, schema), std::move(conjuncts));
  }

  // --- pipelines ---

  // The rows of `node` as a consumer that gathers its input sees them: a node that streams
  // streams into the consumer's sink; any other is gathered by its own pipeline and handed
  // over whole.
  OpenPipeline input(Node node) {
    const IR& ir = ir_of(node);
    if (is_streaming(ir) || ir.kind() == IRKind::DataFrameScan || ir.kind() == IRKind::Scan) {
      OpenPipeline open = stream(node);
      open.runs.push_back(node);
      return open;
    }
    return output_of(materialize(node), /*whole=*/true);
  }

  // The rows of `node` as a stream: the chain of streaming operators (streaming joins
  // included) down to a source, which is a scan, a frame, or the output of a node that does
  // not stream.
  OpenPipeline stream(Node node) {
    check_stack("lowering");
    std::vector<OperatorRef> above;  // top-down
    std::vector<PipelineId> reads;
    std::vector<Node> runs;
    // The open pipeline a join gave, under the operators above it.
    auto finish = [&](OpenPipeline open) {
      reads.insert(reads.end(), open.reads.begin(), open.reads.end());
      open.reads = std::move(reads);
      runs.insert(runs.end(), open.runs.begin(), open.runs.end());
      open.runs = std::move(runs);
      open.ops.insert(open.ops.end(), above.rbegin(), above.rend());
      return open;
    };
    Node cur = node;
    for (;;) {
      const IR& ir = ir_of(cur);
      if (is_streaming(ir)) {
        above.push_back(make_operator(ir));
        cur = ir.inputs[0];
        continue;
      }
      if (ir.kind() != IRKind::Join) break;
      const JoinChoice choice = choose_join_strategy(cur, /*as_stream=*/true, lp_, ea_, unordered_, opts_.row_estimate);
      if (choice.strategy == JoinStrategy::Materialize) break;
      runs.push_back(cur);
      switch (choice.strategy) {
        case JoinStrategy::KeyFilteredProbe: {
          // The left side runs first (its keys filter the right group-by's input), then its
          // frame is probed against the right side.
          const PipelineId left = materialize(ir.inputs[0]);
          const PipelineId right = key_filtered_group_by(ir.inputs[1], KeyFilterEdge{cur, left, choice.grouped_rows});
          const PipelineId build = join_build(cur, output_of(right, true), std::nullopt);
          OpenPipeline open = output_of(left, false);
          open.reads.push_back(build);
          open.ops.push_back(probe(cur, build));
          return finish(std::move(open));
        }
        case JoinStrategy::ProbeLeft: {
          const PipelineId build = join_build(cur);
          reads.push_back(build);
          above.push_back(probe(cur, build));
          cur = ir.inputs[0];
          continue;
        }
        case JoinStrategy::UnorderedLeftBuild: {
          // The right side's pipeline goes on through the join, then through the operators above.
          const PipelineId left = materialize(ir.inputs[0]);
          reads.push_back(left);
          OpenPipeline right = stream(ir.inputs[1]);
          right.ops.push_back(std::make_shared<UnorderedJoinProbe>(ir, ea_, input_schema(ir, 0), input_schema(ir, 1),
                                                                   sink_of(left), left));
          return finish(std::move(right));
        }
        default: throw InternalError("a join strategy that does not stream");
      }
    }
    OpenPipeline open = source(cur);
    return finish(std::move(open));
  }

  // The source at the bottom of a stream; a scan's own predicate and projection run first.
  OpenPipeline source(Node node) {
    const IR& src = ir_of(node);
    OpenPipeline open;
    if (const auto* frame = src.get_if<plan::DataFrameScanNode>()) {
      open.source = frame_source(*frame->df, opts_.morsel_size);
      if (frame->predicate) open.ops.push_back(make_filter(*frame->predicate, *frame->source_schema));
      if (frame->projection) open.ops.push_back(std::make_shared<SimpleProjectOperator>(*frame->projection));
      return open;
    }
    if (const auto* scan = src.get_if<plan::ScanNode>()) {
      // Parquet files stream row group by row group; other scans are read whole. CSV
      // readers filter while parsing; other formats are filtered here, morsel by morsel.
      const bool filter_here = scan->predicate && !scan_filters_in_reader(*scan, ea_);
      SourceRef streamed = scan->source.format == dsl::ScanFormat::Parquet ? parquet_source(*scan, ea_) : nullptr;
      if (filter_here) open.ops.push_back(make_filter(*scan->predicate, *scan->source_schema));
      if (streamed) {
        bool extra = false;
        scan_columns(*scan, ea_, &extra);
        if (scan->projection && extra) open.ops.push_back(std::make_shared<SimpleProjectOperator>(*scan->projection));
        open.source = std::move(streamed);
        return open;
      }
      if (scan->projection)
        open.ops.push_back(std::make_shared<SimpleProjectOperator>(*scan->projection, std::vector<std::string>{},
                                                                   /*only_when_wider=*/true));
      if (scan->n_rows && filter_here) {
        // The row limit counts rows after the predicate: the source filters first, then cuts.
        open.source = std::make_shared<FileScanSource>(*scan, ea_, opts_.morsel_size, std::move(open.ops), *scan->n_rows);
        open.ops.clear();
      } else {
        open.source = std::make_shared<FileScanSource>(*scan, ea_, opts_.morsel_size);
      }
      return open;
    }
    return output_of(materialize(node), /*whole=*/false);
  }

  // --- nodes gathered by a sink ---

  // The pipeline whose sink holds the output of `node`.
  PipelineId materialize(Node node) {
    check_stack("lowering");  // recursive over the plan's depth (core/stack.hpp)
    const IR& ir = ir_of(node);
    if (is_streaming(ir)) return close(stream(node), std::make_shared<CollectSink>(), node);
    switch (ir.kind()) {
      case IRKind::DataFrameScan:
      case IRKind::Scan: return close(stream(node), std::make_shared<CollectSink>(), node);
      case IRKind::Select:
      case IRKind::HStack:
      case IRKind::Filter: return project_whole(node, ir);  // not streaming: aggregates see the whole input
      case IRKind::GroupBy: return group_by(node, std::nullopt);
      case IRKind::Join: return join(node, ir);
      case IRKind::Sort:
        return close(input(ir.inputs[0]), std::make_shared<SortSink>(ir.as<plan::SortNode>(), ea_, input_schema(ir)),
                     node);
      case IRKind::Slice: {
        const auto& s = ir.as<plan::SliceNode>();
        return close(input(ir.inputs[0]), std::make_shared<SliceSink>(s.offset, s.length), node);
      }
      case IRKind::Union: return union_all(node, ir);
      case IRKind::AsofJoin: {
        // The left side first; the right side's rows are gathered by the join's sink.
        const PipelineId left = materialize(ir.inputs[0]);
        OpenPipeline right = input(ir.inputs[1]);
        right.reads.insert(right.reads.begin(), left);
        return close(std::move(right),
                     std::make_shared<AsofJoinSink>(ir, ea_, input_schema(ir, 0), input_schema(ir, 1), sink_of(left),
                                                    left),
                     node);
      }
      case IRKind::InequalityJoin: {
        const PipelineId left = materialize(ir.inputs[0]);
        OpenPipeline right = input(ir.inputs[1]);
        right.reads.insert(right.reads.begin(), left);
        return close(std::move(right),
                     std::make_shared<InequalityJoinSink>(ir, ea_, input_schema(ir, 0), input_schema(ir, 1),
                                                          sink_of(left), left),
                     node);
      }
      case IRKind::MergeSorted: {
        const PipelineId left = materialize(ir.inputs[0]);
        OpenPipeline right = input(ir.inputs[1]);
        right.reads.insert(right.reads.begin(), left);
        return close(std::move(right),
                     std::make_shared<MergeSortedSink>(ir.as<plan::MergeSortedNode>(), sink_of(left), left), node);
      }
      case IRKind::Distinct:
        return close(input(ir.inputs[0]), std::make_shared<DistinctSink>(ir.as<plan::DistinctNode>()), node);
      case IRKind::RowIndex:
        return close(input(ir.inputs[0]), std::make_shared<RowIndexSink>(ir.as<plan::RowIndexNode>()), node);
      case IRKind::Cache: {
        // One pipeline per cache id, read by every consumer.
        const uint64_t id = ir.as<plan::CacheNode>().id;
        if (auto it = caches_.find(id); it != caches_.end()) {
          std::static_pointer_cast<CacheSink>(sink_of(it->second))->add_consumer();
          return it->second;
        }
        const PipelineId p = close(input(ir.inputs[0]), std::make_shared<CacheSink>(id, 1, opts_.stats), node);
        caches_.emplace(id, p);
        return p;
      }
      default: throw InternalError("cannot execute this plan node");
    }
  }

  PipelineId project_whole(Node node, const IR& ir) {
    // A select of aggregations only streams into partial states per morsel.
    if (ir.kind() == IRKind::Select)
      if (auto partial = plan_partial_select(ir, ea_, input_schema(ir))) {
        OpenPipeline open = stream(ir.inputs[0]);
        open.ops.push_back(partial->partial);
        fuse_filter_into_partial_select(open.ops);
        partial->partial = open.ops.back();
        open.ops.pop_back();
        std::string text = "[";
        const auto& exprs = ir.as<plan::SelectNode>().exprs;
        for (size_t i = 0; i < exprs.size(); ++i) text += (i ? ", " : "") + plan::format_expr(exprs[i], ea_);
        return close(std::move(open), std::make_shared<ScalarAggregateSink>(text + "]", std::move(*partial)), node);
      }
    return close(input(ir.inputs[0]), std::make_shared<WholeFrameSink>(make_operator(ir)), node);
  }

  // A group-by; `key_filter`: the rows of groups the join above will drop are filtered out
  // first, by the keys of that join's left side.
  PipelineId group_by(Node node, std::optional<KeyFilterEdge> key_filter) {
    const IR& ir = ir_of(node);
    auto add_key_filter = [&](OpenPipeline& open) {
      if (!key_filter) return;
      const IR& join = ir_of(key_filter->join);
      open.ops.push_back(std::make_shared<KeyFilter>(join, ea_, input_schema(join, 0), input_schema(ir),
                                                     sink_of(key_filter->left), key_filter->left,
                                                     key_filter->grouped_rows));
      open.reads.push_back(key_filter->left);
    };
    // A big input streams into a two-phase aggregation: each morsel becomes partial states
    // right where the pipeline produced it (decided by the sink when the pipeline starts).
    // Also on one thread: grouping the whole input instead keeps every input row (all of
    // PDS-H q1's lineitem, 9.4 GB at scale 10) until the pipeline ends.
    if (auto two_phase = plan_partial_group_by(ir, ea_, input_schema(ir))) {
      OpenPipeline open = stream(ir.inputs[0]);
      add_key_filter(open);
      return close(std::move(open), std::make_shared<GroupBySink>(ir, ea_, std::move(two_phase), opts_.morsel_size),
                   node);
    }
    OpenPipeline open = key_filter ? stream(ir.inputs[0]) : input(ir.inputs[0]);
    add_key_filter(open);
    return close(std::move(open), std::make_shared<GroupBySink>(ir, ea_, std::nullopt, opts_.morsel_size), node);
  }

  PipelineId key_filtered_group_by(Node group_by_node, KeyFilterEdge edge) { return group_by(group_by_node, edge); }

  // --- joins ---

  // The build side of a probe-left-streams join, from the rows of `right` (reported as the
  // right input's node when they stream from it, not when another pipeline made them).
  PipelineId join_build(Node join, OpenPipeline right, std::optional<Node> node) {
    const IR& ir = ir_of(join);
    return close(std::move(right), std::make_shared<JoinBuildSink>(ir, ea_, input_schema(ir, 0), input_schema(ir, 1),
                                                                  unordered_[join.idx]),
                 node);
  }
  PipelineId join_build(Node join) {
    const Node right = ir_of(join).inputs[1];
    const IR& r = ir_of(right);
    const bool streams = is_streaming(r) || r.kind() == IRKind::DataFrameScan || r.kind() == IRKind::Scan;
    return join_build(join, input(right), streams ? std::optional<Node>(right) : std::nullopt);
  }

  OperatorRef probe(Node join, PipelineId build) {
    return std::make_shared<JoinProbe>(join_label(ir_of(join), ea_),
                                       std::static_pointer_cast<JoinBuildSink>(sink_of(build)), build);
  }

  // A join whose output is gathered.
  PipelineId join(Node node, const IR& ir) {
    const JoinChoice choice = choose_join_strategy(node, /*as_stream=*/false, lp_, ea_, unordered_, opts_.row_estimate);
    const Schema& ls = input_schema(ir, 0);
    const Schema& rs = input_schema(ir, 1);
    switch (choice.strategy) {
      case JoinStrategy::KeyFilteredWhole: {
        const PipelineId left = materialize(ir.inputs[0]);
        const PipelineId right =
            key_filtered_group_by(ir.inputs[1], KeyFilterEdge{node, left, choice.grouped_rows});
        OpenPipeline open = output_of(right, true);
        open.reads.insert(open.reads.begin(), left);
        return close(std::move(open),
                     std::make_shared<WholeJoinSink>(ir, ea_, ls, rs, sink_of(left), left, opts_.morsel_size), node);
      }
      case JoinStrategy::ProbeLeft:
      case JoinStrategy::UnorderedLeftBuild: return close(stream(node), std::make_shared<CollectSink>(), node);
      case JoinStrategy::LeftBuild: {
        // The left side first; the right side streams through a table built on it.
        const PipelineId left = materialize(ir.inputs[0]);
        OpenPipeline right = stream(ir.inputs[1]);
        right.reads.insert(right.reads.begin(), left);
        auto sink = std::make_shared<LeftBuildJoinSink>(ir, ea_, ls, rs, sink_of(left), left, opts_.morsel_size);
        right.ops.push_back(std::make_shared<LeftBuildMatch>(sink));
        return close(std::move(right), sink, node);
      }
      case JoinStrategy::Whole: {
        const PipelineId left = materialize(ir.inputs[0]);
        OpenPipeline right = input(ir.inputs[1]);
        right.reads.insert(right.reads.begin(), left);
        return close(std::move(right),
                     std::make_shared<WholeJoinSink>(ir, ea_, ls, rs, sink_of(left), left, opts_.morsel_size), node);
      }
      default: throw InternalError("a join strategy for streams only");
    }
  }

  // Every input's pipeline ends in one union sink, in input order; the last finalizes it.
  PipelineId union_all(Node node, const IR& ir) {
    auto sink = std::make_shared<UnionSink>(ir.inputs.size(), ir.as<plan::UnionNode>().rechunk);
    std::vector<PipelineId> before;
    for (size_t i = 0; i < ir.inputs.size(); ++i) {
      const bool last = i + 1 == ir.inputs.size();
      const PipelineId p = close(input(ir.inputs[i]), sink, last ? std::optional<Node>(node) : std::nullopt);
      plan_.pipelines[p].finalizes = last;
      plan_.pipelines[p].after = before;
      before.push_back(p);
    }
    return before.back();
  }

  const plan::IRArena& lp_;
  const plan::ExprArena& ea_;
  const ExecOptions& opts_;
  std::vector<bool> unordered_;  // plan nodes whose row order nobody observes
  int64_t threads_ = 1;
  std::unordered_map<uint64_t, PipelineId> caches_;  // cache id -> its pipeline
  PhysicalPlan plan_;
};

}  // namespace

PhysicalPlan lower_plan(Node root, const plan::IRArena& lp, const plan::ExprArena& ea, const ExecOptions& options) {
  return Lowering(root, lp, ea, options).lower(root);
}

PhysicalPlan lower_plan_into(Node root, const plan::IRArena& lp, const plan::ExprArena& ea,
                             std::function<void(const DataFrame&)> consume, const ExecOptions& options) {
  return Lowering(root, lp, ea, options).lower_into(root, std::move(consume));
}

}  // namespace frazil::exec
