#include "frazil/exec/spill/grace_join.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <tuple>

#include "frazil/compute/selection.hpp"
#include "frazil/core/error.hpp"
#include "frazil/exec/query_observer.hpp"

namespace frazil::exec::spill {

namespace {

// Partitions a pair too big to join splits into, and how often it may split (rows of one
// key cannot be split: after kMaxLevel the pair is joined whatever its size, and the limit
// decides, with a MemoryError naming it).
constexpr size_t kSplitParts = 16;
constexpr int kMaxLevel = 3;

std::pair<std::vector<compute::IdxSize>, std::vector<compute::IdxSize>> split_rows(
    const std::vector<uint64_t>& hashes, const SpillPartitions& parts, const std::vector<bool>& resident) {
  std::vector<compute::IdxSize> in_memory, spilled;
  for (size_t i = 0; i < hashes.size(); ++i)
    (resident[parts.partition_of(hashes[i])] ? in_memory : spilled).push_back(static_cast<compute::IdxSize>(i));
  return {std::move(in_memory), std::move(spilled)};
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
  GraceProbe(std::shared_ptr<GraceJoin> join, OperatorRef resident)
      : join_(std::move(join)), resident_(std::move(resident)) {}
  std::string describe() const override { return "grace join probe"; }

  DataFrame execute(const DataFrame& morsel, physical::ExecState& state) const override {
    const std::vector<uint64_t> hashes = join_->probe_hash_(morsel);
    auto [in_memory, spilled] = split_rows(hashes, *join_->build_, join_->resident_);
    if (!spilled.empty()) {
      const bool all = spilled.size() == hashes.size();
      join_->spill_probe(all ? morsel : compute::take_frame(morsel, spilled), all ? hashes : pick(hashes, spilled));
    }
    if (in_memory.size() == hashes.size()) return resident_->execute(morsel, state);
    return resident_->execute(compute::take_frame(morsel, in_memory), state);
  }

 private:
  std::shared_ptr<GraceJoin> join_;
  OperatorRef resident_;
};

namespace {

// The spilled pairs joined, one probe batch per source batch; a pair's table is built by
// the first of its batches asked for and dropped with the last.
class PairSource final : public MorselSource {
 public:
  struct Pair {
    std::shared_ptr<SpillPartitions> build, probe;
    size_t part = 0;
    size_t first_batch = 0;
    std::mutex mutex;
    OperatorRef op;
    std::atomic<size_t> remaining{0};
  };

  PairSource(std::vector<std::unique_ptr<Pair>> pairs, GraceJoin::MakeProbe make_probe, Schema build_schema)
      : pairs_(std::move(pairs)), make_probe_(std::move(make_probe)), build_schema_(std::move(build_schema)) {
    for (const auto& p : pairs_) {
      p->first_batch = batches_;
      const size_t n = p->probe->file(p->part)->num_batches();
      p->remaining = n;
      batches_ += n;
      rows_ += p->probe->rows(p->part);
    }
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
        const SpillFile* build = pair.build->file(pair.part);
        pair.op = make_probe_(build ? build->read_all() : DataFrame::empty_with_schema(build_schema_));
      }
      op = pair.op;
    }
    DataFrame rows = pair.probe->file(pair.part)->read_batch(i - pair.first_batch);
    physical::ExecState state;
    DataFrame out = op->execute(rows, state);
    op.reset();
    if (--pair.remaining == 0) {
      std::lock_guard lock(pair.mutex);
      pair.op.reset();
      pair.build->drop(pair.part);
      pair.probe->drop(pair.part);
    }
    return out;
  }

 private:
  std::vector<std::unique_ptr<Pair>> pairs_;
  GraceJoin::MakeProbe make_probe_;
  Schema build_schema_;
  size_t batches_ = 0;
  int64_t rows_ = 0;
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
    build_->append(f, build_hash_(f));
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
  return std::make_shared<GraceProbe>(shared_from_this(), make_probe_(resident));
}

void GraceJoin::spill_probe(const DataFrame& rows, const std::vector<uint64_t>& hashes) {
  std::lock_guard lock(probe_mutex_);
  probe_->append(rows, hashes);
}

SourceRef GraceJoin::tail() {
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
          to->append(batch, (*hash)(batch));
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
  return std::make_shared<PairSource>(std::move(pairs), make_probe_, build_schema_);
}

}  // namespace frazil::exec::spill
