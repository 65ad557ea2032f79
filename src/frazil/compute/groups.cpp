// group_rows and unique_rows: dense group ids in order of first appearance.
#include <algorithm>
#include <optional>
#include <type_traits>

#include "frazil/compute/aggregate.hpp"
#include "frazil/compute/hash_table.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/cancel.hpp"

namespace frazil::compute {

namespace {

constexpr int kBatch = 64;  // rows hashed (and their slots prefetched) before probing

// Table ids count the non-null keys in order of appearance. The null group, if any, takes
// the id of the first null row's position in that order and shifts later ids up by one.
template <typename Table, typename K>
Groups group_loop(Table& table, const K* keys, const EncodedKeys& enc) {
  const int64_t n = enc.length;
  Groups g;
  g.group_ids.resize(static_cast<size_t>(n));
  IdxSize* gid = g.group_ids.data();
  uint32_t null_pos = kNoId;  // table size when the first null row appeared
  int64_t first_null_row = -1;
  uint64_t h[kBatch];
  for (int64_t start = 0; start < n; start += kBatch) {
    if ((start & (kCheckRows - 1)) == 0) check_cancelled();
    const int m = static_cast<int>(std::min<int64_t>(kBatch, n - start));
    if constexpr (!std::is_same_v<Table, DirectTable>) {
      for (int j = 0; j < m; ++j) {
        h[j] = key_hash(keys[start + j]);
        table.prefetch(h[j]);
      }
    }
    for (int j = 0; j < m; ++j) {
      const int64_t i = start + j;
      if (enc.validity && enc.is_null(i)) {
        if (null_pos == kNoId) {
          null_pos = table.size();
          first_null_row = i;
        }
        gid[i] = kNoId;
        continue;
      }
      const uint32_t before = table.size();
      uint64_t hj = 0;
      if constexpr (!std::is_same_v<Table, DirectTable>) hj = h[j];
      const uint32_t id = table.find_or_insert(keys[i], hj);
      if (id == before) g.first_rows.push_back(static_cast<IdxSize>(i));
      gid[i] = id;
    }
  }
  if (null_pos != kNoId) {
    for (int64_t i = 0; i < n; ++i) {
      uint32_t id = gid[i];
      gid[i] = id == kNoId ? null_pos : id + (id >= null_pos);
    }
    g.first_rows.insert(g.first_rows.begin() + null_pos, static_cast<IdxSize>(first_null_row));
  }
  return g;
}

// Keys that come sorted (a table stored in key order, like TPC-H's lineitem by order key,
// or the output of a sort) form one run per distinct key: the groups are the runs, found
// in one pass without a hash table. Ascending or descending order in the encoded bits is
// enough (each value then occupies one run); the check stops at the first disorder.
std::optional<Groups> group_sorted_runs(const EncodedKeys& enc) {
  if (enc.kind != KeyKind::U64 || enc.validity || enc.length < 2) return std::nullopt;
  const uint64_t* k = enc.u64.data();
  const int64_t n = enc.length;
  const bool ascending = k[0] <= k[n - 1];
  for (int64_t i = 1; i < n; ++i)
    if (ascending ? k[i] < k[i - 1] : k[i] > k[i - 1]) return std::nullopt;
  Groups g;
  g.group_ids.resize(static_cast<size_t>(n));
  IdxSize id = 0;
  g.first_rows.push_back(0);
  g.group_ids[0] = 0;
  for (int64_t i = 1; i < n; ++i) {
    if (k[i] != k[i - 1]) {
      ++id;
      g.first_rows.push_back(static_cast<IdxSize>(i));
    }
    g.group_ids[i] = id;
  }
  return g;
}

}  // namespace

Groups group_rows(const std::vector<ArrayRef>& keys) {
  if (keys.empty()) return {};
  if (keys[0]->length() >= static_cast<int64_t>(kNullIdx))
    throw ComputeError("group_by: more rows than the 32-bit row index supports");
  if (keys.size() > 1) {
    // Several keys with strings among them: each string key is first grouped alone (the
    // fast view path) and replaced by its dense group ids, so the combined key packs into
    // integers instead of being encoded row by row as bytes. Group order is unchanged:
    // ids follow first appearance, and equal strings get equal ids (null is one id).
    bool any_view = false;
    for (const auto& k : keys) any_view |= k->dtype().is_view();
    if (any_view) {
      std::vector<ArrayRef> codes;
      for (const auto& k : keys) {
        if (!k->dtype().is_view()) {
          codes.push_back(k);
          continue;
        }
        // The ids take the narrowest unsigned type that holds them, so that the packed
        // key of a few low-cardinality strings stays small (a direct table).
        Groups alone = group_rows({k});
        auto narrow = [&](auto zero, DataType dtype) {
          using T = decltype(zero);
          Buffer ids = Buffer::allocate(alone.group_ids.size() * sizeof(T));
          std::copy(alone.group_ids.begin(), alone.group_ids.end(), ids.mutable_as<T>());
          codes.push_back(Array::make(std::move(dtype), k->length(), Buffer(), {ids}));
        };
        const size_t ng = alone.num_groups();
        if (ng <= 256) narrow(uint8_t{0}, DataType::uint8());
        else if (ng <= 65536) narrow(uint16_t{0}, DataType::uint16());
        else narrow(uint32_t{0}, DataType::uint32());
      }
      return group_rows(codes);
    }
  }
  EncodedKeys enc = encode_group_keys(keys);
  if (auto runs = group_sorted_runs(enc)) return std::move(*runs);
  const size_t expected = static_cast<size_t>(std::min<int64_t>(enc.length, 1024));
  return with_key_table(enc, expected,
                        [&](auto& table, const auto* k) { return group_loop(table, k, enc); });
}

Groups one_group_per_row(int64_t n) {
  Groups g;
  g.group_ids.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) g.group_ids[i] = static_cast<IdxSize>(i);
  g.first_rows.assign(g.group_ids.begin(), g.group_ids.end());
  return g;
}

std::vector<IdxSize> unique_rows(const std::vector<ArrayRef>& keys, const std::string& keep) {
  if (keep != "first" && keep != "last" && keep != "any" && keep != "none")
    throw InvalidOperationError(
        err_msg("unique: keep must be 'first', 'last', 'any' or 'none', got '", keep, "'"));
  if (keys.empty()) return {};
  Groups g = group_rows(keys);
  if (keep == "first" || keep == "any") return std::move(g.first_rows);  // already ascending
  const size_t n = g.group_ids.size();
  if (keep == "last") {
    std::vector<IdxSize> last(g.num_groups());
    for (size_t i = 0; i < n; ++i) last[g.group_ids[i]] = static_cast<IdxSize>(i);
    std::sort(last.begin(), last.end());
    return last;
  }
  std::vector<IdxSize> count(g.num_groups(), 0);
  for (size_t i = 0; i < n; ++i) ++count[g.group_ids[i]];
  std::vector<IdxSize> out;
  for (size_t i = 0; i < n; ++i)
    if (count[g.group_ids[i]] == 1) out.push_back(static_cast<IdxSize>(i));
  return out;
}

}  // namespace frazil::compute
