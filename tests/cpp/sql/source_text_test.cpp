#include "frazil/sql/source_text.hpp"

#include <gtest/gtest.h>

using namespace frazil;
using namespace frazil::sql;

TEST(SqlSourceText, DescribesLineColumnAndCaret) {
  SourceText src("select a\nfrom t\nwhere l_shipdte > 1");
  const std::string d = src.describe(22);
  EXPECT_NE(d.find("line 3, column 7"), std::string::npos) << d;
  EXPECT_NE(d.find("where l_shipdte > 1"), std::string::npos);
  EXPECT_NE(d.find("\n        ^"), std::string::npos) << d;
  EXPECT_EQ(src.describe(-1), "");
}

TEST(SqlSourceText, FailAtThrowsTheKindWithThePosition) {
  SourceText src("select x");
  try {
    fail_at(ErrorKind::ColumnNotFound, src, 7, "column 'x' not found");
    FAIL();
  } catch (const ColumnNotFoundError& e) {
    EXPECT_NE(std::string(e.what()).find("column 'x' not found at line 1, column 8"), std::string::npos) << e.what();
  }
}

TEST(SqlSourceText, DidYouMean) {
  EXPECT_EQ(did_you_mean("l_shipdte", {"l_orderkey", "l_shipdate", "l_commitdate"}), "; did you mean 'l_shipdate'?");
  EXPECT_EQ(did_you_mean("SUMX", {"sum", "avg"}), "; did you mean 'sum'?");
  EXPECT_EQ(did_you_mean("zzzzzz", {"a", "b"}), "");
  EXPECT_EQ(did_you_mean("a", {}), "");
}
