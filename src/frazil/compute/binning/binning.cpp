#include "frazil/compute/binning/binning.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>

#include "frazil/compute/cast.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

namespace frazil::compute {

namespace {

// Rust's Display of an f64, as Polars prints breaks: shortest round-trip digits in
// positional notation, no ".0" on whole numbers ("-1", "0.25", "100000000000000000000").
std::string format_break(double v) {
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  if (std::isnan(v)) return "NaN";
  char buf[512];
  auto r = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

std::vector<double> checked_breaks(std::vector<double> breaks) {
  std::sort(breaks.begin(), breaks.end());
  for (size_t i = 1; i < breaks.size(); ++i)
    if (breaks[i] == breaks[i - 1]) throw DuplicateError("breaks are not unique");
  return breaks;
}

std::vector<std::string> labels_for(const BinSpec& spec) {
  if (spec.labels.empty()) return interval_labels(spec.breaks, spec.left_closed);
  if (spec.labels.size() != spec.breaks.size() + 1)
    throw ShapeError(err_msg("expected ", spec.breaks.size() + 1, " labels (len(breaks) + 1), got ", spec.labels.size()));
  return spec.labels;
}

// The bin of every value (-1 for null and NaN) given ascending breaks.
std::vector<int64_t> bin_indices(const Array& values, const std::vector<double>& breaks, bool left_closed) {
  if (!values.dtype().is_numeric() && !values.dtype().is_boolean() && !values.dtype().is_null())
    throw InvalidOperationError(err_msg("cut/qcut need numeric values, got `", values.dtype().short_name(), "`"));
  ArrayRef f = cast(values, DataType::float64(), false);
  const double* v = f->values<double>();
  std::vector<int64_t> out(static_cast<size_t>(f->length()), -1);
  for (int64_t i = 0; i < f->length(); ++i) {
    if (f->is_null(i) || std::isnan(v[i])) continue;
    auto it = left_closed ? std::upper_bound(breaks.begin(), breaks.end(), v[i])
                          : std::lower_bound(breaks.begin(), breaks.end(), v[i]);
    out[static_cast<size_t>(i)] = it - breaks.begin();
  }
  return out;
}

ArrayRef codes_array(const std::vector<int64_t>& bins, const std::vector<uint32_t>& code_of_bin, const DataType& dtype) {
  PrimitiveBuilder<uint32_t> b(dtype, static_cast<int64_t>(bins.size()));
  for (int64_t k : bins) {
    if (k < 0) {
      b.push_null();
    } else {
      b.push(code_of_bin[static_cast<size_t>(k)]);
    }
  }
  return b.finish();
}

ArrayRef with_breaks(const std::vector<int64_t>& bins, const std::vector<double>& breaks, ArrayRef categories,
                     const DataType& struct_dtype) {
  PrimitiveBuilder<double> b(DataType::float64(), static_cast<int64_t>(bins.size()));
  for (int64_t k : bins) {
    if (k < 0) {
      b.push_null();
    } else {
      b.push(static_cast<size_t>(k) < breaks.size() ? breaks[static_cast<size_t>(k)] : INFINITY);
    }
  }
  return Array::make(struct_dtype, static_cast<int64_t>(bins.size()), Buffer(), {}, {b.finish(), std::move(categories)});
}

DataType breaks_struct(const DataType& category) {
  return DataType::struct_({Field{"breakpoint", DataType::float64()}, Field{"category", category}});
}

// Linear-interpolation quantile of ascending values.
double linear_quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  if (frac == 0.0) return sorted[lo];
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

}  // namespace

std::vector<std::string> interval_labels(const std::vector<double>& breaks, bool left_closed) {
  std::vector<std::string> out;
  out.reserve(breaks.size() + 1);
  for (size_t i = 0; i <= breaks.size(); ++i) {
    const std::string lo = i == 0 ? "-inf" : format_break(breaks[i - 1]);
    const std::string hi = i == breaks.size() ? "inf" : format_break(breaks[i]);
    out.push_back(left_closed ? "[" + lo + ", " + hi + ")" : "(" + lo + ", " + hi + "]");
  }
  return out;
}

DataType cut_dtype(const BinSpec& spec) {
  BinSpec s = spec;
  s.breaks = checked_breaks(spec.breaks);
  DataType category = DataType::enum_(Categories::fixed(labels_for(s)));
  return spec.include_breaks ? breaks_struct(category) : category;
}

ArrayRef cut(const Array& values, const BinSpec& spec) {
  BinSpec s = spec;
  s.breaks = checked_breaks(spec.breaks);
  const std::vector<std::string> labels = labels_for(s);
  DataType category = DataType::enum_(Categories::fixed(labels));
  std::vector<uint32_t> code_of_bin(labels.size());
  for (size_t k = 0; k < code_of_bin.size(); ++k) code_of_bin[k] = static_cast<uint32_t>(k);
  const auto bins = bin_indices(values, s.breaks, s.left_closed);
  ArrayRef codes = codes_array(bins, code_of_bin, category);
  if (!s.include_breaks) return codes;
  return with_breaks(bins, s.breaks, codes, breaks_struct(category));
}

DataType qcut_dtype(bool include_breaks) {
  return include_breaks ? breaks_struct(DataType::categorical()) : DataType::categorical();
}

ArrayRef qcut(const Array& values, const std::vector<double>& quantiles, const std::vector<std::string>& labels,
              bool left_closed, bool allow_duplicates, bool include_breaks) {
  for (double q : quantiles)
    if (!(q >= 0.0 && q <= 1.0))
      throw ComputeError(err_msg("quantile should be between 0.0 and 1.0, got ", format_break(q)));
  if (!labels.empty() && labels.size() != quantiles.size() + 1)
    throw ShapeError(err_msg("expected ", quantiles.size() + 1, " labels (len(quantiles) + 1), got ", labels.size()));
  if (!values.dtype().is_numeric() && !values.dtype().is_boolean() && !values.dtype().is_null())
    throw InvalidOperationError(err_msg("qcut needs numeric values, got `", values.dtype().short_name(), "`"));
  const DataType out_dtype = qcut_dtype(include_breaks);
  ArrayRef f = cast(values, DataType::float64(), false);
  std::vector<double> sorted;
  const double* v = f->values<double>();
  for (int64_t i = 0; i < f->length(); ++i)
    if (f->is_valid(i) && !std::isnan(v[i])) sorted.push_back(v[i]);
  if (sorted.empty()) return make_null_array(out_dtype, values.length());
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> qs = quantiles;
  std::sort(qs.begin(), qs.end());
  std::vector<double> breaks;
  std::vector<std::string> kept_labels;
  for (size_t k = 0; k < qs.size(); ++k) {
    const double b = linear_quantile(sorted, qs[k]);
    if (std::isnan(b)) throw ComputeError("a quantile of the values is NaN (infinities of both signs): no breakpoint");
    if (!breaks.empty() && b == breaks.back()) {
      if (!allow_duplicates) throw DuplicateError("quantiles are not unique while allow_duplicates=False");
      continue;  // merged into the previous bin
    }
    breaks.push_back(b);
    if (!labels.empty()) kept_labels.push_back(labels[k]);
  }
  if (!labels.empty()) kept_labels.push_back(labels.back());
  const std::vector<std::string> names = labels.empty() ? interval_labels(breaks, left_closed) : kept_labels;
  auto& global = Categories::global();
  std::vector<uint32_t> code_of_bin;
  for (const auto& n : names) code_of_bin.push_back(global->get_or_insert(n));
  const auto bins = bin_indices(*f, breaks, left_closed);
  ArrayRef codes = codes_array(bins, code_of_bin, DataType::categorical());
  if (!include_breaks) return codes;
  return with_breaks(bins, breaks, codes, out_dtype);
}

}  // namespace frazil::compute
