#include "frazil/compute/join.hpp"

#include <algorithm>

#include "frazil/compute/hash_table.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

const char* join_type_name(JoinType how) {
  switch (how) {
    case JoinType::Inner: return "INNER";
    case JoinType::Left: return "LEFT";
    case JoinType::Right: return "RIGHT";
    case JoinType::Full: return "FULL";
    case JoinType::Semi: return "SEMI";
    case JoinType::Anti: return "ANTI";
    case JoinType::Cross: return "CROSS";
  }
  return "?";
}

JoinIndices cross_join(int64_t left_rows, int64_t right_rows) {
  JoinIndices out;
  if (left_rows <= 0 || right_rows <= 0) return out;
  const size_t total = static_cast<size_t>(left_rows) * static_cast<size_t>(right_rows);
  out.left_index.resize(total);
  out.right_index.resize(total);
  size_t k = 0;
  for (int64_t l = 0; l < left_rows; ++l)
    for (int64_t r = 0; r < right_rows; ++r, ++k) {
      out.left_index[k] = static_cast<IdxSize>(l);
      out.right_index[k] = static_cast<IdxSize>(r);
    }
  return out;
}

namespace {

constexpr int kBatch = 64;

// The build side grouped by key: rows of key id g are rows[offsets[g] .. offsets[g+1]),
// ascending.
struct BuildIndex {
  std::vector<uint32_t> row_ids;  // per build row: key id, kNoId for null keys
  std::vector<IdxSize> offsets;
  std::vector<IdxSize> rows;
};

// Probe output: per probe row the key id it matches, or kNoId.
template <typename Table, typename K>
void build_and_probe(Table& table, const K* build_keys, const EncodedKeys& build,
                     const K* probe_keys, const EncodedKeys& probe, BuildIndex& index,
                     std::vector<uint32_t>& probe_ids) {
  constexpr bool kDirect = std::is_same_v<Table, DirectTable>;
  uint64_t h[kBatch];
  const int64_t nb = build.length;
  index.row_ids.resize(static_cast<size_t>(nb));
  for (int64_t start = 0; start < nb; start += kBatch) {
    const int m = static_cast<int>(std::min<int64_t>(kBatch, nb - start));
    if constexpr (!kDirect)
      for (int j = 0; j < m; ++j) {
        h[j] = key_hash(build_keys[start + j]);
        table.prefetch(h[j]);
      }
    for (int j = 0; j < m; ++j) {
      const int64_t i = start + j;
      if (build.validity && build.is_null(i)) {
        index.row_ids[i] = kNoId;
        continue;
      }
      index.row_ids[i] = table.find_or_insert(build_keys[i], kDirect ? 0 : h[j]);
    }
  }
  // Rows per key id, ascending (counting sort).
  const uint32_t nk = table.size();
  index.offsets.assign(nk + 1, 0);
  for (uint32_t id : index.row_ids)
    if (id != kNoId) ++index.offsets[id + 1];
  for (uint32_t g = 0; g < nk; ++g) index.offsets[g + 1] += index.offsets[g];
  index.rows.resize(index.offsets[nk]);
  {
    std::vector<IdxSize> cursor(index.offsets.begin(), index.offsets.end() - 1);
    for (int64_t i = 0; i < nb; ++i) {
      uint32_t id = index.row_ids[i];
      if (id != kNoId) index.rows[cursor[id]++] = static_cast<IdxSize>(i);
    }
  }
  const int64_t np = probe.length;
  probe_ids.resize(static_cast<size_t>(np));
  for (int64_t start = 0; start < np; start += kBatch) {
    const int m = static_cast<int>(std::min<int64_t>(kBatch, np - start));
    if constexpr (!kDirect)
      for (int j = 0; j < m; ++j) {
        h[j] = key_hash(probe_keys[start + j]);
        table.prefetch(h[j]);
      }
    for (int j = 0; j < m; ++j) {
      const int64_t i = start + j;
      probe_ids[i] = (probe.validity && probe.is_null(i))
                         ? kNoId
                         : table.find(probe_keys[i], kDirect ? 0 : h[j]);
    }
  }
}

void check_keys(const std::vector<ArrayRef>& left, const std::vector<ArrayRef>& right) {
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

}  // namespace

JoinIndices hash_join(const std::vector<ArrayRef>& left_keys,
                      const std::vector<ArrayRef>& right_keys, JoinType how) {
  if (how == JoinType::Cross) {
    if (left_keys.empty() || right_keys.empty())
      throw InvalidOperationError("cross join via hash_join needs a column per side for its length");
    return cross_join(left_keys[0]->length(), right_keys[0]->length());
  }
  check_keys(left_keys, right_keys);
  const int64_t nl = left_keys[0]->length();
  const int64_t nr = right_keys[0]->length();

  // Build on the smaller side; ties build on the right (probe in left order).
  const bool build_left = nl < nr;
  EncodedKeys left = encode_keys(left_keys, NullKeys::Exclude);
  EncodedKeys right = encode_keys(right_keys, NullKeys::Exclude);
  const EncodedKeys& build = build_left ? left : right;
  const EncodedKeys& probe = build_left ? right : left;
  FRAZIL_CHECK(left.kind == right.kind);

  BuildIndex index;
  std::vector<uint32_t> probe_ids;
  auto run = [&](auto& table, const auto* build_keys) {
    using K = std::remove_cv_t<std::remove_pointer_t<decltype(build_keys)>>;
    const K* probe_keys;
    if constexpr (std::is_same_v<K, uint64_t>) probe_keys = probe.u64.data();
    else if constexpr (std::is_same_v<K, U128Key>) probe_keys = probe.u128.data();
    else probe_keys = probe.bytes.data();
    build_and_probe(table, build_keys, build, probe_keys, probe, index, probe_ids);
    return 0;
  };
  with_key_table(build, static_cast<size_t>(build.length), run);

  const int64_t nb = build.length, np = probe.length;
  JoinIndices out;
  // Writes a (probe row, build row) pair into the left/right vectors.
  auto& probe_out = build_left ? out.right_index : out.left_index;
  auto& build_out = build_left ? out.left_index : out.right_index;

  if (how == JoinType::Semi || how == JoinType::Anti) {
    const bool want = how == JoinType::Semi;
    if (!build_left) {
      for (int64_t p = 0; p < np; ++p)
        if ((probe_ids[p] != kNoId) == want) out.left_index.push_back(static_cast<IdxSize>(p));
    } else {
      std::vector<uint8_t> hit(index.offsets.size(), 0);
      for (uint32_t id : probe_ids)
        if (id != kNoId) hit[id] = 1;
      for (int64_t b = 0; b < nb; ++b) {
        uint32_t id = index.row_ids[b];
        if ((id != kNoId && hit[id]) == want) out.left_index.push_back(static_cast<IdxSize>(b));
      }
    }
    return out;
  }

  // Which side's order leads, and which sides keep their unmatched rows.
  const bool left_leads = how != JoinType::Right;
  const bool keep_left = how == JoinType::Left || how == JoinType::Full;
  const bool keep_right = how == JoinType::Right || how == JoinType::Full;
  const bool keep_build = build_left ? keep_left : keep_right;
  const bool keep_probe = build_left ? keep_right : keep_left;
  const IdxSize* rows = index.rows.data();
  const IdxSize* offs = index.offsets.data();

  if (left_leads != build_left) {
    // The probe side leads: emit in probe order, each probe row's matches ascending.
    size_t total = 0;
    for (uint32_t id : probe_ids) total += id == kNoId ? keep_probe : offs[id + 1] - offs[id];
    probe_out.reserve(total);
    build_out.reserve(total);
    std::vector<uint8_t> build_hit;
    if (keep_build) build_hit.assign(index.offsets.size(), 0);
    for (int64_t p = 0; p < np; ++p) {
      uint32_t id = probe_ids[p];
      if (id == kNoId) {
        if (keep_probe) {
          probe_out.push_back(static_cast<IdxSize>(p));
          build_out.push_back(kNullIdx);
        }
        continue;
      }
      if (keep_build) build_hit[id] = 1;
      for (IdxSize k = offs[id]; k < offs[id + 1]; ++k) {
        probe_out.push_back(static_cast<IdxSize>(p));
        build_out.push_back(rows[k]);
      }
    }
    if (keep_build)  // Full join: the build side's unmatched rows go last, in order
      for (int64_t b = 0; b < nb; ++b) {
        uint32_t id = index.row_ids[b];
        if (id == kNoId || !build_hit[id]) {
          build_out.push_back(static_cast<IdxSize>(b));
          probe_out.push_back(kNullIdx);
        }
      }
    return out;
  }

  // The build side leads: place each pair by a counting sort on the build row. Probing in
  // order makes each build row's matches come out in probe order.
  std::vector<IdxSize> matches_per_id(index.offsets.size(), 0);
  for (uint32_t id : probe_ids)
    if (id != kNoId) ++matches_per_id[id];
  std::vector<size_t> pos(static_cast<size_t>(nb) + 1, 0);
  for (int64_t b = 0; b < nb; ++b) {
    uint32_t id = index.row_ids[b];
    size_t c = id == kNoId ? 0 : matches_per_id[id];
    pos[b + 1] = pos[b] + (c == 0 ? keep_build : c);
  }
  size_t total = pos[nb];
  size_t unmatched_probe = 0;
  if (keep_probe)
    for (uint32_t id : probe_ids) unmatched_probe += id == kNoId;
  build_out.resize(total + unmatched_probe);
  probe_out.resize(total + unmatched_probe);
  for (int64_t b = 0; b < nb; ++b)
    if (pos[b + 1] - pos[b] == 1 && keep_build) {
      uint32_t id = index.row_ids[b];
      if (id == kNoId || matches_per_id[id] == 0) {
        build_out[pos[b]] = static_cast<IdxSize>(b);
        probe_out[pos[b]] = kNullIdx;
      }
    }
  size_t tail = total;
  for (int64_t p = 0; p < np; ++p) {
    uint32_t id = probe_ids[p];
    if (id == kNoId) {
      if (keep_probe) {
        build_out[tail] = kNullIdx;
        probe_out[tail++] = static_cast<IdxSize>(p);
      }
      continue;
    }
    for (IdxSize k = offs[id]; k < offs[id + 1]; ++k) {
      IdxSize b = rows[k];
      size_t at = pos[b]++;
      build_out[at] = b;
      probe_out[at] = static_cast<IdxSize>(p);
    }
  }
  return out;
}

}  // namespace frazil::compute
