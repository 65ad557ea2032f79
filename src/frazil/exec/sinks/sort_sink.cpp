#include "frazil/exec/sinks/sort_sink.hpp"

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "frazil/compute/row_encoding/row_encoding.hpp"
#include "frazil/compute/selection.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/query_observer.hpp"
#include "frazil/exec/sinks/slice_sink.hpp"
#include "frazil/exec/sources/merged_runs_source.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"
#include "frazil/plan/expr/properties.hpp"
#include "frazil/plan/format.hpp"

namespace frazil::exec {

namespace {

struct KeptRows final : LocalSinkState {
  DataFrame rows;
};

int64_t mib(int64_t bytes) { return bytes / (1024 * 1024); }

// Gives the heap pages freed by sorting a run back to the system. glibc keeps freed heap
// memory (the kernel's std::vector scratch, the writer's buffers) resident: a sort of six
// times a 48 MiB limit peaked 110 MiB above its start with nothing counted in use, and
// 52 MiB once trimmed after every run.
void release_freed_heap() {
#ifdef __GLIBC__
  malloc_trim(0);
#endif
}

// A run's batches take about 1/kRunBatchShare of the limit each.
constexpr int64_t kRunBatchShare = 256;

// Rows per batch so that a batch takes about `bytes` (within sensible bounds).
int64_t rows_for_bytes(int64_t bytes, int64_t bytes_per_row, int64_t most) {
  return std::clamp<int64_t>(bytes / std::max<int64_t>(bytes_per_row, 1), 1024, std::max<int64_t>(most, 1024));
}

}  // namespace

SortSink::SortSink(const plan::SortNode& sort, const plan::ExprArena& ea, const Schema& input_schema)
    : sort_(sort), ea_(ea), input_schema_(input_schema), sort_memory_("sort") {}

std::string SortSink::describe() const {
  std::string s = "sort by [";
  for (size_t i = 0; i < sort_.by.size(); ++i) s += (i ? ", " : "") + plan::format_expr(sort_.by[i], ea_);
  s += "]";
  auto flags = [&](const std::vector<bool>& v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::string(v[i] ? "true" : "false");
    return out + "]";
  };
  s += ", descending " + flags(sort_.options.descending) + ", nulls_last " + flags(sort_.options.nulls_last);
  if (sort_.options.maintain_order) s += ", stable";
  if (sort_.slice) {
    s += "; top-k: rows [" + std::to_string(sort_.slice->first) + ", +" + std::to_string(sort_.slice->second) + ")";
    if (sort_.slice->first >= 0) s += ", the kernel stops after " + std::to_string(sort_.slice->first + sort_.slice->second);
  }
  // Only said under a limit: without one nothing spills.
  if (memory_limit() > 0) {
    const std::string why = cannot_spill();
    s += why.empty() ? "; spills sorted runs to FRAZIL_TEMP_DIRECTORY past the memory limit of " +
                           std::to_string(mib(memory_limit())) + " MiB, merged as they are read"
                     : "; cannot spill (" + why + ")";
  }
  return s;
}

std::string SortSink::cannot_spill() const {
  for (const auto& k : sort_.by)
    if (!plan::is_elementwise_rec(k.node(), ea_)) return "a key reads across rows, so the input cannot be sorted in runs";
  return "";
}

size_t SortSink::wave() const {
  // Without a limit every batch at once; under one a few at a time, so the kept rows are
  // counted (and spilled) before more input is read.
  if (memory_limit() <= 0) return 0;
  return std::max<size_t>(2, thread_pool_size());
}

std::unique_ptr<LocalSinkState> SortSink::make_local() const { return std::make_unique<KeptRows>(); }

void SortSink::sink(DataFrame rows, LocalSinkState& local, physical::ExecState&) const {
  if (memory_limit() > 0) wave_bytes_in_ += frame_bytes(rows);
  static_cast<KeptRows&>(local).rows = std::move(rows);
}

void SortSink::combine(LocalSinkState& local) {
  DataFrame rows = std::move(static_cast<KeptRows&>(local).rows);
  const bool limited = memory_limit() > 0;
  const int64_t bytes = limited ? frame_bytes(rows) : 0;
  const int64_t height = rows.height();
  kept_.push_back(std::move(rows));
  if (!limited) return;
  kept_bytes_ += bytes;
  if (const int64_t in = wave_bytes_in_.exchange(0)) {  // the first combine of a wave
    last_wave_bytes_ = in + wave_bytes_out_;
    wave_bytes_out_ = 0;
  }
  wave_bytes_out_ += bytes;
  // Sorting the kept rows makes a sorted copy of them, and a run also row-encodes their keys
  // (key_ratio_ of the rows' bytes, measured on the input); the in-memory sort is sized the
  // same, so it may spill a little early. The next wave reads about what this one read and made.
  if (!key_ratio_measured_) measure_key_ratio(kept_.back());
  // The kernel sorts (key, row) pairs in std::vector scratch, twice over for a radix sort:
  // not counted by the buffers, so counted here.
  const auto scratch = static_cast<int64_t>(2 * (4 + 8 * sort_.by.size())) * height;
  const auto needs = static_cast<int64_t>(static_cast<double>(bytes) * (1.0 + key_ratio_)) + scratch;
  const int64_t headroom = 2 * std::max(last_wave_bytes_, wave_bytes_out_);
  if (sort_memory_.try_grow(needs + headroom)) {
    sort_memory_.shrink(headroom);
    return;
  }
  if (const std::string why = cannot_spill(); !why.empty()) {
    MemoryReservation refused("sort (" + why + ", so it cannot spill)");
    refused.grow(bytes + headroom);  // throws the MemoryError naming the limit
  }
  spill_kept();
}

void SortSink::measure_key_ratio(const DataFrame& sample) {
  if (sample.height() == 0 || !cannot_spill().empty()) return;
  const DataFrame rows = sample.rechunk();
  const std::vector<ArrayRef> keys = sort_keys(rows);
  for (const auto& k : keys)
    if (!compute::row_encodable(k->dtype())) return;
  const ArrayRef encoded = compute::row_encode(keys, {});
  const int64_t row_bytes = frame_bytes(rows);
  if (row_bytes > 0)
    key_ratio_ = static_cast<double>(frame_bytes(DataFrame({Column(spill::kRunKeyColumn, encoded)}))) /
                 static_cast<double>(row_bytes);
  key_ratio_measured_ = true;
}

std::vector<ArrayRef> SortSink::sort_keys(const DataFrame& df) const {
  physical::ExecState state;
  std::vector<ArrayRef> keys;
  for (const auto& k : physical::create_physical_exprs(sort_.by, ea_, input_schema_))
    keys.push_back(physical::broadcast_to(k->evaluate(df, state), df.height()).as_array());
  return keys;
}

compute::SortOptions SortSink::sort_options() const {
  compute::SortOptions opts;
  opts.descending = sort_.options.descending;
  opts.nulls_last = sort_.options.nulls_last;
  opts.stable = sort_.options.maintain_order;
  if (sort_.slice && sort_.slice->first >= 0) opts.limit = sort_.slice->first + sort_.slice->second;
  return opts;
}

void SortSink::spill_kept() {
  sort_memory_.release();  // the buffers made below are counted as they are made
  DataFrame df = concat_frames(kept_);
  kept_.clear();
  kept_bytes_ = 0;
  if (df.height() == 0) return;
  df = std::move(df).rechunk();
  std::vector<compute::IdxSize> order;
  std::vector<compute::RowEncodingField> fields;
  {
    const std::vector<ArrayRef> keys = sort_keys(df);
    const auto flag = [](const std::vector<bool>& v, size_t i) { return !v.empty() && v[std::min(i, v.size() - 1)]; };
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!compute::row_encodable(keys[i]->dtype())) {
        MemoryReservation refused("sort (a key of type " + keys[i]->dtype().to_string() +
                                  " has no row encoding, so it cannot spill)");
        refused.grow(memory_limit() + 1);  // throws the MemoryError naming the limit
      }
      fields.push_back({flag(sort_.options.descending, i), flag(sort_.options.nulls_last, i)});
    }
    order = compute::arg_sort(keys, sort_options());
  }
  // Gathered column by column, each original going as its copy is made, so that only one
  // column is held twice at a time.
  std::vector<Column> cols = df.columns();
  df = DataFrame();
  for (Column& c : cols) {
    ArrayRef taken = compute::take(*c.as_array(), order);
    c = Column(c.name(), std::move(taken));
  }
  order = {};
  DataFrame sorted(std::move(cols));
  // The keys of the sorted rows (evaluated again: they are row by row), row-encoded.
  ArrayRef encoded = compute::row_encode(sort_keys(sorted), fields);
  const int64_t row_bytes = frame_bytes(sorted);
  sorted = sorted.with_column(Column(spill::kRunKeyColumn, std::move(encoded)));
  if (row_bytes > 0) key_ratio_ = static_cast<double>(frame_bytes(sorted) - row_bytes) / static_cast<double>(row_bytes);
  // Batches of about 1/256 of the limit: a merge of 16 runs reads 1/16 of it, and makes
  // output batches of 1/64, so that the merge fits in the headroom a consumer that also
  // holds state (a group-by) leaves for its input.
  const int64_t per_row = frame_bytes(sorted) / std::max<int64_t>(sorted.height(), 1);
  const int64_t batch_rows = rows_for_bytes(memory_limit() / kRunBatchShare, per_row, 64 * 1024);
  const int64_t out_rows = rows_for_bytes(memory_limit() / 64, per_row, 100'000);
  if (!runs_) runs_ = std::make_shared<spill::SortedRuns>();
  runs_->add(sorted, batch_rows);
  sorted = DataFrame();
  release_freed_heap();
  run_batch_rows_ = std::max(run_batch_rows_, batch_rows);
  output_batch_rows_ = output_batch_rows_ ? std::min(output_batch_rows_, out_rows) : out_rows;
}

void SortSink::finalize() {
  if (runs_) {
    spill_kept();  // the rest is the last run
    // A merge reads one batch of each run: at most 1/16 of the limit.
    const auto fan_in = static_cast<size_t>(kRunBatchShare / 16);
    runs_->reduce(fan_in, run_batch_rows_);
    return;
  }
  sort_memory_.release();
  std::vector<DataFrame> kept = std::move(kept_);
  kept_.clear();
  DataFrame df = concat_frames(kept).rechunk();
  kept.clear();
  const std::vector<ArrayRef> keys = sort_keys(df);
  DataFrame sorted = compute::take_frame(df, compute::arg_sort(keys, sort_options()));
  output_ = sort_.slice ? slice_rows(sorted, sort_.slice->first, sort_.slice->second) : std::move(sorted);
  output_made_ = true;
}

int64_t SortSink::output_offset() const {
  return sort_.slice ? slice_window(runs_->rows(), sort_.slice->first, sort_.slice->second).start : 0;
}

int64_t SortSink::output_rows() const {
  if (!runs_ || output_made_) return output_.height();
  return sort_.slice ? slice_window(runs_->rows(), sort_.slice->first, sort_.slice->second).count : runs_->rows();
}

SourceRef SortSink::output_stream() {
  if (!runs_) return nullptr;
  // Two batches at a time: the one being made and the one a second worker waits for.
  return std::make_shared<MergedRunsSource>(runs_, output_offset(), output_rows(), output_batch_rows_, 2);
}

DataFrame SortSink::output() {
  if (output_made_ || !runs_) return output_;
  // A reader that takes the output whole (the query's result, a join's build side).
  SourceRef stream = output_stream();
  stream->open();
  std::vector<DataFrame> parts;
  for (size_t i = 0; i < stream->num_batches(); ++i) parts.push_back(stream->batch(i));
  output_ = parts.empty() ? DataFrame::empty_with_schema(input_schema_) : concat_frames(parts);
  output_made_ = true;
  return output_;
}

void SortSink::release() {
  output_ = DataFrame();
  runs_.reset();  // the files go once no stream reads them
}

}  // namespace frazil::exec
