#include "frazil/exec/executor.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <unordered_map>

#include "frazil/compute/boolean.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/env.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/stack.hpp"
#include "frazil/core/length_limit.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/aggregate_sinks.hpp"
#include "frazil/exec/explode.hpp"
#include "frazil/exec/join.hpp"
#include "frazil/exec/morsels.hpp"
#include "frazil/exec/operators.hpp"
#include "frazil/exec/query_observer.hpp"
#include "frazil/exec/scan.hpp"
#include "frazil/exec/source.hpp"
#include "frazil/optimizer/cse/cost_model.hpp"
#include "frazil/plan/expr/rewrite.hpp"
#include "frazil/plan/plan_walk.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"
#include "frazil/plan/row_order.hpp"

namespace frazil::exec {

using plan::IR;
using plan::IRKind;
using plan::Node;
using compute::JoinType;

ExecOptions ExecOptions::from_env() {
  ExecOptions o;
  if (auto n = env_int("FRAZIL_MORSEL_SIZE", 1, kMaxLength)) o.morsel_size = *n;
  return o;
}

namespace {

class Executor {
 public:
  Executor(Node root, const plan::IRArena& lp, const plan::ExprArena& ea, ExecOptions opts)
      : lp_(lp), ea_(ea), opts_(opts), unordered_(plan::unordered_outputs(root, lp, ea)) {}

  DataFrame run(Node node) {
    check_stack("execution");  // recursive over the plan's depth (core/stack.hpp)
    if (!opts_.observer) return run_node(node);
    opts_.observer->node_started(node, lp_.get(node));
    DataFrame out = run_node(node);
    opts_.observer->node_finished(node, lp_.get(node), out.height());
    return out;
  }

  DataFrame run_node(Node node) {
    const IR& ir = lp_.get(node);
    if (opts_.stats) ++opts_.stats->runs_by_kind[static_cast<size_t>(ir.kind())];
    if (is_streaming(ir)) return run_pipeline(node);
    switch (ir.kind()) {
      case IRKind::DataFrameScan:
      case IRKind::Scan: return run_pipeline(node);
      case IRKind::Select:
      case IRKind::HStack:
      case IRKind::Filter: return project_whole(ir);  // not streaming: aggregates see the whole input
      case IRKind::GroupBy: return group_by(node, ir);
      case IRKind::Join: return join(node, ir);
      case IRKind::Sort: return sort(ir);
      case IRKind::Slice: return slice(run(ir.inputs[0]), ir.as<plan::SliceNode>().offset, ir.as<plan::SliceNode>().length);
      case IRKind::Union: return union_all(ir);
      case IRKind::Distinct: return distinct(ir);
      case IRKind::RowIndex: return row_index(ir);
      case IRKind::Cache: {
        const uint64_t id = ir.as<plan::CacheNode>().id;
        auto it = caches_.find(id);
        if (it != caches_.end()) {
          if (opts_.stats) ++opts_.stats->cache_reuses;
          return it->second;
        }
        if (opts_.stats) ++opts_.stats->cache_computations;
        DataFrame df = run(ir.inputs[0]);
        caches_.emplace(id, df);
        return df;
      }
      default: throw InternalError("cannot execute this plan node");
    }
  }

 private:
  const Schema& input_schema(const IR& ir, size_t i = 0) const { return *lp_.get(ir.inputs[i]).schema; }

  bool is_streaming(const IR& ir) const {
    switch (ir.kind()) {
      case IRKind::Filter:
        return plan::is_elementwise_rec(ir.as<plan::FilterNode>().predicate.node(), ea_);
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
      case IRKind::Filter:
        return make_filter(ir.as<plan::FilterNode>().predicate, input_schema(ir));
      case IRKind::Select:
      case IRKind::HStack:
        return std::make_shared<ProjectOperator>(
            physical::create_physical_exprs(plan::projection_exprs(ir), ea_, input_schema(ir)),
            ir.kind() == IRKind::HStack);
      case IRKind::SimpleProjection:
        return std::make_shared<SimpleProjectOperator>(ir.as<plan::SimpleProjectionNode>().columns);
      case IRKind::Explode: return make_explode_operator(ir.as<plan::ExplodeNode>());
      case IRKind::Rename:
        return std::make_shared<SimpleProjectOperator>(input_schema(ir).names(), ir.schema->names());
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
        conjuncts.push_back({physical::create_physical_expr(plan::ExprIR(n, predicate.output_name_inner()), ea_, schema),
                             costly});
      }
      std::stable_partition(conjuncts.begin(), conjuncts.end(), [](const auto& c) { return !c.costly; });
    }
    return std::make_shared<FilterOperator>(physical::create_physical_expr(predicate, ea_, schema), std::move(conjuncts));
  }

  // A chain of streaming operators (streaming joins included) and the source feeding it.
  // A tail is a frame made once every batch has gone through, which joins the stream
  // after operator `after` (an unordered left join's unmatched build rows).
  struct Pipeline {
    struct Tail {
      size_t after;
      std::function<DataFrame()> make;
    };
    SourceRef source;
    std::vector<OperatorRef> ops;  // in the order they apply
    std::vector<Tail> tails;
  };

  // A join streams its left input through a probe of its right input when the right is
  // expected to be the smaller side (the hash table is built on it); otherwise it is a
  // pipeline breaker that sees both sides' sizes (exec/join.cpp).
  bool stream_join(const IR& ir) const {
    if (!join_streams_left(ir, ea_)) return false;
    auto left = optimizer::cse::estimate_cost(ir.inputs[0], lp_, ea_);
    auto right = optimizer::cse::estimate_cost(ir.inputs[1], lp_, ea_);
    return left && right && right->rows <= left->rows;
  }

  // An inner or left join whose output order nobody observes, expected to have the smaller
  // left side: built on the left, it lets the right side's pipeline run on through it.
  bool unordered_left_build(Node node, const IR& ir) const {
    const JoinType how = ir.as<plan::JoinNode>().options.how;
    return unordered_[node.idx] && (how == JoinType::Inner || how == JoinType::Left) &&
           join_streams_left(ir, ea_) && !stream_join(ir);
  }

  // A join folded into a pipeline below its top is run without run(): count it here.
  void count_join_run(bool below_top) {
    if (opts_.stats && below_top) ++opts_.stats->runs_by_kind[static_cast<size_t>(IRKind::Join)];
  }

  Pipeline build_pipeline(Node node) {
    std::vector<OperatorRef> ops;
    std::optional<std::pair<DataFrame, DataFrame>> sides;
    Node cur = node;
    for (;;) {
      const IR& ir = lp_.get(cur);
      if (is_streaming(ir)) {
        ops.push_back(make_operator(ir));
      } else if (ir.kind() == IRKind::Join && (sides = run_sides_with_key_filter(ir))) {
        // Both sides are at hand: the right one is built, the left one streams on.
        count_join_run(cur != node);
        std::reverse(ops.begin(), ops.end());
        ops.insert(ops.begin(), make_join_probe(ir, sides->second, input_schema(ir, 0), input_schema(ir, 1), ea_));
        return Pipeline{frame_source(sides->first, opts_.morsel_size), std::move(ops), {}};
      } else if (ir.kind() == IRKind::Join && stream_join(ir)) {
        count_join_run(cur != node);
        ops.push_back(make_join_probe(ir, run(ir.inputs[1]), input_schema(ir, 0), input_schema(ir, 1), ea_));
      } else if (ir.kind() == IRKind::Join && unordered_left_build(cur, ir)) {
        count_join_run(cur != node);
        DataFrame left = run(ir.inputs[0]);
        Pipeline right = build_pipeline(ir.inputs[1]);
        std::reverse(ops.begin(), ops.end());
        if (right.source->total_rows() > left.height()) {
          // The right side's pipeline goes on through the join, then through `ops`.
          auto j = std::make_shared<UnorderedLeftBuildJoin>(ir, std::move(left), input_schema(ir, 0),
                                                            input_schema(ir, 1), ea_);
          right.ops.push_back(j->probe_operator());
          if (j->keeps_unmatched()) right.tails.push_back({right.ops.size() - 1, [j] { return j->unmatched_rows(); }});
          right.ops.insert(right.ops.end(), ops.begin(), ops.end());
          return right;
        }
        // The estimate was wrong: the right side is the smaller after all.
        ops.insert(ops.begin(), make_join_probe(ir, run_pipeline(right), input_schema(ir, 0), input_schema(ir, 1), ea_));
        return Pipeline{frame_source(left, opts_.morsel_size), std::move(ops), {}};
      } else {
        break;
      }
      cur = ir.inputs[0];
    }
    std::reverse(ops.begin(), ops.end());
    const IR& src = lp_.get(cur);
    Pipeline p;
    // A scan's own projection and predicate run first, inside the pipeline.
    std::vector<OperatorRef> scan_ops;
    if (const auto* frame = src.get_if<plan::DataFrameScanNode>()) {
      p.source = frame_source(*frame->df, opts_.morsel_size);
      if (frame->predicate) scan_ops.push_back(make_filter(*frame->predicate, *frame->source_schema));
      if (frame->projection) scan_ops.push_back(std::make_shared<SimpleProjectOperator>(*frame->projection));
    } else if (const auto* scan = src.get_if<plan::ScanNode>()) {
      // Parquet files stream row group by row group; other scans are read whole. CSV
      // readers filter while parsing; other formats are filtered here, morsel by morsel.
      const bool filter_here = scan->predicate && !scan_filters_in_reader(*scan, ea_);
      SourceRef streamed = scan->source.format == dsl::ScanFormat::Parquet ? parquet_source(*scan, ea_) : nullptr;
      if (filter_here) scan_ops.push_back(make_filter(*scan->predicate, *scan->source_schema));
      if (streamed) {
        bool extra = false;
        scan_columns(*scan, ea_, &extra);
        if (scan->projection && extra) scan_ops.push_back(std::make_shared<SimpleProjectOperator>(*scan->projection));
        p.source = streamed;
      } else {
        DataFrame source = read_scan(*scan, ea_);
        if (scan->projection && source.width() != scan->projection->size())
          scan_ops.push_back(std::make_shared<SimpleProjectOperator>(*scan->projection));
        if (scan->n_rows && filter_here) {
          // The row limit counts rows after the predicate: filter first, then cut.
          source = run_source(frame_source(source, opts_.morsel_size), scan_ops).head(*scan->n_rows);
          scan_ops.clear();
        }
        p.source = frame_source(source, opts_.morsel_size);
      }
    } else {
      p.source = frame_source(run(cur), opts_.morsel_size);
    }
    ops.insert(ops.begin(), scan_ops.begin(), scan_ops.end());
    p.ops = std::move(ops);
    return p;
  }

  DataFrame run_pipeline(Node node) { return run_pipeline(build_pipeline(node)); }

 public:
  // Streams the output of `node` into `consume` (execute_plan_into): a wave of batches runs
  // in parallel, then its results go out in order and are released.
  void stream(Node node, const std::function<void(const DataFrame&)>& consume) {
    const IR& ir = lp_.get(node);
    if (!is_streaming(ir) && ir.kind() != IRKind::Scan && ir.kind() != IRKind::DataFrameScan) {
      consume(run(node));
      return;
    }
    const Pipeline p = build_pipeline(node);
    const size_t n = p.source->num_batches();
    const size_t wave = std::max<size_t>(1, 2 * thread_pool_size());
    for (size_t first = 0; first < n; first += wave) {
      const size_t count = std::min(wave, n - first);
      std::vector<DataFrame> out(count);
      parallel_for(count, [&](size_t k) {
        DataFrame batch = p.source->batch(first + k);
        if (p.ops.empty()) {
          out[k] = std::move(batch);
          return;
        }
        const std::vector<DataFrame> morsels = split_morsels(batch, opts_.morsel_size);
        std::vector<DataFrame> done(morsels.size());
        parallel_for(morsels.size(), [&](size_t m) {
          physical::ExecState state;
          done[m] = run_operators(p.ops, morsels[m], state);
        });
        out[k] = concat_frames(done);
      });
      for (auto& d : out) {
        consume(d);
        d = DataFrame();
      }
    }
    for (const auto& tail : p.tails) {
      const std::vector<OperatorRef> rest(p.ops.begin() + static_cast<std::ptrdiff_t>(tail.after) + 1, p.ops.end());
      consume(run_source(frame_source(tail.make(), opts_.morsel_size), rest));
    }
  }

 private:

  // Pushes every batch of the source through the operators, batches in parallel (and the
  // morsels of a big batch too), and concatenates the results in source order; then the
  // tails, each through the operators after its entry point.
  DataFrame run_pipeline(const Pipeline& p) {
    if (opts_.observer) opts_.observer->pipeline_started(p.source->num_batches(), p.source->total_rows());
    DataFrame out = run_source(p.source, p.ops);
    if (opts_.observer) opts_.observer->pipeline_finished(out.height());
    if (p.tails.empty()) return out;
    std::vector<DataFrame> parts{std::move(out)};
    for (const auto& tail : p.tails) {
      const std::vector<OperatorRef> rest(p.ops.begin() + static_cast<std::ptrdiff_t>(tail.after) + 1, p.ops.end());
      parts.push_back(run_source(frame_source(tail.make(), opts_.morsel_size), rest));
    }
    return concat_frames(parts);
  }

  DataFrame run_source(const SourceRef& source, const std::vector<OperatorRef>& ops) {
    const size_t n = source->num_batches();
    std::vector<std::vector<DataFrame>> out(n);
    parallel_for(n, [&](size_t b) {
      DataFrame batch = source->batch(b);
      if (opts_.observer) opts_.observer->batch_done(batch.height(), frame_bytes(batch));
      if (ops.empty()) {
        out[b] = {std::move(batch)};
        return;
      }
      const std::vector<DataFrame> morsels = split_morsels(batch, opts_.morsel_size);
      out[b].resize(morsels.size());
      parallel_for(morsels.size(), [&](size_t m) {
        physical::ExecState state;
        out[b][m] = run_operators(ops, morsels[m], state);
      });
    });
    std::vector<DataFrame> all;
    for (auto& v : out)
      for (auto& f : v) all.push_back(std::move(f));
    return concat_frames(all);
  }

  DataFrame project_whole(const IR& ir) {
    // A select of aggregations only streams into partial states per morsel.
    if (ir.kind() == IRKind::Select)
      if (auto partial = plan_partial_select(ir, ea_, input_schema(ir))) {
        Pipeline p = build_pipeline(ir.inputs[0]);
        p.ops.push_back(partial->partial);
        fuse_filter_into_partial_select(p.ops);
        return partial->combine(run_pipeline(p));
      }
    DataFrame df = run(ir.inputs[0]);
    std::vector<OperatorRef> ops{make_operator(ir)};
    physical::ExecState state;
    return run_operators(ops, df.rechunk(), state);
  }

  DataFrame group_by(Node node, const IR& ir) {
    // Rows of groups a join above will drop (see join()), filtered out first.
    OperatorRef key_filter;
    if (auto it = key_filters_.find(node.idx); it != key_filters_.end()) {
      key_filter = std::move(it->second);
      key_filters_.erase(it);
    }
    // A big input streams into a two-phase aggregation: each morsel becomes partial states
    // right where the pipeline produced it.
    if (thread_pool_size() > 1)
      if (auto two_phase = plan_partial_group_by(ir, ea_, input_schema(ir))) {
        Pipeline p = build_pipeline(ir.inputs[0]);
        if (key_filter) p.ops.push_back(key_filter);
        if (p.source->total_rows() >= 2 * opts_.morsel_size) {
          p.ops.push_back(two_phase->partial);
          return two_phase->combine(run_pipeline(p));
        }
        return execute_group_by(ir, run_pipeline(p), ea_, opts_.morsel_size);
      }
    if (key_filter) {
      Pipeline p = build_pipeline(ir.inputs[0]);
      p.ops.push_back(key_filter);
      return execute_group_by(ir, run_pipeline(p), ea_, opts_.morsel_size);
    }
    return execute_group_by(ir, run(ir.inputs[0]), ea_, opts_.morsel_size);
  }

  // Sideways information passing: when the right input groups by the right join keys and
  // the left side is much smaller than the rows grouped, the left side runs first and the
  // grouped rows are filtered by its keys before grouping. Both sides, or nullopt (nothing
  // run) when this does not apply.
  std::optional<std::pair<DataFrame, DataFrame>> run_sides_with_key_filter(const IR& ir) {
    if (!right_groups_by_join_keys(ir)) return std::nullopt;
    const IR& g = lp_.get(ir.inputs[1]);
    auto grouped_rows = optimizer::cse::estimate_cost(g.inputs[0], lp_, ea_);
    auto left_rows = optimizer::cse::estimate_cost(ir.inputs[0], lp_, ea_);
    // Estimates of the left side are rough (a semi join is taken to keep half its rows):
    // the filter is made when the left side, once run, is small indeed.
    if (!grouped_rows || !left_rows || left_rows->rows > grouped_rows->rows) return std::nullopt;
    DataFrame left = run(ir.inputs[0]);
    if (static_cast<double>(left.height()) * 16 <= grouped_rows->rows)
      key_filters_[ir.inputs[1].idx] = make_right_key_filter(ir, left, input_schema(ir, 0), input_schema(g, 0), ea_);
    return std::make_pair(std::move(left), run(ir.inputs[1]));
  }

  // Whether the right input of an inner, left, semi or anti join groups by exactly the
  // right join keys (plain columns under their own names): then only the groups whose keys
  // the left side has can reach the output, and the others need not be computed.
  bool right_groups_by_join_keys(const IR& ir) const {
    const auto& join = ir.as<plan::JoinNode>();
    const JoinType how = join.options.how;
    if (how != JoinType::Inner && how != JoinType::Left && how != JoinType::Semi && how != JoinType::Anti) return false;
    const IR& g = lp_.get(ir.inputs[1]);
    if (g.kind() != IRKind::GroupBy) return false;
    const auto& group_keys = g.as<plan::GroupByNode>().keys;
    for (size_t i = 0; i < join.right_on.size(); ++i) {
      const plan::AExpr& lk = ea_.get(join.left_on[i].node());
      const plan::AExpr& rk = ea_.get(join.right_on[i].node());
      if (!lk.is_column() || !rk.is_column()) return false;
      const bool grouped = std::any_of(group_keys.begin(), group_keys.end(), [&](const plan::ExprIR& k) {
        const plan::AExpr& e = ea_.get(k.node());
        return e.is_column() && e.name == rk.name && k.output_name() == rk.name;
      });
      if (!grouped) return false;
    }
    return true;
  }

  DataFrame join(Node node, const IR& ir) {
    if (auto sides = run_sides_with_key_filter(ir))
      return execute_join(ir, sides->first, sides->second, input_schema(ir, 0), input_schema(ir, 1), ea_,
                          opts_.morsel_size);
    if (stream_join(ir) || unordered_left_build(node, ir)) return run_pipeline(node);
    if (join_streams_left(ir, ea_)) {
      // The left side first; when the right side is the bigger one, it streams through a
      // table built on the left and only its matching rows are kept.
      DataFrame left = run(ir.inputs[0]);
      Pipeline right = build_pipeline(ir.inputs[1]);
      if (right.source->total_rows() > left.height()) {
        const LeftBuildJoin j(ir, left, input_schema(ir, 0), input_schema(ir, 1), ea_, opts_.morsel_size);
        right.ops.push_back(j.probe_operator());
        return j.finish(run_pipeline(right));
      }
      return execute_join(ir, left, run_pipeline(right), input_schema(ir, 0), input_schema(ir, 1),
                          ea_, opts_.morsel_size);
    }
    return execute_join(ir, run(ir.inputs[0]), run(ir.inputs[1]), input_schema(ir, 0), input_schema(ir, 1), ea_,
                        opts_.morsel_size);
  }

  DataFrame sort(const IR& ir) {
    DataFrame df = run(ir.inputs[0]).rechunk();
    const auto& sort = ir.as<plan::SortNode>();
    physical::ExecState state;
    std::vector<ArrayRef> keys;
    for (const auto& k : physical::create_physical_exprs(sort.by, ea_, input_schema(ir)))
      keys.push_back(physical::broadcast_to(k->evaluate(df, state), df.height()).as_array());
    compute::SortOptions opts;
    opts.descending = sort.options.descending;
    opts.nulls_last = sort.options.nulls_last;
    opts.stable = sort.options.maintain_order;
    if (sort.slice && sort.slice->first >= 0) opts.limit = sort.slice->first + sort.slice->second;
    DataFrame sorted = compute::take_frame(df, compute::arg_sort(keys, opts));
    if (sort.slice) return slice(sorted, sort.slice->first, sort.slice->second);
    return sorted;
  }

  static DataFrame slice(const DataFrame& df, int64_t offset, int64_t length) {
    // Polars' rule: the window [offset, offset + length) (negative offsets count from the
    // end) is clipped to [0, h]; clipping the start also shortens the window.
    const int64_t h = df.height();
    const int64_t begin = offset < 0 ? h + offset : offset;
    const int64_t end = length > INT64_MAX - std::max<int64_t>(begin, 0) ? INT64_MAX : begin + length;
    const int64_t start = std::clamp<int64_t>(begin, 0, h);
    const int64_t stop = std::clamp<int64_t>(end, 0, h);
    return df.slice(start, std::max<int64_t>(0, stop - start));
  }

  DataFrame union_all(const IR& ir) {
    std::vector<DataFrame> parts(ir.inputs.size());
    for (size_t i = 0; i < ir.inputs.size(); ++i) parts[i] = run(ir.inputs[i]);
    return concat_frames(parts);
  }

  DataFrame distinct(const IR& ir) {
    DataFrame df = run(ir.inputs[0]).rechunk();
    const auto& distinct = ir.as<plan::DistinctNode>();
    std::vector<ArrayRef> keys;
    const std::vector<std::string> names = distinct.subset.empty() ? df.names() : distinct.subset;
    for (const auto& n : names) keys.push_back(df.column(n).as_array());
    if (keys.empty()) return df.slice(0, std::min<int64_t>(df.height(), 1));
    return compute::take_frame(df, compute::unique_rows(keys, distinct.keep));
  }

  DataFrame row_index(const IR& ir) {
    DataFrame df = run(ir.inputs[0]);
    const auto& index = ir.as<plan::RowIndexNode>();
    const int64_t h = df.height();
    if (index.offset < 0) throw ComputeError("row index offset must be non-negative");
    if (index.offset + h > static_cast<int64_t>(UINT32_MAX))
      // the last index must be at most kMaxLength
      throw ComputeError(err_msg("row index with offset ", index.offset, " overflows on dataframe with height ", h));
    Buffer values = Buffer::allocate(h * sizeof(uint32_t));
    for (int64_t i = 0; i < h; ++i) values.mutable_as<uint32_t>()[i] = static_cast<uint32_t>(index.offset + i);
    std::vector<Column> cols{Column(index.name, Array::make(DataType::uint32(), h, Buffer(), {values}))};
    for (const auto& c : df.columns()) cols.push_back(c);
    return DataFrame(std::move(cols));
  }

  const plan::IRArena& lp_;
  const plan::ExprArena& ea_;
  ExecOptions opts_;
  std::vector<bool> unordered_;  // plan nodes whose row order nobody observes
  std::unordered_map<uint32_t, OperatorRef> key_filters_;  // group-by node -> input filter
  std::unordered_map<uint64_t, DataFrame> caches_;
};

}  // namespace

DataFrame execute_plan(Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const ExecOptions& options) {
  Executor ex(root, lp_arena, expr_arena, options);
  return ex.run(root);
}

void execute_plan_into(Node root, const plan::IRArena& lp_arena, const plan::ExprArena& expr_arena,
                       const std::function<void(const DataFrame&)>& consume, const ExecOptions& options) {
  Executor ex(root, lp_arena, expr_arena, options);
  ex.stream(root, consume);
}

}  // namespace frazil::exec
