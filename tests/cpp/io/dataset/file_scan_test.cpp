#include "frazil/io/dataset/file_scan.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/file_not_found.hpp"
#include "frazil/io/dataset/hive.hpp"
#include "frazil/io/dataset/paths.hpp"
#include "frazil/io/parquet/parquet_format.hpp"
#include "frazil/io/parquet/writer.hpp"

using namespace frazil;
using namespace frazil::io;
namespace fs = std::filesystem;

namespace {

DataFrame ints(const std::string& name, std::vector<int64_t> v) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (auto x : v) b.push(x);
  return DataFrame({Column(name, b.finish())});
}

class FileScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("frazil_file_scan_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "k=1");
    fs::create_directories(dir_ / "k=2");
    parquet::write_parquet(ints("v", {1, 2}), (dir_ / "k=1" / "a.parquet").string());
    parquet::write_parquet(ints("v", {3}), (dir_ / "k=2" / "b.parquet").string());
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(FileScanTest, DirectoryHiveRowIndexAndPaths) {
  FileScanArgs a;
  a.paths = {dir_.string()};
  a.row_index_name = "ri";
  a.row_index_offset = 10;
  a.include_file_paths = "file";
  FileScan scan(a, std::make_shared<parquet::ParquetFormat>());
  EXPECT_EQ(scan.schema().names(), (std::vector<std::string>{"ri", "v", "k", "file"}));
  EXPECT_EQ(scan.schema().dtype_of("k"), DataType::int64());
  DataFrame df = scan.read(nullptr, std::nullopt, {}, {}, {});
  ASSERT_EQ(df.height(), 3);
  EXPECT_EQ(df.column(0).get(2).to_string(), "12");
  EXPECT_EQ(df.column(2).get(2).to_string(), "2");
  std::vector<std::string> cols{"k"};
  // Only the partitions the predicate keeps are read.
  int calls = 0;
  DataFrame pruned = scan.read(&cols, std::nullopt, {}, [&](const parquet::RowGroupStats& st) {
    ++calls;
    return st.get("k")->min->to_string() == "2";
  }, {});
  EXPECT_EQ(calls, 0);  // a row index keeps every source (its numbering needs them all)
  FileScanArgs b;
  b.paths = {dir_.string()};
  FileScan unnumbered(b, std::make_shared<parquet::ParquetFormat>());
  pruned = unnumbered.read(&cols, std::nullopt, {}, [](const parquet::RowGroupStats& st) {
    return st.get("k")->min->to_string() == "2";
  }, {});
  EXPECT_EQ(pruned.height(), 1);
  EXPECT_EQ(unnumbered.read(nullptr, 2, {}, {}, {}).height(), 2);
}

TEST_F(FileScanTest, MissingSourcesAreFileNotFound) {
  FileScanArgs a;
  a.paths = {(dir_ / "nope.parquet").string()};
  EXPECT_THROW(FileScan(a, std::make_shared<parquet::ParquetFormat>()), FileNotFoundError);
  // A glob that matches nothing is a scan without sources: reading it raises (as Polars),
  // and with a schema given it reads as an empty frame.
  a.paths = {(dir_ / "*.csv").string()};
  FileScan none(a, std::make_shared<parquet::ParquetFormat>());
  EXPECT_THROW(none.read(nullptr, std::nullopt, {}, {}, {}), ComputeError);
  a.schema = Schema({Field("x", DataType::int64())});
  EXPECT_EQ(FileScan(a, std::make_shared<parquet::ParquetFormat>()).read(nullptr, std::nullopt, {}, {}, {}).height(), 0);
}

TEST(Hive, PartitionsAndTypes) {
  auto kv = hive_partitions("/d", "/d/a=1/b=x%2Fy/c=/f.parquet");
  ASSERT_EQ(kv.size(), 3u);
  EXPECT_EQ(kv[1].second, "x/y");
  HivePartitions h = read_hive_partitions({"/d/a=1/b=2020-01-01/f", "/d/a=2.5/b=__HIVE_DEFAULT_PARTITION__/f"}, {"/d", "/d"},
                                          Schema(), std::nullopt, true);
  EXPECT_EQ(h.schema.dtype_of("a"), DataType::float64());
  EXPECT_EQ(h.schema.dtype_of("b"), DataType::date());
  EXPECT_TRUE(h.values.column(1).get(1).is_null());
}

TEST(CastPolicy, NamesTheOptionThatWouldAllowIt) {
  CastPolicy p;
  try {
    needs_cast("x", DataType::int64(), DataType::int32(), p);
    FAIL();
  } catch (const SchemaError& e) {
    EXPECT_NE(std::string(e.what()).find("integer_cast='upcast'"), std::string::npos);
  }
  p.integer_upcast = true;
  EXPECT_TRUE(needs_cast("x", DataType::int64(), DataType::int32(), p));
  EXPECT_THROW(needs_cast("x", DataType::int32(), DataType::int64(), p), SchemaError);  // not lossless
  EXPECT_FALSE(needs_cast("x", DataType::int64(), DataType::int64(), p));
}

}  // namespace
