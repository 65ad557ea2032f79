#include "frazil/core/dtype.hpp"

#include <gtest/gtest.h>

#include "frazil/core/categorical_array.hpp"

using namespace frazil;

// Parquet footers name each column's dtype in to_string's text; parse_dtype reads it back.
TEST(ParseDtype, ReadsWhatToStringWrites) {
  const DataType nested = DataType::struct_(
      {Field{"x", DataType::categorical()}, Field{"n, m", DataType::int64()},
       Field{"l", DataType::list(DataType::struct_({Field{"d", DataType::datetime(TimeUnit::Milliseconds, "UTC")}}))}});
  for (const DataType& t : {nested, DataType::list(nested), DataType::struct_({})}) {
    auto back = parse_dtype(t.to_string());
    ASSERT_TRUE(back.has_value()) << t.to_string();
    EXPECT_EQ(*back, t) << t.to_string();
  }
}

TEST(ParseDtype, RefusesMalformedAndTooDeepTexts) {
  for (const char* bad : {"Struct({'x': Int64", "Struct({'x' Int64})", "Struct({'x': Nope})",
                          "Struct({'x': List(Int64})"})
    EXPECT_FALSE(parse_dtype(bad).has_value()) << bad;
  // A footer is input: its nesting is bounded, never a deep recursion.
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "List(";
  deep += "Int64" + std::string(100000, ')');
  EXPECT_FALSE(parse_dtype(deep).has_value());
}

TEST(StringsForCategories, ReplacesCategoriesAtAnyDepth) {
  const DataType t = DataType::list(DataType::struct_({Field{"c", DataType::categorical()}, Field{"i", DataType::int32()}}));
  EXPECT_EQ(strings_for_categories(t),
            DataType::list(DataType::struct_({Field{"c", DataType::string()}, Field{"i", DataType::int32()}})));
  EXPECT_EQ(strings_for_categories(DataType::int64()), DataType::int64());
}
