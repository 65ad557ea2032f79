#include "frazil/compute/join_table.hpp"

#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

constexpr int kBatch = 64;

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
  const size_t expected = static_cast<size_t>(nb);
  switch (build_.kind) {
    case KeyKind::U64: {
      uint64_t lo, hi;
      if (u64_key_range(build_, &lo, &hi) && DirectTable::fits(lo, hi, nb)) table_.emplace<DirectTable>(lo, hi);
      else table_.emplace<InlineKeyTable<uint64_t>>(expected);
      break;
    }
    case KeyKind::U128: table_.emplace<DenseKeyTable<U128Key>>(expected); break;
    case KeyKind::Bytes: table_.emplace<DenseKeyTable<BytesKey>>(expected); break;
  }
  build_ids_.resize(static_cast<size_t>(nb));
  uint32_t num_ids = 0;
  std::visit(
      [&](auto& table) {
        using T = std::decay_t<decltype(table)>;
        if constexpr (!std::is_same_v<T, std::monostate>) {
          using K = KeyOf<T>;
          constexpr bool kDirect = std::is_same_v<T, DirectTable>;
          const K* keys = key_data<K>(build_);
          uint64_t h[kBatch];
          for (int64_t start = 0; start < nb; start += kBatch) {
            const int m = static_cast<int>(std::min<int64_t>(kBatch, nb - start));
            if constexpr (!kDirect)
              for (int j = 0; j < m; ++j) {
                h[j] = key_hash(keys[start + j]);
                table.prefetch(h[j]);
              }
            for (int j = 0; j < m; ++j) {
              const int64_t i = start + j;
              build_ids_[i] = build_.is_null(i) ? kNoId : table.find_or_insert(keys[i], kDirect ? 0 : h[j]);
            }
          }
          num_ids = table.size();
        }
      },
      table_);
  // Rows per key id, ascending (counting sort).
  offsets_.assign(static_cast<size_t>(num_ids) + 1, 0);
  for (uint32_t id : build_ids_)
    if (id != kNoId) ++offsets_[id + 1];
  for (uint32_t g = 0; g < num_ids; ++g) offsets_[g + 1] += offsets_[g];
  rows_.resize(offsets_[num_ids]);
  std::vector<IdxSize> cursor(offsets_.begin(), offsets_.end() - 1);
  for (int64_t i = 0; i < nb; ++i) {
    uint32_t id = build_ids_[i];
    if (id != kNoId) rows_[cursor[id]++] = static_cast<IdxSize>(i);
  }
}

std::vector<uint32_t> JoinTable::probe(const std::vector<ArrayRef>& probe_keys) const {
  check_join_keys(probe_keys, build_keys_);
  const EncodedKeys probe = encode_keys(probe_keys, NullKeys::Exclude);
  FRAZIL_CHECK(probe.kind == build_.kind);
  const int64_t np = probe.length;
  std::vector<uint32_t> ids(static_cast<size_t>(np));
  std::visit(
      [&](const auto& table) {
        using T = std::decay_t<decltype(table)>;
        if constexpr (!std::is_same_v<T, std::monostate>) {
          using K = KeyOf<T>;
          constexpr bool kDirect = std::is_same_v<T, DirectTable>;
          const K* keys = key_data<K>(probe);
          uint64_t h[kBatch];
          for (int64_t start = 0; start < np; start += kBatch) {
            const int m = static_cast<int>(std::min<int64_t>(kBatch, np - start));
            if constexpr (!kDirect)
              for (int j = 0; j < m; ++j) {
                h[j] = key_hash(keys[start + j]);
                table.prefetch(h[j]);
              }
            for (int j = 0; j < m; ++j) {
              const int64_t i = start + j;
              ids[i] = probe.is_null(i) ? kNoId : table.find(keys[i], kDirect ? 0 : h[j]);
            }
          }
        }
      },
      table_);
  return ids;
}

}  // namespace frazil::compute
