#include "frazil/dsl/statistics.hpp"

#include <limits>

namespace frazil::dsl {

namespace {

// Pearson's r of x and y (Float64, null on the same rows): two passes, the deviations from
// the means summed. No row: 0 / 0, NaN.
Expr pearson(const Expr& x, const Expr& y) {
  const Expr dx = x - x.mean();
  const Expr dy = y - y.mean();
  return (dx * dy).sum() / ((dx * dx).sum() * (dy * dy).sum()).sqrt();
}

// The Float64 statistic r of a and b in the float Polars gives it (Float32 of two Float32
// sides): functions/statistics.cpp's float_of_supertype, typed by one row of each side.
Expr in_statistic_float(const Expr& r, const Expr& a, const Expr& b) {
  return r.function("float_of_supertype", {a.first(), b.first()});
}

}  // namespace

Expr corr(const Expr& a, const Expr& b) {
  const Expr both = a.is_not_null() & b.is_not_null();
  const Expr x = when(both).then(a.cast(DataType::float64()));
  const Expr y = when(both).then(b.cast(DataType::float64()));
  return in_statistic_float(when(both.sum() > lit(int64_t{0})).then(pearson(x, y)), a, b);
}

Expr spearman_corr(const Expr& a, const Expr& b, bool propagate_nans) {
  const Expr both = a.is_not_null() & b.is_not_null();
  const Expr::Keywords average = {{"method", std::string("average")}};
  const Expr x = a.filter(both).function("rank", {}, average);
  const Expr y = b.filter(both).function("rank", {}, average);
  const Expr r = in_statistic_float(pearson(x, y), a, b);
  if (!propagate_nans) return r;
  // (Polars ranks NaN above every number unless asked to propagate it.)
  const auto nan_in = [&](const Expr& e) { return e.filter(both).cast(DataType::float64()).is_nan().any(); };
  // (r first: the result is named after a, as without propagate_nans.)
  return when((nan_in(a) | nan_in(b)).not_()).then(r).otherwise(lit(std::numeric_limits<double>::quiet_NaN()));
}

}  // namespace frazil::dsl
