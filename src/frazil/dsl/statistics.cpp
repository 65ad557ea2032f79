#include "frazil/dsl/statistics.hpp"

namespace frazil::dsl {

Expr corr(const Expr& a, const Expr& b) {
  const Expr both = a.is_not_null() & b.is_not_null();
  const Expr x = when(both).then(a.cast(DataType::float64()));
  const Expr y = when(both).then(b.cast(DataType::float64()));
  const Expr dx = x - x.mean();
  const Expr dy = y - y.mean();
  const Expr r = (dx * dy).sum() / ((dx * dx).sum() * (dy * dy).sum()).sqrt();
  return when(both.sum() > lit(int64_t{0})).then(r);
}

}  // namespace frazil::dsl
