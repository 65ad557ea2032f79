// Binning of numeric values into intervals (Polars' cut and qcut): each value gets the
// label of the interval between two breakpoints it falls in, as a Categorical/Enum code,
// optionally with the interval's right breakpoint (a Struct {breakpoint, category}).
// Nulls and NaN get null.
#pragma once

#include <string>
#include <vector>

#include "frazil/core/array.hpp"

namespace frazil::compute {

struct BinSpec {
  std::vector<double> breaks;       // strictly ascending
  std::vector<std::string> labels;  // empty: "(a, b]" / "[a, b)" from the breaks
  bool left_closed = false;         // [a, b) instead of (a, b]
  bool include_breaks = false;      // Struct {breakpoint: Float64, category}
};

// The labels Polars gives the breaks' intervals: "(-inf, -1]", "(-1, 0.25]", "(0.25, inf]".
std::vector<std::string> interval_labels(const std::vector<double>& breaks, bool left_closed);

// cut: fixed breaks; the category dtype is an Enum of the labels in interval order. Raises
// on unsorted or repeated breaks or a wrong number of labels.
ArrayRef cut(const Array& values, const BinSpec& spec);
DataType cut_dtype(const BinSpec& spec);

// qcut: the breaks are the values' quantiles (linear interpolation over the non-null,
// non-NaN values); the category dtype is Categorical. Repeated breaks raise DuplicateError
// unless `allow_duplicates` (then they merge); a NaN breakpoint (from infinities) raises.
// All-null input gives nulls.
ArrayRef qcut(const Array& values, const std::vector<double>& quantiles, const std::vector<std::string>& labels,
              bool left_closed, bool allow_duplicates, bool include_breaks);
DataType qcut_dtype(bool include_breaks);

}  // namespace frazil::compute
