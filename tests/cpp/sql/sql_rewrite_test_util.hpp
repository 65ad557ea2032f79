// Small frames and an order-insensitive comparison for the SQL translation's plan rewrites.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/frazil.hpp"

namespace frazil::sql_test {

inline Column int64s(const std::string& name, const std::vector<std::optional<int64_t>>& values) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (const auto& v : values) {
    if (v) b.push(*v);
    else b.push_null();
  }
  return Column(name, b.finish());
}

inline Column float64s(const std::string& name, const std::vector<double>& values) {
  PrimitiveBuilder<double> b(DataType::float64());
  for (double v : values) b.push(v);
  return Column(name, b.finish());
}

// The frame sorted by every column, so that plans with other row orders compare equal.
inline DataFrame sorted(const LazyFrame& lf) {
  DataFrame df = lf.collect();
  std::vector<dsl::Expr> by;
  for (const auto& name : df.schema().names()) by.push_back(dsl::col(name));
  return LazyFrame::from_frame(df).sort(by).collect();
}

}  // namespace frazil::sql_test
