// Column chunk statistics decoded to frazil Scalars, grouped per row group, for the
// engine's row-group pruning (the engine builds the predicate; the reader calls it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/scalar.hpp"
#include "frazil/io/parquet/metadata.hpp"
#include "frazil/io/parquet/schema.hpp"

namespace frazil::io::parquet {

struct ColumnStatistics {
  std::optional<Scalar> min;  // absent when unknown (no stats, all null, NaN-only, ...)
  std::optional<Scalar> max;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
};

struct RowGroupStats {
  std::string path;        // the file
  size_t row_group = 0;    // index within the file
  int64_t num_rows = 0;
  // Statistics of the top-level columns that have them (primitive, non-nested
  // columns), and of hive partition columns (min == max == the partition value).
  std::vector<std::string> names;
  std::vector<ColumnStatistics> columns;

  // nullptr when nothing is known about `name` (the predicate must then keep the group).
  const ColumnStatistics* get(const std::string& name) const;
};

// Decodes one column chunk's Statistics for a leaf. `type_defined_order` says whether
// the file declares TYPE_DEFINED_ORDER for this column (min_value/max_value valid);
// deprecated min/max are only trusted for types whose order is signed.
ColumnStatistics decode_statistics(const LeafColumn& leaf, const Statistics& stats, bool type_defined_order);

// Decodes one plain-encoded statistics value of a leaf into a Scalar of the leaf's
// dtype; nullopt when it cannot be interpreted.
std::optional<Scalar> decode_stat_value(const LeafColumn& leaf, const std::string& bytes);

}  // namespace frazil::io::parquet
