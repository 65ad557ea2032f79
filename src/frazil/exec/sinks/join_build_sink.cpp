#include "frazil/exec/sinks/join_build_sink.hpp"

#include <algorithm>

#include "frazil/core/memory.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/operators/join.hpp"
#include "frazil/exec/operators/join_probe.hpp"
#include "frazil/exec/query_observer.hpp"

namespace frazil::exec {

namespace {

struct KeptRows final : LocalSinkState {
  DataFrame rows;
};

// What the table takes per build row beside the rows (key id, row list entry, offsets,
// hash slots and encoded keys), as measured on integer and string keys.
constexpr int64_t kTableBytesPerRow = 48;

int64_t mib(int64_t bytes) { return bytes >> 20; }

}  // namespace

JoinBuildSink::JoinBuildSink(const plan::IR& join, const plan::ExprArena& ea, const Schema& left_schema,
                             const Schema& right_schema, bool output_unordered)
    : join_(join), ea_(ea), left_schema_(left_schema), right_schema_(right_schema),
      output_unordered_(output_unordered) {}

JoinBuildSink::~JoinBuildSink() = default;

std::string JoinBuildSink::describe() const {
  const auto how = join_.as<plan::JoinNode>().options.how;
  const bool keys_only = how == compute::JoinType::Semi || how == compute::JoinType::Anti;
  std::string s = "join build: the right side of the " + join_label(join_, ea_) + ", hash table built at finalize" +
                  (keys_only ? " (keys only)" : "");
  // Only said under a limit: without one nothing spills.
  if (memory_limit() > 0) {
    const std::string why = cannot_spill();
    s += why.empty() ? "; a grace hash join past the memory limit of " + std::to_string(mib(memory_limit())) +
                           " MiB (both sides spill by key hash to FRAZIL_TEMP_DIRECTORY)"
                     : "; cannot spill (" + why + ")";
  }
  return s;
}

std::string JoinBuildSink::cannot_spill() const {
  if (!output_unordered_) return "its output order, the left side's, is observed; a spilled join gives another";
  return "";
}

void JoinBuildSink::start(const PipelineStart& info) {
  source_rows_ = info.source_rows;
  morsel_size_ = info.morsel_size;
}

size_t JoinBuildSink::wave() const {
  // Without a limit every batch at once; under one a few at a time, so the rows kept are
  // counted (and spilled, or refused naming why) before more are read.
  if (memory_limit() <= 0) return 0;
  return std::max<size_t>(2, thread_pool_size());
}

std::unique_ptr<LocalSinkState> JoinBuildSink::make_local() const { return std::make_unique<KeptRows>(); }

void JoinBuildSink::sink(DataFrame rows, LocalSinkState& local, physical::ExecState&) const {
  static_cast<KeptRows&>(local).rows = std::move(rows);
}

void JoinBuildSink::combine(LocalSinkState& local) {
  DataFrame rows = std::move(static_cast<KeptRows&>(local).rows);
  rows_ += rows.height();
  const int64_t limit = memory_limit();
  if (limit <= 0) {
    kept_.push_back(std::move(rows));
    return;
  }
  const int64_t bytes = frame_bytes(rows), height = rows.height();
  kept_.push_back(std::move(rows));
  kept_bytes_ += bytes;
  kept_rows_ += height;
  if (grace_) {
    // Spilling already: the rows go out in pieces of a sixteenth of the limit.
    if (kept_bytes_ > limit / 16) spill_kept();
    return;
  }
  // Finalize copies the rows into one chunk and builds the table on them; the next wave's
  // batches (being decoded, Parquet pages and all: measured at about 3.5 times a batch's
  // bytes each) and the probe side's morsels need room too.
  max_batch_bytes_ = std::max(max_batch_bytes_, bytes);
  const int64_t headroom = std::max(limit / 8, 8 * max_batch_bytes_);
  if (finalize_memory_.try_grow(bytes + height * kTableBytesPerRow + headroom)) {
    finalize_memory_.shrink(headroom);
    return;
  }
  if (const std::string why = cannot_spill(); !why.empty()) {
    MemoryReservation refused("the join build (" + why + ", so it cannot spill)");
    refused.grow(bytes + height * kTableBytesPerRow + headroom);  // throws the MemoryError naming the limit
  }
  // Partitions of about an eighth of the limit each, from the rows kept so far and the
  // share of the source they came from.
  const double share = source_rows_ > rows_ ? static_cast<double>(source_rows_) / static_cast<double>(rows_) : 1.0;
  const double total = static_cast<double>(kept_bytes_ + kept_rows_ * kTableBytesPerRow) * share;
  spill::GraceJoin::Options options;
  options.parts = static_cast<size_t>(std::clamp(8.0 * total / static_cast<double>(limit), 8.0, 256.0));
  // Two pairs may be joined at once (one per thread) beside what is downstream.
  options.pair_budget = limit / 8;
  options.table_bytes_per_row = kTableBytesPerRow;
  options.tail_batch_rows = morsel_size_;
  const Schema ls = left_schema_, rs = right_schema_;
  auto hasher = [](auto hash) {
    return [hash](const DataFrame& df) {
      spill::GraceJoin::KeyHashes k;
      k.hashes = hash(df, k.null_key);
      return k;
    };
  };
  grace_ = std::make_shared<spill::GraceJoin>(
      options, hasher(join_key_hasher(join_, ea_, /*left=*/false, right_schema_)),
      hasher(join_key_hasher(join_, ea_, /*left=*/true, left_schema_)),
      [join = &join_, ea = &ea_, ls, rs](const DataFrame& build) { return make_join_probe(*join, build, ls, rs, *ea); },
      right_schema_);
  spill_kept();
}

void JoinBuildSink::spill_kept() {
  finalize_memory_.release();  // the spill files' buffers count against the limit too
  std::vector<DataFrame> kept = std::move(kept_);
  kept_.clear();
  grace_->spill_build(kept);
  kept_bytes_ = kept_rows_ = 0;
}

void JoinBuildSink::finalize() {
  // What was reserved for this is given back: the table counts its own buffers.
  finalize_memory_.release();
  if (grace_) {
    spill_kept();
    // The partitions that fit a quarter of the limit stay in memory.
    probe_ = grace_->start_probe(memory_limit() / 4);
    return;
  }
  std::vector<DataFrame> kept = std::move(kept_);
  kept_.clear();
  kept_bytes_ = kept_rows_ = 0;
  DataFrame all = concat_frames(kept);
  kept.clear();
  probe_ = make_join_probe(join_, all, left_schema_, right_schema_, ea_);
}

SourceRef JoinBuildSink::spilled_tail() const { return grace_ ? grace_->tail() : nullptr; }

void JoinBuildSink::release() {
  probe_.reset();
  grace_.reset();
  kept_.clear();
  finalize_memory_.release();
}

}  // namespace frazil::exec
