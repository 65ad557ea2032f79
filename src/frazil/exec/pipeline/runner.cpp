#include "frazil/exec/pipeline/runner.hpp"

#include <algorithm>
#include <atomic>

#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/pipeline/morsels.hpp"
#include "frazil/exec/query_observer.hpp"

namespace frazil::exec {

namespace {

class Runner {
 public:
  Runner(PhysicalPlan& plan, const ExecOptions& options)
      : plan_(plan), opts_(options), state_(plan.pipelines.size(), State::Waiting),
        readers_(plan.pipelines.size(), 0) {
    for (const auto& p : plan_.pipelines)
      for (PipelineId r : p.reads) ++readers_[r];
  }

  DataFrame run() {
    ensure(plan_.root);
    return plan_.pipelines[plan_.root].sink->output();
  }

 private:
  enum class State : uint8_t { Waiting, Running, Done };

  void ensure(PipelineId id) {
    if (state_[id] == State::Done) return;
    FRAZIL_CHECK(state_[id] == State::Waiting);  // the plan is a DAG
    state_[id] = State::Running;
    execute(plan_.pipelines[id]);
    state_[id] = State::Done;
  }

  // A pipeline with the node it materializes reported around it: the pipelines it reads
  // run inside, so nodes nest as the plan does.
  void execute(Pipeline& p) {
    QueryObserver* obs = opts_.observer;
    if (obs && p.node) obs->node_started(*p.node, plan_.lp->get(*p.node));
    if (opts_.stats)
      for (plan::Node n : p.runs) ++opts_.stats->runs_by_kind[static_cast<size_t>(plan_.lp->get(n).kind())];
    for (PipelineId d : p.after) ensure(d);
    for (PipelineId d : p.reads) ensure(d);
    run_pipeline(p);
    if (p.finalizes) p.sink->finalize();
    for (PipelineId d : p.reads)
      if (--readers_[d] == 0) plan_.pipelines[d].sink->release();
    // What the pipeline held (its input frames, the tables its probes built on) goes now.
    p.source.reset();
    p.ops.clear();
    if (obs && p.node) obs->node_finished(*p.node, plan_.lp->get(*p.node), p.sink->output_rows());
  }

  void run_pipeline(Pipeline& p) {
    SourceRef source = p.source;
    source->open();
    std::vector<OperatorRef> ops = p.ops;
    size_t first = 0;  // where the pipeline starts after a reroute
    for (size_t k = 0; k < ops.size(); ++k) {
      auto reroute = ops[k]->start(PipelineStart{source->total_rows(), opts_.morsel_size});
      if (!reroute) continue;
      // The operator became a pipeline breaker: run up to it, then go on from its source.
      CollectSink upstream;
      run_segment(source, {ops.begin() + static_cast<std::ptrdiff_t>(first), ops.begin() + static_cast<std::ptrdiff_t>(k)},
                  upstream);
      upstream.finalize();
      auto [next, replacement] = reroute->resume(upstream.output());
      source = std::move(next);
      source->open();
      ops[k] = std::move(replacement);
      FRAZIL_CHECK(!ops[k]->start(PipelineStart{source->total_rows(), opts_.morsel_size}));
      first = k;
    }
    p.sink->start(PipelineStart{source->total_rows(), opts_.morsel_size});
    run_segment(source, {ops.begin() + static_cast<std::ptrdiff_t>(first), ops.end()}, *p.sink);
  }

  // The source's batches through `ops` into `sink`, then each operator's tail through the
  // operators after it.
  void run_segment(const SourceRef& source, const std::vector<OperatorRef>& ops, Sink& sink) {
    QueryObserver* obs = source->reports_batches() ? opts_.observer : nullptr;
    if (obs) obs->pipeline_started(source->num_batches(), source->total_rows());
    const int64_t rows = run_batches(*source, ops, sink, obs);
    if (obs) obs->pipeline_finished(rows);
    for (size_t k = 0; k < ops.size(); ++k) {
      const std::vector<OperatorRef> rest(ops.begin() + static_cast<std::ptrdiff_t>(k) + 1, ops.end());
      if (auto tail = ops[k]->tail()) {
        SourceRef tail_source = frame_source(*tail, opts_.morsel_size);
        run_batches(*tail_source, rest, sink, nullptr);
      }
      if (SourceRef tail_source = ops[k]->tail_source()) {
        tail_source->open();
        run_batches(*tail_source, rest, sink, nullptr);
      }
    }
  }

  // Every batch in parallel, and the morsels of a batch too; each morsel's output goes into
  // a local state of its own, and the local states are combined in source order. Returns the
  // rows that reached the sink.
  int64_t run_batches(const MorselSource& source, const std::vector<OperatorRef>& ops, Sink& sink,
                      QueryObserver* obs) {
    const size_t n = source.num_batches();
    // The smaller of what the sink and the source ask for (0: no bound).
    size_t wave = std::max<size_t>(n, 1);
    if (sink.wave() > 0) wave = std::min(wave, sink.wave());
    if (source.wave() > 0) wave = std::min(wave, source.wave());
    std::atomic<int64_t> rows{0};
    for (size_t first = 0; first < n; first += wave) {
      const size_t count = std::min(wave, n - first);
      run_wave(source, first, count, ops, sink, obs, rows);
    }
    return rows.load();
  }

  // Batches [first, first + count) in parallel, then their local states combined in order.
  void run_wave(const MorselSource& source, size_t first, size_t count, const std::vector<OperatorRef>& ops,
                Sink& sink, QueryObserver* obs, std::atomic<int64_t>& rows) {
    const bool split = !ops.empty() || sink.splits_morsels();
    std::vector<std::vector<std::unique_ptr<LocalSinkState>>> locals(count);
    parallel_for(count, [&](size_t b) {
      DataFrame batch = source.batch(first + b);
      if (obs) obs->batch_done(batch.height(), frame_bytes(batch));
      if (!split) {
        physical::ExecState state;
        rows += batch.height();
        locals[b].push_back(sink.make_local());
        sink.sink(std::move(batch), *locals[b][0], state);
        return;
      }
      const std::vector<DataFrame> morsels = split_morsels(batch, opts_.morsel_size);
      locals[b].resize(morsels.size());
      parallel_for(morsels.size(), [&](size_t m) {
        physical::ExecState state;
        DataFrame out = run_operators(ops, morsels[m], state);
        rows += out.height();
        auto local = sink.make_local();
        sink.sink(std::move(out), *local, state);
        locals[b][m] = std::move(local);
      });
    });
    for (auto& batch : locals)
      for (auto& local : batch) sink.combine(*local);
  }

  PhysicalPlan& plan_;
  const ExecOptions& opts_;
  std::vector<State> state_;
  std::vector<size_t> readers_;  // pipelines yet to run that read each one
};

}  // namespace

DataFrame run_physical_plan(PhysicalPlan& plan, const ExecOptions& options) { return Runner(plan, options).run(); }

}  // namespace frazil::exec
