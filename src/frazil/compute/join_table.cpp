#include "frazil/compute/join_table.hpp"

#include "frazil/core/error.hpp"
#include "frazil/core/thread_pool.hpp"
#include "frazil/core/cancel.hpp"

namespace frazil::compute {

namespace {

constexpr int kBatch = 64;
// Build sides from this many rows are split into hash partitions built in parallel.
constexpr int64_t kPartitionedBuildRows = 1 << 16;
constexpr int kPartitionBits = 4;

// The encoded keys as the pointer type table K expects.
template <typename K>
const K* key_data(const EncodedKeys& e) {
  if constexpr (std::is_same_v<K, uint64_t>) return e.u64.data();
  else if constexpr (std::is_same_v<K, U128Key>) return e.u128.data();
  else return e.bytes.data();
}

template <typename T>
using KeyOf = std::conditional_t<
    std::is_same_v<T, DirectTable> || std::is_same_v<T, InlineKeyTable<uint64_t>>, uint64_t,
    std::conditional_t<std::is_same_v<T, DenseKeyTable<U128Key>>, U128Key, BytesKey>>;

}  // namespace

void check_join_keys(const std::vector<ArrayRef>& left, const std::vector<ArrayRef>& right) {
  if (left.empty() || left.size() != right.size())
    throw InvalidOperationError(err_msg("join needs the same number of key columns on both sides (",
                                        left.size(), " vs ", right.size(), ")"));
  for (size_t k = 0; k < left.size(); ++k)
    if (left[k]->dtype() != right[k]->dtype())
      throw SchemaError(err_msg("datatypes of join keys don't match - `", left[k]->dtype(),
                                "` on left does not match `", right[k]->dtype(), "` on right"));
  for (const auto* side : {&left, &right})
    if ((*side)[0]->length() >= static_cast<int64_t>(kNullIdx))
      throw ComputeError("join: more rows than the 32-bit row index supports");
}

JoinTable::JoinTable(std::vector<ArrayRef> build_keys) : build_keys_(std::move(build_keys)) {
  build_ = encode_keys(build_keys_, NullKeys::Exclude);
  const int64_t nb = build_.length;
  bool direct = false;
  uint64_t lo = 0, hi = 0;
  // A direct table costs 4 bytes per value of the key range, a hash table 16-64 bytes per
  // key: direct indexing wins (one lookup, no hashing) while the range is at most 8 times
  // the build rows, as for TPC-H's order keys (a quarter of their range used).
  if (build_.kind == KeyKind::U64 && u64_key_range(build_, &lo, &hi))
    direct = DirectTable::fits(lo, hi, nb) || (hi - lo < (uint64_t{1} << 28) && hi - lo <= uint64_t(nb) * 8);
  // Big builds are split by the low bits of the key hash (the tables place keys by the
  // high bits) into partitions, each built by its own thread.
  part_bits_ = !direct && nb >= kPartitionedBuildRows && thread_pool_size() > 1 ? kPartitionBits : 0;
  const size_t parts = size_t{1} << part_bits_;
  ScratchVector<int64_t> part_rows;  // rows of partition p: part_rows[part_start[p] .. part_start[p+1])
  std::vector<int64_t> part_start(parts + 1, 0);
  // Every row's id is written below: by the table build, or kNoId for a null key.
  build_ids_.resize(static_cast<size_t>(nb));
  if (parts > 1) {
    // Per stripe of rows: the partition of every row, counted; then the rows are scattered
    // into partition order, each stripe writing its own slots (rows stay ascending).
    const size_t stripes = thread_pool_size() * 4;
    const int64_t stripe_len = (nb + static_cast<int64_t>(stripes) - 1) / static_cast<int64_t>(stripes);
    ScratchVector<uint8_t> part_of(static_cast<size_t>(nb));
    std::vector<std::vector<int64_t>> counts(stripes, std::vector<int64_t>(parts, 0));
    auto hash_of = [&](int64_t i) -> uint64_t {
      switch (build_.kind) {
        case KeyKind::U64: return key_hash(build_.u64[i]);
        case KeyKind::U128: return key_hash(build_.u128[i]);
        default: return key_hash(build_.bytes[i]);
      }
    };
    parallel_for(stripes, [&](size_t s) {
      const int64_t begin = static_cast<int64_t>(s) * stripe_len, end = std::min(nb, begin + stripe_len);
      for (int64_t i = begin; i < end; ++i) {
        if (build_.is_null(i)) {
          part_of[i] = UINT8_MAX;
          build_ids_[i] = kNoId;
          continue;
        }
        part_of[i] = static_cast<uint8_t>(hash_of(i) & (parts - 1));
        ++counts[s][part_of[i]];
      }
    });
    std::vector<std::vector<int64_t>> cursor(stripes, std::vector<int64_t>(parts));
    for (size_t p = 0; p < parts; ++p) {
      part_start[p + 1] = part_start[p];
      for (size_t s = 0; s < stripes; ++s) {
        cursor[s][p] = part_start[p + 1];
        part_start[p + 1] += counts[s][p];
      }
    }
    part_rows.resize(static_cast<size_t>(part_start[parts]));
    parallel_for(stripes, [&](size_t s) {
      const int64_t begin = static_cast<int64_t>(s) * stripe_len, end = std::min(nb, begin + stripe_len);
      for (int64_t i = begin; i < end; ++i)
        if (part_of[i] != UINT8_MAX) part_rows[cursor[s][part_of[i]]++] = i;
    });
  }

  tables_.resize(parts);
  for (auto& t : tables_) {
    const size_t expected = static_cast<size_t>(parts > 1 ? nb / static_cast<int64_t>(parts) + 1 : nb);
    switch (build_.kind) {
      case KeyKind::U64:
        if (direct) t.emplace<DirectTable>(lo, hi);
        else t.emplace<InlineKeyTable<uint64_t>>(expected);
        break;
      case KeyKind::U128: t.emplace<DenseKeyTable<U128Key>>(expected); break;
      case KeyKind::Bytes: t.emplace<DenseKeyTable<BytesKey>>(expected); break;
    }
  }
  // Inserts rows [begin, end) of `rows` (or of the frame when `rows` is null) into table p;
  // ids are partition-local for now.
  auto build_part = [&](size_t p, const int64_t* rows, int64_t count) {
    std::visit(
        [&](auto& table) {
          using T = std::decay_t<decltype(table)>;
          if constexpr (!std::is_same_v<T, std::monostate>) {
            using K = KeyOf<T>;
            constexpr bool kDirect = std::is_same_v<T, DirectTable>;
            const K* keys = key_data<K>(build_);
            uint64_t h[kBatch];
            for (int64_t start = 0; start < count; start += kBatch) {
              if ((start & (kCheckRows - 1)) == 0) check_cancelled();
              const int m = static_cast<int>(std::min<int64_t>(kBatch, count - start));
              if constexpr (!kDirect)
                for (int j = 0; j < m; ++j) {
                  h[j] = key_hash(keys[rows ? rows[start + j] : start + j]);
                  table.prefetch(h[j]);
                }
              for (int j = 0; j < m; ++j) {
                const int64_t i = rows ? rows[start + j] : start + j;
                build_ids_[i] = build_.is_null(i) ? kNoId : table.find_or_insert(keys[i], kDirect ? 0 : h[j]);
              }
            }
          }
        },
        tables_[p]);
  };
  if (parts == 1) {
    build_part(0, nullptr, nb);
  } else {
    parallel_for(parts, [&](size_t p) {
      build_part(p, part_rows.data() + part_start[p], part_start[p + 1] - part_start[p]);
    });
  }
  id_offset_.assign(parts + 1, 0);
  for (size_t p = 0; p < parts; ++p) {
    const uint32_t size = std::visit(
        [](const auto& t) -> uint32_t {
          if constexpr (std::is_same_v<std::decay_t<decltype(t)>, std::monostate>) return 0;
          else return t.size();
        },
        tables_[p]);
    id_offset_[p + 1] = id_offset_[p] + size;
  }
  const uint32_t num_ids = id_offset_[parts];
  num_ids_ = num_ids;
  if (parts > 1)
    parallel_for(parts, [&](size_t p) {
      for (int64_t k = part_start[p]; k < part_start[p + 1]; ++k) build_ids_[part_rows[k]] += id_offset_[p];
    });
  if (!direct && build_.kind == KeyKind::U64 && nb > 0 && hi - lo < (uint64_t{1} << 27)) {
    present_ = RangeBitset(lo, hi - lo + 1);
    const uint64_t* keys = build_.u64.data();
    for (int64_t i = 0; i < nb; ++i)
      if (!build_.is_null(i)) present_.insert(keys[i]);
  }
  // Rows per key id, ascending (counting sort).
  offsets_.assign(static_cast<size_t>(num_ids) + 1, 0);
  for (uint32_t id : build_ids_)
    if (id != kNoId) ++offsets_[id + 1];
  for (uint32_t g = 0; g < num_ids; ++g) offsets_[g + 1] += offsets_[g];
  rows_.resize(offsets_[num_ids]);
  ScratchVector<IdxSize> cursor(offsets_.begin(), offsets_.end() - 1);
  for (int64_t i = 0; i < nb; ++i) {
    uint32_t id = build_ids_[i];
    if (id != kNoId) rows_[cursor[id]++] = static_cast<IdxSize>(i);
  }
}

void JoinTable::drop_row_lists() {
  build_ids_ = ScratchVector<uint32_t>();
  rows_ = ScratchVector<IdxSize>();
  offsets_ = ScratchVector<IdxSize>();
  // Byte keys point into the encoded storage; integer keys are copied into the tables.
  if (build_.kind != KeyKind::Bytes) {
    build_.u64 = ScratchVector<uint64_t>();
    build_.u128 = ScratchVector<U128Key>();
  }
}

std::vector<uint32_t> JoinTable::probe(const std::vector<ArrayRef>& probe_keys) const {
  check_join_keys(probe_keys, build_keys_);
  const EncodedKeys probe = encode_keys(probe_keys, NullKeys::Exclude);
  FRAZIL_CHECK(probe.kind == build_.kind);
  const int64_t np = probe.length;
  std::vector<uint32_t> ids(static_cast<size_t>(np));
  const uint64_t part_mask = (uint64_t{1} << part_bits_) - 1;
  std::visit(
      [&](const auto& first) {
        using T = std::decay_t<decltype(first)>;
        if constexpr (!std::is_same_v<T, std::monostate>) {
          using K = KeyOf<T>;
          constexpr bool kDirect = std::is_same_v<T, DirectTable>;
          const K* keys = key_data<K>(probe);
          // Every partition holds a table of the same type.
          auto table_of = [&](uint64_t h) -> const T& { return std::get<T>(tables_[h & part_mask]); };
          uint64_t h[kBatch];
          // Keys the presence bits rule out skip the table (their hash is never used).
          bool absent[kBatch] = {};
          for (int64_t start = 0; start < np; start += kBatch) {
            if ((start & (kCheckRows - 1)) == 0) check_cancelled();
            const int m = static_cast<int>(std::min<int64_t>(kBatch, np - start));
            if constexpr (std::is_same_v<T, InlineKeyTable<uint64_t>>)
              if (!present_.empty())
                for (int j = 0; j < m; ++j) absent[j] = !present_.contains(keys[start + j]);
            if constexpr (!kDirect)
              for (int j = 0; j < m; ++j) {
                if (absent[j]) continue;
                h[j] = key_hash(keys[start + j]);
                table_of(h[j]).prefetch(h[j]);
              }
            for (int j = 0; j < m; ++j) {
              const int64_t i = start + j;
              if (absent[j] || probe.is_null(i)) {
                ids[i] = kNoId;
                continue;
              }
              if constexpr (kDirect) {
                ids[i] = first.find(keys[i], 0);
              } else {
                const uint32_t local = table_of(h[j]).find(keys[i], h[j]);
                ids[i] = local == kNoId ? kNoId : local + id_offset_[h[j] & part_mask];
              }
            }
          }
        }
      },
      tables_[0]);
  return ids;
}

}  // namespace frazil::compute
