#include "frazil/plan/conversion/plan_context.hpp"

#include <gtest/gtest.h>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/core/builder.hpp"

using namespace frazil;
using dsl::col;
using dsl::lit;

namespace {

LazyFrame frame() {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  ViewBuilder s;
  a.push(1);
  s.push("x");
  return LazyFrame::from_frame(DataFrame({Column("amount", a.finish()), Column("name", s.finish())}));
}

template <typename F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// The failing operation and the plan resolved below it, as Polars prints them.
TEST(PlanContext, SchemaErrorsShowThePlanUntilTheFailure) {
  std::string m = message_of([] { frame().filter(col("amount") > lit(1)).with_columns({col("nam")}).collect_schema(); });
  EXPECT_NE(m.find("unable to find column \"nam\""), std::string::npos) << m;
  EXPECT_NE(m.find("Did you mean \"name\"?"), std::string::npos) << m;
  EXPECT_NE(m.find("Resolved plan until failure:\n\n\t---> FAILED HERE RESOLVING 'with_columns' <---\nFILTER"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("DF [\"amount\", \"name\"]"), std::string::npos) << m;
  EXPECT_NE(m.find("context stack:\n\t[1] 'with_columns'"), std::string::npos) << m;
}

// The innermost failing node names itself once; outer nodes add nothing.
TEST(PlanContext, OnlyTheFailingNodeIsNamed) {
  std::string m = message_of([] { frame().select({col("zzz")}).sort({col("amount")}).head(1).collect_schema(); });
  EXPECT_NE(m.find("RESOLVING 'select'"), std::string::npos) << m;
  EXPECT_EQ(m.find("RESOLVING 'sort'"), std::string::npos) << m;
  EXPECT_EQ(m.find("Did you mean"), std::string::npos) << m;
  EXPECT_TRUE(plan::has_plan_context(m));
}

TEST(PlanContext, KindIsKept) {
  EXPECT_THROW(frame().select({col("nope")}).collect_schema(), ColumnNotFoundError);
  EXPECT_THROW(frame().filter(col("amount")).collect_schema(), InvalidOperationError);
}
