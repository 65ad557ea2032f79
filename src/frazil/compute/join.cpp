#include "frazil/compute/join.hpp"

#include <algorithm>

#include "frazil/compute/join_table.hpp"
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

JoinIndices hash_join(const std::vector<ArrayRef>& left_keys,
                      const std::vector<ArrayRef>& right_keys, JoinType how) {
  if (how == JoinType::Cross) {
    if (left_keys.empty() || right_keys.empty())
      throw InvalidOperationError("cross join via hash_join needs a column per side for its length");
    return cross_join(left_keys[0]->length(), right_keys[0]->length());
  }
  check_join_keys(left_keys, right_keys);
  const int64_t nl = left_keys[0]->length();
  const int64_t nr = right_keys[0]->length();

  // Build on the smaller side; ties build on the right (probe in left order).
  const bool build_left = nl < nr;
  const JoinTable table(build_left ? left_keys : right_keys);
  const std::vector<uint32_t> probe_ids = table.probe(build_left ? right_keys : left_keys);
  const auto& build_ids = table.build_ids();

  const int64_t nb = table.build_rows(), np = static_cast<int64_t>(probe_ids.size());
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
      std::vector<uint8_t> hit(static_cast<size_t>(table.num_ids()) + 1, 0);
      for (uint32_t id : probe_ids)
        if (id != kNoId) hit[id] = 1;
      for (int64_t b = 0; b < nb; ++b) {
        uint32_t id = build_ids[b];
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

  if (left_leads != build_left) {
    // The probe side leads: emit in probe order, each probe row's matches ascending.
    size_t total = 0;
    for (uint32_t id : probe_ids) total += id == kNoId ? keep_probe : table.match_count(id);
    probe_out.reserve(total);
    build_out.reserve(total);
    std::vector<uint8_t> build_hit;
    if (keep_build) build_hit.assign(static_cast<size_t>(table.num_ids()) + 1, 0);
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
      for (const IdxSize* r = table.rows_begin(id); r != table.rows_end(id); ++r) {
        probe_out.push_back(static_cast<IdxSize>(p));
        build_out.push_back(*r);
      }
    }
    if (keep_build)  // Full join: the build side's unmatched rows go last, in order
      for (int64_t b = 0; b < nb; ++b) {
        uint32_t id = build_ids[b];
        if (id == kNoId || !build_hit[id]) {
          build_out.push_back(static_cast<IdxSize>(b));
          probe_out.push_back(kNullIdx);
        }
      }
    return out;
  }

  // The build side leads: place each pair by a counting sort on the build row. Probing in
  // order makes each build row's matches come out in probe order.
  std::vector<IdxSize> matches_per_id(static_cast<size_t>(table.num_ids()) + 1, 0);
  for (uint32_t id : probe_ids)
    if (id != kNoId) ++matches_per_id[id];
  std::vector<size_t> pos(static_cast<size_t>(nb) + 1, 0);
  for (int64_t b = 0; b < nb; ++b) {
    uint32_t id = build_ids[b];
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
      uint32_t id = build_ids[b];
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
    for (const IdxSize* r = table.rows_begin(id); r != table.rows_end(id); ++r) {
      IdxSize b = *r;
      size_t at = pos[b]++;
      build_out[at] = b;
      probe_out[at] = static_cast<IdxSize>(p);
    }
  }
  return out;
}

}  // namespace frazil::compute
