// Unnest is a projection of struct fields (struct.unnest / struct.field): projection
// pushdown reaches through it, so a query that reads one field reads only its struct.
#include "frazil/dsl/struct_namespace.hpp"
#include "frazil/optimizer/pushdown/projection_pushdown.hpp"
#include "pushdown_test_util.hpp"

using namespace frazil;
using namespace frazil::pushdown_test;
using optimizer::projection_pushdown;

namespace {

// s: {a, g} and b beside it.
LazyFrame nested() {
  return LazyFrame::from_frame(frame()).select({dsl::as_struct({col("a"), col("g")}).alias("s"), col("b")});
}

}  // namespace

TEST(UnnestPushdown, OneFieldReadsOnlyItsStruct) {
  // Materialized first, so the scan's projection is the frame's two columns (s, b).
  LazyFrame lf = LazyFrame::from_frame(nested().collect());
  Plan plan(lf.select({col("s").struct_().unnest()}).select({col("g")}));
  plan.apply(projection_pushdown);
  const std::string p = plan.explain();
  EXPECT_TRUE(contains(p, "PROJECT[\"s\"] 1/2 COLUMNS")) << p;
  DataFrame out = plan.run();
  ASSERT_EQ(out.width(), 1u);
  EXPECT_EQ(out.column(0).name(), "g");
}

TEST(UnnestPushdown, SeveralFieldsSelectInTheStructsOrder) {
  // As Polars: the fields the names pick, in the struct's field order.
  DataFrame out = nested().select({col("s").struct_().fields({"g", "a"}), col("b")}).collect();
  ASSERT_EQ(out.width(), 3u);
  EXPECT_EQ(out.column(0).name(), "a");
  EXPECT_EQ(out.column(1).name(), "g");
  EXPECT_THROW(nested().select({col("b").struct_().unnest()}).collect(), SchemaError);
}
