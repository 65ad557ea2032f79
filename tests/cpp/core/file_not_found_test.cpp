#include "frazil/core/file_not_found.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "frazil/core/schema.hpp"

using namespace frazil;

TEST(FileNotFound, ColumnNotFoundSuggestsAsPolars) {
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

TEST(FileNotFound, NamesThePathAndASibling) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "frazil_file_not_found_test";
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
