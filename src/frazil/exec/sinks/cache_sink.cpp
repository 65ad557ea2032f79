#include "frazil/exec/sinks/cache_sink.hpp"

#include <algorithm>

#include "frazil/core/memory.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/query_observer.hpp"
#include "frazil/exec/sources/spill_file_source.hpp"

namespace frazil::exec {

namespace {

struct KeptRows final : LocalSinkState {
  DataFrame rows;
};

// Spilled batches take about 1/kBatchShare of the limit: as big as a Parquet row group a
// consumer's headroom is sized for (a group-by counts two batches a wave), small enough
// that a wave of them fits.
constexpr int64_t kBatchShare = 16;

}  // namespace

CacheSink::CacheSink(uint64_t id, size_t consumers, ExecStats* stats)
    : id_(id), consumers_(consumers), stats_(stats), room_("cache " + std::to_string(id)) {}

std::string CacheSink::describe() const {
  std::string s = "cache " + std::to_string(id_) + ", read by " + std::to_string(consumers_) +
                  (consumers_ == 1 ? " consumer" : " consumers");
  if (memory_limit() > 0)
    s += "; spills to FRAZIL_TEMP_DIRECTORY past the memory limit of " + std::to_string(memory_limit() >> 20) +
         " MiB, each consumer streaming it back";
  return s;
}

size_t CacheSink::wave() const {
  if (memory_limit() <= 0) return 0;
  return std::max<size_t>(2, thread_pool_size());
}

std::unique_ptr<LocalSinkState> CacheSink::make_local() const { return std::make_unique<KeptRows>(); }

void CacheSink::sink(DataFrame rows, LocalSinkState& local, physical::ExecState&) const {
  if (memory_limit() > 0) wave_bytes_in_ += frame_bytes(rows);
  static_cast<KeptRows&>(local).rows = std::move(rows);
}

void CacheSink::combine(LocalSinkState& local) {
  DataFrame rows = std::move(static_cast<KeptRows&>(local).rows);
  const int64_t limit = memory_limit();
  const int64_t bytes = limit > 0 ? frame_bytes(rows) : 0;
  kept_.push_back(std::move(rows));
  if (limit <= 0) return;
  kept_bytes_ += bytes;
  if (file_) {
    // Spilling: written in batches of about kBatchShare of the limit (small morsels coalesced).
    if (kept_bytes_ >= limit / kBatchShare) spill_kept();
    return;
  }
  if (const int64_t in = wave_bytes_in_.exchange(0)) {  // the first combine of a wave
    last_wave_bytes_ = in + wave_bytes_out_;
    wave_bytes_out_ = 0;
  }
  wave_bytes_out_ += bytes;
  const int64_t headroom = 2 * std::max(last_wave_bytes_, wave_bytes_out_);
  if (room_.try_grow(bytes + headroom)) {
    room_.shrink(headroom);
    return;
  }
  room_.release();
  spill_kept();
}

void CacheSink::spill_kept() {
  DataFrame rows = concat_frames(kept_);
  kept_.clear();
  kept_bytes_ = 0;
  if (rows.height() == 0) return;
  if (!file_) file_ = std::make_shared<spill::SpillFile>("cache", rows.schema());
  // Batches of about 1/kBatchShare of the limit, however big the kept rows were.
  const int64_t per_row = std::max<int64_t>(frame_bytes(rows) / rows.height(), 1);
  const int64_t batch_rows = std::max<int64_t>(memory_limit() / kBatchShare / per_row, 1024);
  for (int64_t at = 0; at < rows.height(); at += batch_rows)
    file_->write(rows.slice(at, std::min(batch_rows, rows.height() - at)).rechunk());
}

void CacheSink::finalize() {
  if (stats_) ++stats_->cache_computations;
  room_.release();
  if (file_) {
    spill_kept();
    file_->finish();
    return;
  }
  std::vector<DataFrame> kept = std::move(kept_);
  kept_.clear();
  output_ = concat_frames(kept);
}

void CacheSink::count_read() {
  if (stats_ && reads_++ > 0) ++stats_->cache_reuses;
}

DataFrame CacheSink::output() {
  count_read();
  if (file_) return file_->read_all();  // a reader that takes it whole
  return output_;
}

SourceRef CacheSink::output_stream() {
  if (!file_) return nullptr;
  count_read();
  return std::make_shared<SpillFileSource>(file_, "cache " + std::to_string(id_));
}

int64_t CacheSink::output_rows() const { return file_ ? file_->rows() : output_.height(); }

void CacheSink::release() {
  output_ = DataFrame();
  file_.reset();  // the file goes once no stream reads it
}

}  // namespace frazil::exec
