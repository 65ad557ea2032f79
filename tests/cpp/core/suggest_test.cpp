#include "frazil/core/suggest.hpp"

#include <gtest/gtest.h>

using namespace frazil;

TEST(Suggest, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("l_shipdte", "l_shipdate"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(Suggest, ClosestNamesWithinAThirdOfTheLength) {
  const std::vector<std::string> names{"l_shipdate", "l_commitdate", "l_receiptdate", "L_SHIPDATE", "x"};
  EXPECT_EQ(closest_names("l_shipdte", names), (std::vector<std::string>{"l_shipdate"}));
  EXPECT_EQ(closest_names("l_shipdate", names), (std::vector<std::string>{"L_SHIPDATE"}));  // case only
  EXPECT_TRUE(closest_names("quantity", names).empty());
  EXPECT_EQ(did_you_mean("l_shipdte", names), "; did you mean 'l_shipdate'?");
  EXPECT_EQ(did_you_mean("zzz", names), "");
  EXPECT_EQ(did_you_mean("y", names), "; did you mean 'x'?");
}

TEST(Suggest, ColumnHintInPolarsWording) {
  const std::vector<std::string> names{"amount", "name"};
  EXPECT_EQ(closest_name("amout", names), "amount");
  EXPECT_EQ(closest_name("nmae", names), std::nullopt);  // two edits, one allowed for 4 letters
  EXPECT_EQ(did_you_mean_column("amout", names), "\n\nDid you mean \"amount\"?");
  EXPECT_EQ(did_you_mean_column("qqqqqq", names), "");
}
