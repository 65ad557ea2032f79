#include "frazil/exec/spill/grace_join.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <tuple>

#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory_reservation.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/core/memory.hpp"
#include "frazil/exec/query_observer.hpp"

namespace frazil::exec::spill {

namespace {

// Partitions a pair too big to join splits into, and how often it may split (rows of one
// key cannot be split: after kMaxLevel the pair is joined whatever its size, and the limit
// decides, with a MemoryError naming it).
constexpr size_t kSplitParts = 16;
constexpr int kMaxLevel = 3;

// The probe rows probed now (resident partitions, null keys) and the rows spilled.
std::pair<std::vector<compute::IdxSize>, std::vector<compute::IdxSize>> split_rows(
    const GraceJoin::KeyHashes& keys, const SpillPartitions& parts, const std::vector<bool>& resident) {
  std::vector<compute::IdxSize> in_memory, spilled;
  const bool nulls = !keys.null_key.empty();
  for (size_t i = 0; i < keys.hashes.size(); ++i) {
    const bool now = (nulls && keys.null_key[i]) || resident[parts.partition_of(keys.hashes[i])];
    (now ? in_memory : spilled).push_back(static_cast<compute::IdxSize>(i));
  }
  return {std::move(in_memory), std::move(spilled)};
}

// The rows of `df` whose key is not null, with their hashes.
std::pair<DataFrame, std::vector<uint64_t>> without_null_keys(const DataFrame& df, GraceJoin::KeyHashes keys) {
  if (keys.null_key.empty()) return {df, std::move(keys.hashes)};
  std::vector<compute::IdxSize> keep;
  for (size_t i = 0; i < keys.hashes.size(); ++i)
    if (!keys.null_key[i]) keep.push_back(static_cast<compute::IdxSize>(i));
  if (keep.size() == keys.hashes.size()) return {df, std::move(keys.hashes)};
  std::vector<uint64_t> hashes(keep.size());
  for (size_t i = 0; i < keep.size(); ++i) hashes[i] = keys.hashes[keep[i]];
  return {compute::take_frame(df, keep), std::move(hashes)};
}

std::vector<uint64_t> pick(const std::vector<uint64_t>& v, const std::vector<compute::IdxSize>& idx) {
  std::vector<uint64_t> out(idx.size());
  for (size_t i = 0; i < idx.size(); ++i) out[i] = v[idx[i]];
  return out;
}

}  // namespace

// The probe side's stream: rows of resident partitions are probed now, the others spilled.
class GraceProbe final : public Operator {
 public:
  explicit GraceProbe(std::shared_ptr<GraceJoin> join) : join_(std::move(join)) {}
  std::string describe() const override { return "grace join probe"; }

  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override {
    const GraceJoin::KeyHashes keys = join_->probe_hash_(morsel);
    const std::vector<uint64_t>& hashes = keys.hashes;
    auto [in_memory, spilled] = split_rows(keys, *join_->build_, join_->resident_);
    if (!spilled.empty()) {
      const bool all = spilled.size() == hashes.size();
      join_->spill_probe(all ? morsel : compute::take_frame(morsel, spilled), all ? hashes : pick(hashes, spilled));
    }
    const Operator& resident = *join_->resident_probe_;
    if (in_memory.size() == hashes.size()) return resident.execute(morsel, state);
    return resident.execute(compute::take_frame(morsel, in_memory), state);
  }

 private:
  std::shared_ptr<GraceJoin> join_;
};

namespace {

// The spilled pairs joined: a source batch is a run of one pair's probe batches of about
// `batch_rows` rows together; a pair's table is built by the first of its batches asked for
// and dropped with the last.
class PairSource final : public MorselSource {
 public:
  struct Pair {
    std::shared_ptr<SpillPartitions> build, probe;
    size_t part = 0;
    size_t first_batch = 0;  // of this source
    size_t batches = 0;      // of this source
    std::mutex mutex;
    OperatorRef op;
    std::atomic<size_t> remaining{0};
    int64_t cost = 0;     // its build rows and their table
    int64_t lent = 0;     // what room_ gave up for it
  };

  PairSource(std::vector<std::unique_ptr<Pair>> pairs, GraceJoin::MakeProbe make_probe, Schema build_schema,
             int64_t batch_rows, int64_t table_bytes_per_row)
      : pairs_(std::move(pairs)), make_probe_(std::move(make_probe)), build_schema_(std::move(build_schema)) {
    int64_t biggest = 0;
    for (const auto& p : pairs_) {
      p->cost = p->build->bytes(p->part) + p->build->rows(p->part) * table_bytes_per_row;
      biggest = std::max(biggest, p->cost);
      const int64_t rows = p->probe->rows(p->part);
      const size_t file_batches = p->probe->file(p->part)->num_batches();
      p->first_batch = batches_;
      p->batches = std::clamp<size_t>(static_cast<size_t>((rows + batch_rows - 1) / std::max<int64_t>(batch_rows, 1)),
                                      1, std::max<size_t>(file_batches, 1));
      p->remaining = p->batches;
      batches_ += p->batches;
      rows_ += rows;
    }
    // Room for the pairs being joined (one per thread), held while the tail runs so that
    // the operators downstream (a group-by that keeps its state until the limit) leave it:
    // each pair gives its share back while its table lives and takes it again after.
    // Without the room it goes on anyway: then the limit decides.
    const int64_t want = biggest * static_cast<int64_t>(std::min(thread_pool_size(), std::max<size_t>(batches_, 1)));
    room_.try_grow(want);
  }
  std::string describe() const override { return "grace join: the spilled partition pairs"; }
  bool reports_batches() const override { return false; }
  size_t num_batches() const override { return batches_; }
  int64_t total_rows() const override { return rows_; }

  DataFrame batch(size_t i) const override {
    auto it = std::upper_bound(pairs_.begin(), pairs_.end(), i,
                               [](size_t b, const std::unique_ptr<Pair>& p) { return b < p->first_batch; });
    Pair& pair = **(it - 1);
    OperatorRef op;
    {
      std::lock_guard lock(pair.mutex);
      if (!pair.op) {
        {
          std::lock_guard room_lock(room_mutex_);
          pair.lent = std::min(pair.cost, room_.bytes());
          room_.shrink(pair.lent);
        }
        const SpillFile* build = pair.build->file(pair.part);
        pair.op = make_probe_(build ? build->read_all() : DataFrame::empty_with_schema(build_schema_));
      }
      op = pair.op;
    }
    const SpillFile& file = *pair.probe->file(pair.part);
    const size_t j = i - pair.first_batch, n = file.num_batches();
    std::vector<DataFrame> rows;
    for (size_t b = j * n / pair.batches; b < (j + 1) * n / pair.batches; ++b) rows.push_back(file.read_batch(b));
    physical::ExecState state;
    DataFrame out = op->execute(concat_frames(rows), state);
    rows.clear();
    op.reset();
    if (--pair.remaining == 0) {
      std::lock_guard lock(pair.mutex);
      pair.op.reset();
      pair.build->drop(pair.part);
      pair.probe->drop(pair.part);
      std::lock_guard room_lock(room_mutex_);
      room_.try_grow(pair.lent);
    }
    return out;
  }

 private:
  std::vector<std::unique_ptr<Pair>> pairs_;
  GraceJoin::MakeProbe make_probe_;
  Schema build_schema_;
  size_t batches_ = 0;
  int64_t rows_ = 0;
  mutable std::mutex room_mutex_;
  mutable MemoryReservation room_{"the grace join's partition pairs"};
};

}  // namespace

GraceJoin::GraceJoin(Options options, HashKeys build_hash, HashKeys probe_hash, MakeProbe make_probe,
                     Schema build_schema)
    : options_(options),
      build_hash_(std::move(build_hash)),
      probe_hash_(std::move(probe_hash)),
      make_probe_(std::move(make_probe)),
      build_schema_(std::move(build_schema)),
      build_(std::make_shared<SpillPartitions>("join-build", options.parts)),
      probe_(std::make_shared<SpillPartitions>("join-probe", options.parts)),
      resident_(options.parts, false) {}

GraceJoin::~GraceJoin() = default;

void GraceJoin::spill_build(const std::vector<DataFrame>& frames) {
  for (const DataFrame& f : frames) {
    if (f.height() == 0) continue;
    auto [rows, hashes] = without_null_keys(f, build_hash_(f));
    null_key_rows_ += f.height() - rows.height();
    build_->append(rows.rechunk(), hashes);  // one chunk a column: a record batch each
    build_rows_ += f.height();
  }
}

OperatorRef GraceJoin::start_probe(int64_t resident_budget) {
  build_->finish();
  // The smallest partitions first: the most of them in memory for the budget.
  std::vector<size_t> order(build_->parts());
  for (size_t p = 0; p < order.size(); ++p) order[p] = p;
  auto cost = [&](size_t p) { return build_->bytes(p) + build_->rows(p) * options_.table_bytes_per_row; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return cost(a) < cost(b); });
  std::vector<DataFrame> rows;
  int64_t used = 0;
  for (size_t p : order) {
    if (used + cost(p) > resident_budget) break;
    used += cost(p);
    resident_[p] = true;
    ++resident_count_;
    if (build_->file(p)) rows.push_back(build_->file(p)->read_all());
    build_->drop(p);
  }
  DataFrame resident = rows.empty() ? DataFrame::empty_with_schema(build_schema_) : concat_frames(rows);
  rows.clear();
  resident_probe_ = make_probe_(resident);
  return std::make_shared<GraceProbe>(shared_from_this());
}

void GraceJoin::spill_probe(const DataFrame& rows, const std::vector<uint64_t>& hashes) {
  // One chunk per column: a spill file's record batches end where any chunk ends, and the
  // probe's pieces of a Parquet row group come in a chunk per page.
  const DataFrame one = rows.rechunk();
  std::lock_guard lock(probe_mutex_);
  probe_->append(one, hashes);
}

SourceRef GraceJoin::tail() {
  resident_probe_.reset();  // every probe row has been through it
  probe_->finish();
  std::vector<std::unique_ptr<PairSource::Pair>> pairs;
  // A pair is joined as it is, or split into finer pairs by the next level's hash bits.
  std::function<void(const std::shared_ptr<SpillPartitions>&, const std::shared_ptr<SpillPartitions>&, size_t)> add;
  add = [&](const std::shared_ptr<SpillPartitions>& b, const std::shared_ptr<SpillPartitions>& pr, size_t p) {
    if (!pr->file(p)) {  // no probe rows: inner, left, semi and anti joins emit nothing here
      b->drop(p);
      return;
    }
    const int64_t cost = b->bytes(p) + b->rows(p) * options_.table_bytes_per_row;
    if (b->file(p) && cost > options_.pair_budget && b->level() < kMaxLevel && b->rows(p) > 1) {
      auto fb = std::make_shared<SpillPartitions>("join-build", kSplitParts, b->level() + 1);
      auto fp = std::make_shared<SpillPartitions>("join-probe", kSplitParts, b->level() + 1);
      for (auto [from, to, hash] : {std::tuple{b.get(), fb.get(), &build_hash_}, std::tuple{pr.get(), fp.get(), &probe_hash_}}) {
        const SpillFile& file = *from->file(p);
        for (size_t i = 0; i < file.num_batches(); ++i) {
          DataFrame batch = file.read_batch(i);
          to->append(batch, (*hash)(batch).hashes);  // null keys were never spilled
        }
        from->drop(p);
      }
      fb->finish();
      fp->finish();
      for (size_t q = 0; q < fb->parts(); ++q) add(fb, fp, q);
      return;
    }
    auto pair = std::make_unique<PairSource::Pair>();
    pair->build = b;
    pair->probe = pr;
    pair->part = p;
    pairs.push_back(std::move(pair));
  };
  for (size_t p = 0; p < build_->parts(); ++p)
    if (!resident_[p]) add(build_, probe_, p);
  return std::make_shared<PairSource>(std::move(pairs), make_probe_, build_schema_, options_.tail_batch_rows,
                                      options_.table_bytes_per_row);
}

}  // namespace frazil::exec::spill
