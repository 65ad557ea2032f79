#include "frazil/core/suggest.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "frazil/core/file_not_found.hpp"
#include "frazil/core/schema.hpp"

using namespace frazil;

TEST(Suggest, EditDistance) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("amout", "amount"), 1u);
}

TEST(Suggest, ClosestWithinAThirdOfTheLength) {
  std::vector<std::string> names{"amount", "name", "l_shipdate"};
  EXPECT_EQ(closest_name("amout", names), "amount");
  EXPECT_EQ(closest_name("nmae", names), std::nullopt);  // two edits, one allowed for 4 letters
  EXPECT_EQ(closest_name("nam", names), "name");
  EXPECT_EQ(closest_name("l_shipdat", names), "l_shipdate");
  EXPECT_EQ(closest_name("NAME", names), "name");  // case alone never hides a match
  EXPECT_EQ(closest_name("zzzzzz", names), std::nullopt);
  EXPECT_EQ(closest_name("x", {}), std::nullopt);
  EXPECT_EQ(did_you_mean("amout", names), "\n\nDid you mean \"amount\"?");
  EXPECT_EQ(did_you_mean("qqqqqq", names), "");
}

TEST(Suggest, ColumnNotFoundSuggests) {
  Schema s({Field{"amount", DataType::int64()}, Field{"name", DataType::string()}});
  try {
    s.dtype_of("amout");
    FAIL() << "no error";
  } catch (const ColumnNotFoundError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("unable to find column \"amout\""), std::string::npos) << m;
    EXPECT_NE(m.find("Did you mean \"amount\"?"), std::string::npos) << m;
  }
}

TEST(Suggest, FileNotFoundNamesThePathAndASibling) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "frazil_suggest_test";
  fs::create_directories(dir);
  std::ofstream(dir / "lineitem.parquet") << "x";
  try {
    throw_file_not_found((dir / "lineitm.parquet").string());
  } catch (const IOError& e) {  // still an IOError for C++ callers
    EXPECT_NE(dynamic_cast<const FileNotFoundError*>(&e), nullptr);
    std::string m = e.what();
    EXPECT_NE(m.find("No such file or directory (os error 2): "), std::string::npos) << m;
    EXPECT_NE(m.find("Did you mean \"" + (dir / "lineitem.parquet").string() + "\"?"), std::string::npos) << m;
  }
  fs::remove_all(dir);
}
