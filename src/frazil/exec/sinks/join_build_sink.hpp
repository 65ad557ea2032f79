// The build side of a probe-left-streams join: gathers the right side's rows and, at
// finalize, builds the hash table on its keys (a semi or anti join keeps the keys only).
// The JoinProbe operators of the next pipeline probe it.
//
// Under a memory limit the sink reserves what its finalize needs beside the rows it keeps
// (the table, a copy into one chunk); when the reservation cannot grow it becomes a grace
// hash join (exec/spill/grace_join): the rows go by key hash to spill files, the partitions
// that fit are built in memory at finalize, and the probe side's rows of the others are
// spilled too and joined pair by pair in the probe's tail. That output is not in the left
// side's order, so only a join whose output order nobody observes spills; another raises
// MemoryError naming the limit and why.
#pragma once

#include <atomic>
#include <memory>
#include <vector>

#include "frazil/core/memory_reservation.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/exec/sinks/sink.hpp"
#include "frazil/exec/spill/grace_join.hpp"
#include "frazil/plan/ir.hpp"

namespace frazil::exec {

class JoinBuildSink final : public Sink {
 public:
  // `output_unordered`: nobody observes the join's output order (plan/row_order), so it
  // may spill.
  JoinBuildSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                const Schema& right_schema, bool output_unordered = false);
  ~JoinBuildSink() override;
  std::string describe() const override;
  void start(const PipelineStart& info) override;
  size_t wave() const override;
  std::unique_ptr<LocalSinkState> make_local() const override;
  void sink(DataFrame rows, LocalSinkState& local, physical::ExecState& state) const override;
  void combine(LocalSinkState& local) override;
  void finalize() override;
  DataFrame output() override { return DataFrame(); }
  int64_t output_rows() const override { return rows_; }
  void release() override;

  // The probe of the built table, shared by every morsel of the probing pipeline.
  const OperatorRef& probe() const { return probe_; }
  // When the build side spilled: the joined rows of the spilled partition pairs, to run
  // once the probe side has gone through probe(); nullptr otherwise.
  SourceRef spilled_tail() const;
  bool spilled() const { return grace_ != nullptr; }

 private:
  std::string cannot_spill() const;
  void spill_kept();

  const plan::IR& join_;
  const plan::ExprArena& ea_;
  Schema left_schema_, right_schema_;
  bool output_unordered_;
  OperatorRef probe_;
  int64_t rows_ = 0;
  int64_t source_rows_ = 0;
  int64_t morsel_size_ = 100'000;
  std::vector<DataFrame> kept_;
  int64_t kept_bytes_ = 0, kept_rows_ = 0;
  int64_t max_batch_bytes_ = 0;
  MemoryReservation finalize_memory_{"join build"};
  std::shared_ptr<spill::GraceJoin> grace_;
};

}  // namespace frazil::exec
