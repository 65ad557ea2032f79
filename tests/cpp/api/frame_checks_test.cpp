// LazyFrame::filter of several predicates (combined with &) and the eager vstack's checks,
// which C++ users get as Python users do.
#include <gtest/gtest.h>

#include "frazil/frazil.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

namespace {

DataFrame ints(const std::string& name, std::vector<int64_t> values) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (int64_t v : values) b.push(v);
  return DataFrame({Column(name, b.finish())});
}

}  // namespace

TEST(FilterPredicates, EveryPredicateMustHold) {
  LazyFrame lf = LazyFrame::from_frame(ints("a", {1, 2, 3, 4, 5}));
  DataFrame out = lf.filter(std::vector<dsl::Expr>{col("a") > lit(int64_t{1}), col("a") < lit(int64_t{5})}).collect();
  EXPECT_EQ(out.height(), 3);
  EXPECT_THROW(lf.filter(std::vector<dsl::Expr>{}), InvalidOperationError);
}

TEST(Vstack, ChecksWidthNamesAndDtypes) {
  EXPECT_EQ(vstack({ints("a", {1}), ints("a", {2, 3})}).height(), 3);
  EXPECT_THROW(vstack({ints("a", {1}), ints("b", {2})}), ShapeError);
  EXPECT_THROW(vstack({ints("a", {1}), DataFrame({ints("a", {1}).column(0), ints("b", {1}).column(0)})}), ShapeError);
  PrimitiveBuilder<double> f(DataType::float64());
  f.push(1.0);
  EXPECT_THROW(vstack({ints("a", {1}), DataFrame({Column("a", f.finish())})}), SchemaError);
  EXPECT_THROW(vstack({}), InvalidOperationError);
}

TEST(Vstack, FrameOfNoColumnsTakesWhatIsStackedOntoIt) {
  const DataFrame none(std::vector<Column>{});
  EXPECT_EQ(vstack({none, none, ints("a", {1, 2})}).height(), 2);
  EXPECT_EQ(vstack({none, ints("a", {1}), ints("a", {2})}).schema().size(), 1u);
  EXPECT_THROW(vstack({ints("a", {1}), none}), ShapeError);  // only a leading one, as Polars
  EXPECT_EQ(vstack({none}).schema().size(), 0u);
}
