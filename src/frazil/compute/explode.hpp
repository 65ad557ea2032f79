// Exploding list columns: every element of a list becomes a row of its own, the other
// columns repeat their row once per element (Polars' explode).
#pragma once

#include <string>
#include <vector>

#include "frazil/compute/selection.hpp"
#include "frazil/core/array.hpp"
#include "frazil/core/frame.hpp"

namespace frazil::compute {

struct ExplodeOptions {
  bool empty_as_null = false;  // an empty list gives one null row (else no row)
  bool keep_nulls = true;      // a null list gives one null row (else no row)
  bool operator==(const ExplodeOptions&) const = default;
};

// The elements of a List array, one per row, with the inner dtype. `rows`, when given,
// receives for each output row the input row it came from. InvalidOperationError when
// the array is not a List; ComputeError past 2^32 - 1 rows or elements.
ArrayRef explode(const Array& list, const ExplodeOptions& options = {}, std::vector<IdxSize>* rows = nullptr);

// `df` with the List columns `columns` exploded together and the other columns repeated.
// The exploded columns must have, row by row, lists of the same length (a null list
// counting as no elements) that give the same number of rows: ShapeError otherwise,
// naming the columns. Column names may repeat; an unknown name is ColumnNotFoundError.
DataFrame explode_frame(const DataFrame& df, const std::vector<std::string>& columns,
                        const ExplodeOptions& options = {});

}  // namespace frazil::compute
