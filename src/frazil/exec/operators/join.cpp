#include "frazil/exec/operators/join.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>

#include "frazil/compute/boolean.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/compute/hash.hpp"
#include "frazil/compute/join.hpp"
#include "frazil/compute/join_table.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/memory_reservation.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/exec/pipeline/morsels.hpp"
#include "frazil/exec/operators/operators.hpp"
#include "frazil/physical/expressions/expressions.hpp"
#include "frazil/physical/planner.hpp"

namespace frazil::exec {

namespace {

using compute::IdxSize;
using compute::JoinType;
using compute::kNoId;
using compute::kNullIdx;

// How the gathered left and right columns become the output: coalesced key columns are
// dropped (or, for full joins, merged), then every column gets its planned name.
class OutputLayout {
 public:
  OutputLayout(const plan::IR& ir, const plan::ExprArena& ea) : ir_(ir) {
    const JoinType how = ir.as<plan::JoinNode>().options.how;
    if (!ir.as<plan::JoinNode>().options.coalesce || how == JoinType::Cross) return;
    auto key_column_name = [&](const plan::ExprIR& e) -> std::optional<std::string> {
      plan::Node n = e.node();
      while (ea.get(n).kind == plan::AExprKind::Cast) n = ea.get(n).inputs[0];
      if (ea.get(n).kind == plan::AExprKind::Column) return ea.get(n).name;
      return std::nullopt;
    };
    for (size_t i = 0; i < ir.as<plan::JoinNode>().left_on.size(); ++i) {
      auto ln = key_column_name(ir.as<plan::JoinNode>().left_on[i]);
      auto rn = key_column_name(ir.as<plan::JoinNode>().right_on[i]);
      if (how == JoinType::Right) {
        if (ln) drop_left_.push_back(*ln);
      } else if (rn) {
        drop_right_.push_back(*rn);
        if (how == JoinType::Full && ln) full_coalesce_[*ln] = *rn;
      }
    }
  }

  DataFrame assemble(const DataFrame& lt, const DataFrame& rt, int64_t height) const {
    auto contains = [](const std::vector<std::string>& v, const std::string& s) {
      return std::find(v.begin(), v.end(), s) != v.end();
    };
    std::vector<Column> cols;
    for (const auto& c : lt.columns()) {
      if (contains(drop_left_, c.name())) continue;
      auto fc = full_coalesce_.find(c.name());
      if (fc != full_coalesce_.end()) {
        // Keys of two dtypes were joined as their supertype, the merged column's dtype.
        const DataType& to = ir_.schema->field(cols.size()).dtype;
        ArrayRef l = c.as_array(), r = rt.column(fc->second).as_array();
        if (l->dtype() != to) l = compute::cast(*l, to);
        if (r->dtype() != to) r = compute::cast(*r, to);
        cols.emplace_back(c.name(), compute::fill_null(*l, *r));
      } else {
        cols.push_back(c);
      }
    }
    for (const auto& c : rt.columns())
      if (!contains(drop_right_, c.name())) cols.push_back(c);
    FRAZIL_CHECK_EQ(cols.size(), ir_.schema->size());
    for (size_t i = 0; i < cols.size(); ++i) cols[i] = cols[i].rename(ir_.schema->field(i).name);
    if (cols.empty()) return DataFrame::empty_with_height(height);
    return DataFrame(std::move(cols));
  }

 private:
  const plan::IR& ir_;
  std::vector<std::string> drop_left_, drop_right_;
  std::map<std::string, std::string> full_coalesce_;  // left key -> right key
};

// The key expressions of one side, evaluated on any frame of that side.
class JoinKeys {
 public:
  JoinKeys(const std::vector<plan::ExprIR>& exprs, const plan::ExprArena& ea, const Schema& schema)
      : exprs_(physical::create_physical_exprs(exprs, ea, schema)) {
    for (const auto& e : exprs) row_local_ = row_local_ && plan::is_elementwise_rec(e.node(), ea);
  }
  std::vector<ArrayRef> evaluate(const DataFrame& df) const {
    physical::ExecState state;
    std::vector<ArrayRef> out;
    for (const auto& k : exprs_) out.push_back(physical::broadcast_to(k->evaluate(df, state), df.height()).as_array());
    return out;
  }
  // Whether the keys can be computed morsel by morsel.
  bool row_local() const { return row_local_; }

 private:
  std::vector<physical::PhysicalExprRef> exprs_;
  bool row_local_ = true;
};

// Gathers rows of `df` (one chunk per column) by index, range by range on every core.
DataFrame parallel_take(const DataFrame& df, const std::vector<IdxSize>& idx, int64_t morsel_size) {
  const int64_t n = static_cast<int64_t>(idx.size());
  if (n <= morsel_size) return compute::take_frame(df, idx);
  const size_t parts = static_cast<size_t>((n + morsel_size - 1) / morsel_size);
  std::vector<DataFrame> out(parts);
  parallel_for(parts, [&](size_t p) {
    const int64_t lo = static_cast<int64_t>(p) * morsel_size, hi = std::min(n, lo + morsel_size);
    out[p] = compute::take_frame(df, std::vector<IdxSize>(idx.begin() + lo, idx.begin() + hi));
  });
  return concat_frames(out);
}

// The whole join in one piece on one core: full joins, cross joins, and keys that are not
// row-local.
DataFrame join_whole(const plan::IR& ir, const DataFrame& left_in, const DataFrame& right_in,
                     const JoinKeys& lkeys, const JoinKeys& rkeys, const OutputLayout& layout,
                     int64_t morsel_size) {
  const DataFrame left = left_in.rechunk(), right = right_in.rechunk();
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  compute::JoinIndices idx = how == JoinType::Cross
                                 ? compute::cross_join(left.height(), right.height())
                                 : compute::hash_join(lkeys.evaluate(left), rkeys.evaluate(right), how);
  const int64_t n = static_cast<int64_t>(idx.left_index.size());
  // The row pairs (std::vectors) counted while the output is gathered by them.
  MemoryReservation counted("the join's row pairs");
  counted.grow(static_cast<int64_t>((idx.left_index.size() + idx.right_index.size()) * sizeof(IdxSize)));
  if (how == JoinType::Semi || how == JoinType::Anti) return compute::take_frame(left, idx.left_index);
  return layout.assemble(parallel_take(left, idx.left_index, morsel_size),
                         parallel_take(right, idx.right_index, morsel_size), n);
}


// The output of a join led by its build side: every build row in order, each with its
// matches in probe order (or once with nulls, for `keep_lead`). `matched` holds the probe
// rows that matched, in probe order, morsel after morsel; compact_ids[m] are the key ids
// of morsel m's rows in it. Pairs are placed by a counting sort over the build rows.
DataFrame build_led_output(const compute::JoinTable& table, const DataFrame& build, const DataFrame& matched,
                           const std::vector<std::vector<uint32_t>>& compact_ids, bool keep_lead, bool build_left,
                           const OutputLayout& layout, int64_t morsel_size) {
  const uint32_t nk = table.num_ids();
  const size_t nm = compact_ids.size();
  std::vector<size_t> base(nm + 1, 0);  // where each morsel's matches start in `matched`
  for (size_t m = 0; m < nm; ++m) base[m + 1] = base[m] + compact_ids[m].size();
  const auto& bids = table.build_ids();
  const int64_t nb = build.height();
  // rank[m][id]: how many matches of key id the morsels before m have, so that morsel m
  // can place its own pairs without looking at the others (all morsels in parallel).
  // With too many (morsel, id) pairs for that table, one pass places everything.
  const bool by_morsel = nm > 1 && static_cast<uint64_t>(nm) * nk <= (uint64_t{1} << 25);
  // These index vectors are std::vectors (parallel_take and take_frame take them): counted
  // against the memory limit here, for as long as they live.
  MemoryReservation counted("the join's output placement");
  counted.grow(static_cast<int64_t>(((by_morsel ? nm : 1) + 1) * nk * sizeof(IdxSize) + (nb + 1) * sizeof(size_t)));
  std::vector<std::vector<IdxSize>> rank(by_morsel ? nm : 1, std::vector<IdxSize>(nk, 0));
  std::vector<IdxSize> matches_per_id(static_cast<size_t>(nk), 0);
  if (by_morsel) {
    parallel_for(nm, [&](size_t m) {
      for (uint32_t id : compact_ids[m]) ++rank[m][id];
    });
    for (uint32_t id = 0; id < nk; ++id)
      for (size_t m = 0; m < nm; ++m) {
        const IdxSize c = rank[m][id];
        rank[m][id] = matches_per_id[id];
        matches_per_id[id] += c;
      }
  } else {
    for (const auto& v : compact_ids)
      for (uint32_t id : v) ++matches_per_id[id];
  }
  std::vector<size_t> pos(static_cast<size_t>(nb) + 1, 0);
  for (int64_t b = 0; b < nb; ++b) {
    const size_t c = bids[b] == kNoId ? 0 : matches_per_id[bids[b]];
    pos[b + 1] = pos[b] + (c == 0 ? keep_lead : c);
  }
  const size_t total = pos[nb];
  counted.grow(static_cast<int64_t>(2 * total * sizeof(IdxSize)));
  std::vector<IdxSize> build_idx(total), probe_idx(total);
  if (keep_lead)
    for (int64_t b = 0; b < nb; ++b)
      if (bids[b] == kNoId || matches_per_id[bids[b]] == 0) {
        build_idx[pos[b]] = static_cast<IdxSize>(b);
        probe_idx[pos[b]] = kNullIdx;
      }
  // The k-th match (in probe order) of key id goes to pos[b] + k for each build row b of id.
  auto place = [&](size_t m, std::vector<IdxSize>& next) {
    const auto& ids = compact_ids[m];
    for (size_t i = 0; i < ids.size(); ++i) {
      const IdxSize k = next[ids[i]]++;
      for (const IdxSize* r = table.rows_begin(ids[i]); r != table.rows_end(ids[i]); ++r) {
        const size_t at = pos[*r] + k;
        build_idx[at] = *r;
        probe_idx[at] = static_cast<IdxSize>(base[m] + i);
      }
    }
  };
  if (by_morsel) {
    parallel_for(nm, [&](size_t m) { place(m, rank[m]); });
  } else {
    for (size_t m = 0; m < nm; ++m) place(m, rank[0]);
  }
  const int64_t n = static_cast<int64_t>(total);
  DataFrame probe_part = parallel_take(matched, probe_idx, morsel_size);
  DataFrame build_part = parallel_take(build, build_idx, morsel_size);
  return build_left ? layout.assemble(build_part, probe_part, n) : layout.assemble(probe_part, build_part, n);
}

constexpr const char* kKeyIdColumn = "__frazil_join_key_id";

}  // namespace

// Which build keys some probe row matched, marked by probe morsels on any core.
class HitMarks {
 public:
  explicit HitMarks(uint32_t num_ids) : hit_(num_ids) {}
  void mark(uint32_t id) { hit_[id].store(1, std::memory_order_relaxed); }
  bool hit(uint32_t id) const { return id != kNoId && hit_[id].load(std::memory_order_relaxed); }

 private:
  std::vector<std::atomic<uint8_t>> hit_;
};

namespace {

// Per probe morsel: the rows matching a key of the build side's table, with their key ids
// in one more column (for semi/anti joins, the ids alone).
class MatchOperator final : public Operator {
 public:
  MatchOperator(std::shared_ptr<const compute::JoinTable> table, JoinKeys keys, bool ids_only)
      : table_(std::move(table)), keys_(std::move(keys)), ids_only_(ids_only) {}
  std::string describe() const override { return ids_only_ ? "join match (key ids)" : "join match"; }

  DataFrame execute(const DataFrame& morsel, physical::ExecState&) const override {
    const std::vector<uint32_t> ids = table_->probe(keys_.evaluate(morsel));
    std::vector<IdxSize> rows;
    Buffer matched_ids = Buffer::allocate(ids.size() * sizeof(uint32_t));
    uint32_t* out = matched_ids.mutable_as<uint32_t>();
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i] != kNoId) {
        out[rows.size()] = ids[i];
        rows.push_back(static_cast<IdxSize>(i));
      }
    const int64_t n = static_cast<int64_t>(rows.size());
    Column id_column(kKeyIdColumn, Array::make(DataType::uint32(), n, Buffer(), {matched_ids.slice(0, n * sizeof(uint32_t))}));
    if (ids_only_) return DataFrame({id_column});
    std::vector<Column> cols = (rows.size() == ids.size() ? morsel : compute::take_frame(morsel, rows)).columns();
    cols.push_back(std::move(id_column));
    return DataFrame(std::move(cols));
  }

 private:
  std::shared_ptr<const compute::JoinTable> table_;
  JoinKeys keys_;
  bool ids_only_;
};

// The end of a join led by its build side. `matched` is what MatchOperator made of the
// probe morsels, concatenated in order: semi/anti joins keep the build rows with (without)
// a match; the others place the matches behind their build rows (build_led_output).
DataFrame finish_build_led(const compute::JoinTable& table, const DataFrame& build, const DataFrame& matched,
                           JoinType how, bool build_left, const OutputLayout& layout, int64_t morsel_size) {
  // The id column's chunks are the morsels' matches, in order (a copy, counted).
  MemoryReservation ids_counted("the join's matched key ids");
  ids_counted.grow(matched.height() * static_cast<int64_t>(sizeof(uint32_t)));
  std::vector<std::vector<uint32_t>> ids;
  for (const auto& chunk : matched.column(kKeyIdColumn).chunks()) {
    const uint32_t* v = chunk->values<uint32_t>();
    ids.emplace_back(v, v + chunk->length());
  }
  if (how == JoinType::Semi || how == JoinType::Anti) {
    MemoryReservation counted("the join's matched keys");
    counted.grow(static_cast<int64_t>(table.num_ids() + build.height() * sizeof(IdxSize)));
    std::vector<uint8_t> hit(table.num_ids(), 0);
    for (const auto& v : ids)
      for (uint32_t id : v) hit[id] = 1;
    const bool want = how == JoinType::Semi;
    std::vector<IdxSize> keep;
    const auto& bids = table.build_ids();
    for (int64_t b = 0; b < build.height(); ++b)
      if ((bids[b] != kNoId && hit[bids[b]]) == want) keep.push_back(static_cast<IdxSize>(b));
    return parallel_take(build, keep, morsel_size);
  }
  std::vector<std::string> names = matched.names();
  names.pop_back();
  const bool keep_lead = how == JoinType::Left || how == JoinType::Right;
  return build_led_output(table, build, matched.select(names).rechunk(), ids, keep_lead, build_left, layout,
                          morsel_size);
}

// One probe morsel against a built table when the probe side leads the output order
// (inner/left/semi/anti joins probing their left side, right joins their right side):
// each morsel's output rows are complete and in order, so morsels are independent.
class JoinProbeOperator final : public Operator {
 public:
  // `how` is the join as the probe side sees it (an unordered left join led by its build
  // side probes as an inner join); `hits`, when given, records the build keys matched.
  JoinProbeOperator(const plan::IR& ir, const plan::ExprArena& ea, const Schema& probe_schema,
                    DataFrame build, std::shared_ptr<const compute::JoinTable> table, bool build_left,
                    JoinType how, std::shared_ptr<HitMarks> hits = nullptr)
      : layout_(ir, ea),
        probe_keys_(build_left ? ir.as<plan::JoinNode>().right_on : ir.as<plan::JoinNode>().left_on, ea, probe_schema),
        build_(std::move(build)),
        table_(std::move(table)),
        build_left_(build_left),
        how_(how),
        hits_(std::move(hits)) {}
  std::string describe() const override { return build_left_ ? "join probe (left built)" : "join probe (right built)"; }

  DataFrame execute(const DataFrame& morsel, physical::ExecState&) const override {
    const compute::JoinTable& table = *table_;
    const std::vector<uint32_t> ids = table.probe(probe_keys_.evaluate(morsel));
    const int64_t nm = morsel.height();
    if (hits_)
      for (uint32_t id : ids)
        if (id != kNoId) hits_->mark(id);
    if (how_ == JoinType::Semi || how_ == JoinType::Anti) {
      const bool want = how_ == JoinType::Semi;
      std::vector<IdxSize> keep;
      for (int64_t i = 0; i < nm; ++i)
        if ((ids[i] != kNoId) == want) keep.push_back(static_cast<IdxSize>(i));
      return static_cast<int64_t>(keep.size()) == nm ? morsel : compute::take_frame(morsel, keep);
    }
    const bool keep_probe = how_ == JoinType::Left || how_ == JoinType::Right;
    std::vector<IdxSize> probe_idx, build_idx;
    probe_idx.reserve(static_cast<size_t>(nm));
    build_idx.reserve(static_cast<size_t>(nm));
    bool identity = true;  // every probe row once, in order (key/foreign-key joins)
    if (table.unique_keys()) {
      // One build row per key id: the rows of id are at row_of[id], one lookup, not two.
      const IdxSize* row_of = table.num_ids() > 0 ? table.rows_begin(0) : nullptr;
      for (int64_t i = 0; i < nm; ++i) {
        const uint32_t id = ids[i];
        if (id == kNoId) {
          identity = identity && keep_probe;
          if (!keep_probe) continue;
        }
        probe_idx.push_back(static_cast<IdxSize>(i));
        build_idx.push_back(id == kNoId ? kNullIdx : row_of[id]);
      }
    } else {
      for (int64_t i = 0; i < nm; ++i) {
        const uint32_t id = ids[i];
        identity = identity && (id == kNoId ? keep_probe : table.match_count(id) == 1);
        if (id == kNoId) {
          if (keep_probe) {
            probe_idx.push_back(static_cast<IdxSize>(i));
            build_idx.push_back(kNullIdx);
          }
          continue;
        }
        for (const IdxSize* r = table.rows_begin(id); r != table.rows_end(id); ++r) {
          probe_idx.push_back(static_cast<IdxSize>(i));
          build_idx.push_back(*r);
        }
      }
    }
    const int64_t n = static_cast<int64_t>(probe_idx.size());
    DataFrame probe_part = identity ? morsel : compute::take_frame(morsel, probe_idx);
    DataFrame build_part = compute::take_frame(build_, build_idx);
    return build_left_ ? layout_.assemble(build_part, probe_part, n) : layout_.assemble(probe_part, build_part, n);
  }

 private:
  OutputLayout layout_;
  JoinKeys probe_keys_;
  DataFrame build_;
  std::shared_ptr<const compute::JoinTable> table_;
  bool build_left_;
  JoinType how_;
  std::shared_ptr<HitMarks> hits_;
};

}  // namespace

DataFrame execute_join(const plan::IR& ir, const DataFrame& left, const DataFrame& right,
                       const Schema& left_schema, const Schema& right_schema, const plan::ExprArena& ea,
                       int64_t morsel_size) {
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  const OutputLayout layout(ir, ea);
  const JoinKeys lkeys(ir.as<plan::JoinNode>().left_on, ea, left_schema);
  const JoinKeys rkeys(ir.as<plan::JoinNode>().right_on, ea, right_schema);
  if (how == JoinType::Cross || how == JoinType::Full || !lkeys.row_local() || !rkeys.row_local())
    return join_whole(ir, left, right, lkeys, rkeys, layout, morsel_size);

  // Build on the smaller side (ties: the right), as compute::hash_join does; the output
  // order does not depend on the choice. Right joins lead with the right side.
  const bool build_left = left.height() < right.height();
  const DataFrame build = (build_left ? left : right).rechunk();
  const DataFrame& probe = build_left ? right : left;
  const JoinKeys& build_keys = build_left ? lkeys : rkeys;
  const JoinKeys& probe_keys = build_left ? rkeys : lkeys;
  auto table_ref = std::make_shared<const compute::JoinTable>(build_keys.evaluate(build));
  const bool left_leads = how != JoinType::Right;
  const bool probe_leads = left_leads != build_left;
  const std::vector<DataFrame> morsels = split_morsels(probe, morsel_size);
  // Every probe morsel through `op` on every core; the outputs concatenated in order.
  auto probe_all = [&](const Operator& op) {
    std::vector<DataFrame> out(morsels.size());
    parallel_for(morsels.size(), [&](size_t m) {
      physical::ExecState state;
      out[m] = op.execute(morsels[m], state);
    });
    return concat_frames(out);
  };
  // The probe side leads: each probe morsel yields its output rows in order.
  if (probe_leads)
    return probe_all(
        JoinProbeOperator(ir, ea, build_left ? right_schema : left_schema, build, table_ref, build_left, how));
  // The build side leads: its rows come out in order, each with its matches in probe
  // order. The probe morsels keep only their matching rows (compacted in parallel).
  const MatchOperator match(table_ref, probe_keys, how == JoinType::Semi || how == JoinType::Anti);
  return finish_build_led(*table_ref, build, probe_all(match), how, build_left, layout, morsel_size);
}

}  // namespace frazil::exec

namespace frazil::exec {

bool join_streams_left(const plan::IR& ir, const plan::ExprArena& ea) {
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  if (how != JoinType::Inner && how != JoinType::Left && how != JoinType::Semi && how != JoinType::Anti) return false;
  for (const auto* keys : {&ir.as<plan::JoinNode>().left_on, &ir.as<plan::JoinNode>().right_on})
    for (const auto& e : *keys)
      if (!plan::is_elementwise_rec(e.node(), ea)) return false;
  return true;
}

namespace {

// A semi or anti probe against the keys of `build` alone (the side the table is built on,
// left when `build_left`): only the keys matter, so no build rows are kept to gather and
// the table drops its row lists.
OperatorRef membership_probe(const plan::IR& ir, const plan::ExprArena& ea, const DataFrame& build,
                             const Schema& build_schema, const Schema& probe_schema, bool build_left, JoinType how) {
  const JoinKeys build_keys(build_left ? ir.as<plan::JoinNode>().left_on : ir.as<plan::JoinNode>().right_on, ea, build_schema);
  auto table = std::make_shared<compute::JoinTable>(build_keys.evaluate(build));
  table->drop_row_lists();
  return std::make_shared<JoinProbeOperator>(ir, ea, probe_schema, DataFrame(), std::move(table), build_left, how);
}

}  // namespace

OperatorRef make_join_probe(const plan::IR& ir, const DataFrame& right, const Schema& left_schema,
                            const Schema& right_schema, const plan::ExprArena& ea) {
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  if (how == JoinType::Semi || how == JoinType::Anti)
    return membership_probe(ir, ea, right, right_schema, left_schema, false, how);
  DataFrame build = right.rechunk();
  auto table = std::make_shared<const compute::JoinTable>(JoinKeys(ir.as<plan::JoinNode>().right_on, ea, right_schema).evaluate(build));
  return std::make_shared<JoinProbeOperator>(ir, ea, left_schema, std::move(build), std::move(table), false, how);
}

std::function<std::vector<uint64_t>(const DataFrame&, std::vector<uint8_t>& null_key)> join_key_hasher(
    const plan::IR& ir, const plan::ExprArena& ea, bool left, const Schema& schema) {
  const auto& j = ir.as<plan::JoinNode>();
  auto keys = std::make_shared<const JoinKeys>(left ? j.left_on : j.right_on, ea, schema);
  return [keys](const DataFrame& df, std::vector<uint8_t>& null_key) {
    const std::vector<ArrayRef> k = keys->evaluate(df);
    null_key.clear();
    for (const ArrayRef& a : k) {
      if (a->null_count() == 0) continue;
      if (null_key.empty()) null_key.assign(static_cast<size_t>(a->length()), 0);
      for (int64_t i = 0; i < a->length(); ++i) null_key[i] |= a->is_null(i);
    }
    return compute::hash_rows(k);
  };
}

OperatorRef make_right_key_filter(const plan::IR& ir, const DataFrame& left, const Schema& left_schema,
                                  const Schema& right_schema, const plan::ExprArena& ea) {
  return membership_probe(ir, ea, left, left_schema, right_schema, true, JoinType::Semi);
}

LeftBuildJoin::LeftBuildJoin(const plan::IR& ir, DataFrame left, const Schema& left_schema,
                             const Schema& right_schema, const plan::ExprArena& ea, int64_t morsel_size)
    : ir_(ir), ea_(ea), left_(left.rechunk()), morsel_size_(morsel_size) {
  const JoinKeys left_keys(ir.as<plan::JoinNode>().left_on, ea, left_schema);
  table_ = std::make_shared<const compute::JoinTable>(left_keys.evaluate(left_));
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  probe_ = std::make_shared<MatchOperator>(table_, JoinKeys(ir.as<plan::JoinNode>().right_on, ea, right_schema),
                                                how == JoinType::Semi || how == JoinType::Anti);
}

DataFrame LeftBuildJoin::finish(const DataFrame& matched) const {
  return finish_build_led(*table_, left_, matched, ir_.as<plan::JoinNode>().options.how, true, OutputLayout(ir_, ea_), morsel_size_);
}

UnorderedLeftBuildJoin::UnorderedLeftBuildJoin(const plan::IR& ir, DataFrame left, const Schema& left_schema,
                                               const Schema& right_schema, const plan::ExprArena& ea)
    : ir_(ir), ea_(ea), left_(left.rechunk()), right_schema_(right_schema) {
  const JoinType how = ir.as<plan::JoinNode>().options.how;
  FRAZIL_CHECK(how == JoinType::Inner || how == JoinType::Left);
  table_ = std::make_shared<const compute::JoinTable>(JoinKeys(ir.as<plan::JoinNode>().left_on, ea, left_schema).evaluate(left_));
  if (how == JoinType::Left) hits_ = std::make_shared<HitMarks>(table_->num_ids());
  probe_ = std::make_shared<JoinProbeOperator>(ir, ea, right_schema, left_, table_, true, JoinType::Inner, hits_);
}

bool UnorderedLeftBuildJoin::keeps_unmatched() const { return hits_ != nullptr; }

DataFrame UnorderedLeftBuildJoin::unmatched_rows() const {
  FRAZIL_CHECK(hits_);
  std::vector<IdxSize> rows;
  const auto& bids = table_->build_ids();
  for (int64_t b = 0; b < left_.height(); ++b)
    if (!hits_->hit(bids[b])) rows.push_back(static_cast<IdxSize>(b));
  const int64_t n = static_cast<int64_t>(rows.size());
  std::vector<Column> nulls;
  for (const auto& f : right_schema_.fields()) nulls.emplace_back(f.name, make_null_array(f.dtype, n));
  return OutputLayout(ir_, ea_).assemble(compute::take_frame(left_, rows), DataFrame(std::move(nulls)), n);
}

}  // namespace frazil::exec
