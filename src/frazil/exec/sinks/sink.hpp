// The end of a pipeline. Every worker sinks the morsels it made into a local state of its
// own (no locks); the local states are then combined into the sink's global state one at a
// time, and once every pipeline feeding the sink has run, finalize() makes its output, which
// the pipelines and operators that read this one use (a finished sink feeds the next
// pipeline: a join's build side is one pipeline's sink and its probe an operator of the next).
//
// A local state belongs to one morsel, and combine() takes them in source order, so a sink
// sees its input in row order whatever the scheduling: collect keeps the rows' order, a
// two-phase group-by keeps first appearance, a left-build join places matches in order.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "frazil/exec/pipeline/pipeline_start.hpp"
#include "frazil/exec/sources/source.hpp"
#include "frazil/physical/physical_expr.hpp"

namespace frazil::exec {

class LocalSinkState {
 public:
  virtual ~LocalSinkState() = default;
};

class Sink {
 public:
  virtual ~Sink() = default;
  // One line for explain(format="physical").
  virtual std::string describe() const = 0;
  // When a pipeline feeding this sink starts: adaptive rules look at the source's size.
  virtual void start(const PipelineStart& info) {}
  // Whether a source batch is cut into morsels for this sink even when the pipeline has no
  // operators (its work per morsel then runs in parallel). Asked after start().
  virtual bool splits_morsels() const { return false; }
  // Source batches taken at a time, each wave combined before the next starts (a sink that
  // passes its rows on keeps few in memory); 0: every batch at once.
  virtual size_t wave() const { return 0; }

  virtual std::unique_ptr<LocalSinkState> make_local() const = 0;
  // Takes one morsel's rows (on any worker, at the same time as other morsels).
  virtual void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const = 0;
  // Folds a local state into the global state: one at a time, in source order.
  virtual void combine(LocalSinkState& local) = 0;
  // After the last combine of every pipeline feeding the sink.
  virtual void finalize() = 0;

  // The finalized output, for the pipelines and operators that read it.
  virtual DataFrame output() = 0;
  // The finalized output as a source of batches made as they are read, for a sink whose
  // output is not held in memory (spilled: a sort's merged runs, a cache's file); nullptr
  // when output() holds it. A pipeline reading the sink streams from it (each call is a new
  // reader); output() still makes the whole frame for readers that take it whole.
  virtual SourceRef output_stream() { return nullptr; }
  virtual int64_t output_rows() const = 0;
  // Once every reader has run: what the sink holds is not needed any more.
  virtual void release() = 0;
};
using SinkRef = std::shared_ptr<Sink>;

// A sink that keeps each morsel's rows (or what per_morsel() makes of them) and hands them
// all, in order, to finish(). Collect, sort, distinct, slice, union and the whole-input
// sinks are one finish() each.
class CollectingSink : public Sink {
 public:
  std::unique_ptr<LocalSinkState> make_local() const override;
  void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const override;
  void combine(LocalSinkState& local) override;
  void finalize() override;
  DataFrame output() override { return output_; }
  int64_t output_rows() const override { return output_.height(); }
  void release() override { output_ = DataFrame(); }

 protected:
  // What a morsel's rows become before they are kept (in parallel); default: themselves.
  virtual DataFrame per_morsel(DataFrame rows, physical::ExecState& state) const { return rows; }
  // The output from everything kept, concatenated in order.
  virtual DataFrame finish(DataFrame all) = 0;

 private:
  std::vector<DataFrame> parts_;
  DataFrame output_;
};

// The rows as they come: the end of a pipeline whose output is a plan node's result.
class CollectSink final : public CollectingSink {
 public:
  explicit CollectSink(std::string what = "collect") : what_(std::move(what)) {}
  std::string describe() const override { return what_; }

 protected:
  DataFrame finish(DataFrame all) override { return all; }

 private:
  std::string what_;
};

}  // namespace frazil::exec
