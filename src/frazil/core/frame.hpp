// DataFrame: named columns of equal length. A morsel is a (small) DataFrame.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "frazil/core/column.hpp"
#include "frazil/core/schema.hpp"

namespace frazil {

class DataFrame {
 public:
  DataFrame() = default;
  // Throws ShapeError on unequal lengths and DuplicateError on repeated names.
  explicit DataFrame(std::vector<Column> columns);
  // A frame of `height` rows and no columns (what `select()` of nothing yields).
  static DataFrame empty_with_height(int64_t height);
  static DataFrame empty_with_schema(const Schema& schema);

  int64_t height() const { return height_; }
  size_t width() const { return columns_.size(); }
  const std::vector<Column>& columns() const { return columns_; }
  const Column& column(size_t i) const { return columns_[i]; }
  // Throws ColumnNotFoundError.
  const Column& column(const std::string& name) const;
  std::optional<size_t> index_of(const std::string& name) const;
  Schema schema() const;
  std::vector<std::string> names() const;

  DataFrame slice(int64_t offset, int64_t length) const;
  DataFrame head(int64_t n) const { return slice(0, std::min(n, height_)); }
  DataFrame select(const std::vector<std::string>& names) const;
  // Replaces a column of the same name or appends it.
  DataFrame with_column(Column column) const;
  // Every column as one contiguous chunk.
  DataFrame rechunk() const&;
  // The same, column after column releasing the old chunks (when nothing else holds them),
  // so that at most one column exists twice at a time.
  DataFrame rechunk() &&;
  bool is_empty() const { return height_ == 0; }

  // Exact equality of names, dtypes and values (NaN equals NaN; nulls equal nulls).
  bool equals(const DataFrame& other) const;
  // Polars-style table: shape line, header with dtypes, truncated middle rows.
  std::string to_string(int64_t max_rows = 10, int64_t max_cols = 8, int64_t max_width = 30) const;

 private:
  std::vector<Column> columns_;
  int64_t height_ = 0;
  // Column positions by name, for frames wider than kIndexedWidth (null otherwise): a wide
  // select looks up every column by name, and a scan per lookup made it quadratic. Shared
  // by the slices of a frame (their names are the same).
  static constexpr size_t kIndexedWidth = 16;
  std::shared_ptr<const std::unordered_map<std::string, size_t>> index_;
};

// Vertical concatenation of frames with identical schemas.
DataFrame concat_frames(const std::vector<DataFrame>& frames);

}  // namespace frazil
