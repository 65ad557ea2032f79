#include "frazil/compute/partition.hpp"

#include <limits>

#include "frazil/core/error.hpp"

namespace frazil::compute {

std::vector<std::vector<IdxSize>> partition_rows(const std::vector<ArrayRef>& keys, size_t parts) {
  if (parts == 0) throw InvalidOperationError("hash partitioning needs at least one partition");
  if (keys.empty()) throw InvalidOperationError("hash partitioning needs at least one key column");
  const int64_t n = keys[0]->length();
  if (n > static_cast<int64_t>(std::numeric_limits<IdxSize>::max()))
    throw ComputeError(err_msg("hash partitioning of ", n, " rows: more than a frame's row index holds"));
  std::vector<std::vector<IdxSize>> out(parts);
  if (parts == 1) {
    out[0].resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out[0][i] = static_cast<IdxSize>(i);
    return out;
  }
  const std::vector<uint64_t> hashes = hash_rows(keys);
  for (auto& v : out) v.reserve(static_cast<size_t>(n) / parts + 16);
  for (int64_t i = 0; i < n; ++i) out[hash_partition(hashes[i], parts)].push_back(static_cast<IdxSize>(i));
  return out;
}

std::vector<DataFrame> partition_frame(const DataFrame& df, const std::vector<std::string>& key_columns, size_t parts) {
  std::vector<ArrayRef> keys;
  for (const auto& name : key_columns) {
    if (!df.schema().contains(name))
      throw ColumnNotFoundError(err_msg("hash partitioning by '", name, "': no such column in ", df.schema().to_string()));
    keys.push_back(df.column(name).as_array());
  }
  std::vector<DataFrame> out;
  out.reserve(parts);
  const auto rows = partition_rows(keys, parts);
  for (const auto& r : rows) out.push_back(parts == 1 ? df : take_frame(df, r));
  return out;
}

}  // namespace frazil::compute
