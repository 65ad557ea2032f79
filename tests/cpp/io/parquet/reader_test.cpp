// Reads the pyarrow-written fixtures (every codec, encoding, page version, logical type,
// nesting) and checks every value against the fixture formulas.
#include <gtest/gtest.h>

#include "fixture_values.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/parquet/dataset.hpp"
#include "frazil/io/parquet/file_reader.hpp"

using namespace frazil;
using namespace frazil::io::parquet;
using namespace frazil::test_parquet;

namespace {

// Checks every cell of the named columns; reports the first few mismatches.
void check_frame(const DataFrame& df, int64_t rows, const std::vector<std::string>& names,
                 Scalar (*expected)(const std::string&, int64_t), DataType (*dtype)(const std::string&),
                 int64_t first_row = 0) {
  ASSERT_EQ(df.height(), rows);
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    const Column& col = df.column(name);
    ASSERT_EQ(col.dtype(), dtype(name)) << col.dtype().to_string();
    int failures = 0;
    for (int64_t i = 0; i < rows && failures < 3; ++i) {
      Scalar got = col.get(i), want = expected(name, first_row + i);
      if (!(got == want)) {
        ++failures;
        ADD_FAILURE() << "row " << first_row + i << ": got " << got.to_string() << " want " << want.to_string();
      }
    }
  }
}

void check_flat_file(const std::string& file, int64_t rows, std::vector<std::string> names = flat_names()) {
  SCOPED_TRACE(file);
  DataFrame df = read_parquet(fixture(file));
  check_frame(df, rows, names, &flat_value, &flat_dtype);
}

}  // namespace

class Codecs : public ::testing::TestWithParam<std::string> {};

TEST_P(Codecs, FlatTypesV1) { check_flat_file("flat_" + GetParam() + ".parquet", 200); }

INSTANTIATE_TEST_SUITE_P(Parquet, Codecs, ::testing::Values("none", "snappy", "gzip", "zstd", "lz4"));

class CodecsV2 : public ::testing::TestWithParam<std::string> {};
TEST_P(CodecsV2, FlatTypesV2) { check_flat_file("flat_v2_" + GetParam() + ".parquet", 200); }
INSTANTIATE_TEST_SUITE_P(Parquet, CodecsV2, ::testing::Values("none", "snappy", "zstd"));

TEST(ParquetReader, PlainEncoding) { check_flat_file("enc_plain.parquet", 1000); }
TEST(ParquetReader, RleDictionary) { check_flat_file("enc_dict.parquet", 1000); }
TEST(ParquetReader, PlainDictionaryFormat1) {
  check_flat_file("enc_dict_v1.parquet", 1000,
                  {"i8", "i16", "i32", "i64", "f32", "f64", "bool", "str", "bin", "date", "ts_ms", "ts_us",
                   "time_ms", "dec9", "dec18", "dec38", "fixed", "req_i64", "req_str"});
}
TEST(ParquetReader, DeltaAndByteStreamSplitV1) { check_flat_file("enc_delta_v1.parquet", 1000); }
TEST(ParquetReader, DeltaAndByteStreamSplitV2) { check_flat_file("enc_delta_v2.parquet", 1000); }
TEST(ParquetReader, DeltaByteArrayAndIntegerByteStreamSplit) { check_flat_file("enc_delta2.parquet", 1000); }
TEST(ParquetReader, DecimalsStoredAsIntegers) { check_flat_file("decimal_int.parquet", 200, {"dec9", "dec18", "dec38"}); }

TEST(ParquetReader, Int96IsDatetimeNs) { check_flat_file("int96.parquet", 200, {"ts_ns"}); }

TEST(ParquetReader, NestedListsStructsMapsV1AndV2) {
  for (const char* f : {"nested_v1.parquet", "nested_v2.parquet"}) {
    SCOPED_TRACE(f);
    DataFrame df = read_parquet(fixture(f));
    check_frame(df, 120, nested_names(), &nested_value, &nested_dtype);
  }
}

TEST(ParquetReader, SchemaAndMetadata) {
  auto f = ParquetFile::open(fixture("flat_zstd.parquet"));
  EXPECT_EQ(f->num_rows(), 200);
  EXPECT_EQ(f->num_row_groups(), 4u);
  EXPECT_EQ(f->row_group_num_rows(3), 200 - 3 * 64);
  const Schema& s = f->schema();
  ASSERT_EQ(s.size(), flat_names().size());
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(s.field(i).name, flat_names()[i]);
    EXPECT_EQ(s.field(i).dtype, flat_dtype(flat_names()[i])) << s.field(i).name;
  }
  EXPECT_THROW(f->row_group_num_rows(4), OutOfBoundsError);
}

TEST(ParquetReader, RowGroupStatistics) {
  auto f = ParquetFile::open(fixture("flat_snappy.parquet"));
  for (size_t g = 0; g < f->num_row_groups(); ++g) {
    RowGroupStats st = f->row_group_stats(g);
    EXPECT_EQ(st.row_group, g);
    int64_t lo = int64_t(g) * 64, hi = std::min<int64_t>(lo + 64, 200);
    EXPECT_EQ(st.num_rows, hi - lo);
    for (const char* name : {"i32", "u64", "str", "date", "ts_us", "dec38", "f64", "bool", "u32", "i8"}) {
      SCOPED_TRACE(name);
      const ColumnStatistics* cs = st.get(name);
      ASSERT_NE(cs, nullptr);
      // Recompute min/max/null_count over the group with Scalar ordering by type.
      std::optional<Scalar> mn, mx;
      int64_t nulls = 0;
      for (int64_t i = lo; i < hi; ++i) {
        Scalar v = flat_value(name, i);
        if (v.is_null()) {
          ++nulls;
          continue;
        }
        auto less = [](const Scalar& a, const Scalar& b) {
          if (a.dtype().is_float()) return a.as_double() < b.as_double();
          if (a.dtype().is_unsigned_integer()) return a.as_uint64() < b.as_uint64();
          if (a.dtype().id() == TypeId::Decimal) return a.as_int128() < b.as_int128();
          if (a.dtype().is_boolean()) return a.as_bool() < b.as_bool();
          if (a.dtype().is_view()) return a.as_string() < b.as_string();
          return a.as_int64() < b.as_int64();
        };
        if (!mn || less(v, *mn)) mn = v;
        if (!mx || less(*mx, v)) mx = v;
      }
      ASSERT_TRUE(cs->null_count.has_value());
      EXPECT_EQ(*cs->null_count, nulls);
      ASSERT_TRUE(cs->min && cs->max);
      EXPECT_EQ(cs->min->to_string(), mn->to_string());
      EXPECT_EQ(cs->max->to_string(), mx->to_string());
      EXPECT_EQ(cs->min->dtype(), flat_dtype(name));
    }
    EXPECT_EQ(st.get("no_such_column"), nullptr);
  }
}

TEST(ParquetReader, ProjectionReadsOnlyRequestedColumnsInOrder) {
  ParquetReadOptions opt;
  opt.columns = std::vector<std::string>{"str", "i8", "dec38"};
  DataFrame df = read_parquet(fixture("flat_gzip.parquet"), opt);
  ASSERT_EQ(df.names(), (std::vector<std::string>{"str", "i8", "dec38"}));
  check_frame(df, 200, {"str", "i8", "dec38"}, &flat_value, &flat_dtype);
  opt.columns = std::vector<std::string>{"nope"};
  EXPECT_THROW(read_parquet(fixture("flat_gzip.parquet"), opt), ColumnNotFoundError);
  opt.columns = std::vector<std::string>{};
  DataFrame none = read_parquet(fixture("flat_gzip.parquet"), opt);
  EXPECT_EQ(none.width(), 0u);
  EXPECT_EQ(none.height(), 200);
}

TEST(ParquetReader, NRowsStopsEarly) {
  for (int64_t n : {0, 1, 63, 64, 65, 130, 199, 200, 500}) {
    SCOPED_TRACE(n);
    ParquetReadOptions opt;
    opt.n_rows = n;
    DataFrame df = read_parquet(fixture("flat_zstd.parquet"), opt);
    check_frame(df, std::min<int64_t>(n, 200), flat_names(), &flat_value, &flat_dtype);
    DataFrame nested = read_parquet(fixture("nested_v2.parquet"), opt);
    check_frame(nested, std::min<int64_t>(n, 120), nested_names(), &nested_value, &nested_dtype);
  }
}

TEST(ParquetReader, RowGroupPredicateSkipsGroups) {
  ParquetReadOptions opt;
  int calls = 0;
  // Keep groups whose i64 range may hold a value > 0 with row index >= 128 (groups 2, 3).
  opt.row_group_predicate = [&](const RowGroupStats& st) {
    ++calls;
    const ColumnStatistics* cs = st.get("req_i64");
    return !(cs && cs->max && cs->max->as_int64() < 128 * 3);
  };
  DataFrame df = read_parquet(fixture("flat_none.parquet"), opt);
  EXPECT_EQ(calls, 4);
  check_frame(df, 200 - 128, flat_names(), &flat_value, &flat_dtype, 128);
}

TEST(ParquetReader, ReadRowGroupDirectly) {
  auto f = ParquetFile::open(fixture("nested_v1.parquet"));
  ASSERT_EQ(f->num_row_groups(), 3u);
  DataFrame df = f->read_row_group(1);
  check_frame(df, 50, nested_names(), &nested_value, &nested_dtype, 50);
  std::vector<std::string> cols = {"ll"};
  DataFrame part = f->read_row_group(2, &cols, 7);
  check_frame(part, 7, cols, &nested_value, &nested_dtype, 100);
}

TEST(ParquetReader, StringsDecodeIntoViewsOverPageBuffers) {
  auto f = ParquetFile::open(fixture("enc_dict.parquet"));
  std::vector<std::string> cols = {"str"};
  DataFrame df = f->read_row_group(0, &cols);
  ArrayRef a = df.column(0).as_array();
  // Dictionary strings point into the dictionary page: a handful of data buffers, not
  // one copy per value.
  EXPECT_LE(a->buffers().size(), 3u);
  for (int64_t i = 0; i < a->length(); ++i) {
    if (a->is_null(i)) continue;
    EXPECT_EQ(a->str_value(i), s_val(i));
  }
}

TEST(ParquetDataset, MultipleFilesByGlobAndDirectory) {
  DataFrame df = read_parquet(fixture("multi/part-*.parquet"));
  check_frame(df, 180, {"i64", "str"}, &flat_value, &flat_dtype);
  DataFrame dir = read_parquet(fixture("multi"));
  check_frame(dir, 180, {"i64", "str"}, &flat_value, &flat_dtype);
  EXPECT_EQ(dir.width(), 2u);  // no key=value segments: no hive columns
  EXPECT_THROW(read_parquet(fixture("multi/nothing-*.parquet")), IOError);
  EXPECT_THROW(read_parquet(fixture("does_not_exist.parquet")), IOError);
  ParquetReadOptions opt;
  opt.n_rows = 70;
  check_frame(read_parquet(fixture("multi/*.parquet"), opt), 70, {"i64", "str"}, &flat_value, &flat_dtype);
}

TEST(ParquetDataset, HivePartitions) {
  DataFrame df = read_parquet(fixture("hive"));
  ASSERT_EQ(df.names(), (std::vector<std::string>{"i64", "str", "year", "month"}));
  EXPECT_EQ(df.column("year").dtype(), DataType::int64());
  EXPECT_EQ(df.column("month").dtype(), DataType::int64());
  check_frame(df, 100, {"i64", "str"}, &flat_value, &flat_dtype);
  for (int64_t i = 0; i < 100; ++i) {
    int64_t year = 2023 + i / 40;
    EXPECT_EQ(df.column("year").get(i), Scalar(DataType::int64(), year));
    Scalar month = df.column("month").get(i);
    if (i >= 80) EXPECT_TRUE(month.is_null());
    else EXPECT_EQ(month, Scalar(DataType::int64(), 1 + (i % 40) / 20));
  }
  // Pruning on a partition key through the statistics hook.
  ParquetReadOptions opt;
  opt.row_group_predicate = [](const RowGroupStats& st) {
    const ColumnStatistics* y = st.get("year");
    return y && y->min && y->min->as_int64() == 2024;
  };
  opt.columns = std::vector<std::string>{"month", "i64"};
  DataFrame y24 = read_parquet(fixture("hive"), opt);
  EXPECT_EQ(y24.names(), (std::vector<std::string>{"month", "i64"}));
  check_frame(y24, 40, {"i64"}, &flat_value, &flat_dtype, 40);
  EXPECT_EQ(read_parquet_schema(fixture("hive")).names(), (std::vector<std::string>{"i64", "str", "year", "month"}));
  opt = {};
  opt.hive_partitioning = false;
  EXPECT_EQ(read_parquet(fixture("hive"), opt).width(), 2u);
}

TEST(ParquetDataset, GlobMatching) {
  auto files = expand_paths(fixture("hive/**/*.parquet"));
  EXPECT_EQ(files.size(), 5u);
  files = expand_paths(fixture("hive/year=202[34]/month=1/*.parquet"));
  EXPECT_EQ(files.size(), 2u);
  files = expand_paths(fixture("flat_?2_*.parquet"));
  EXPECT_EQ(files.size(), 3u);
  auto parts = hive_partitions("/d", "/d/a=1/b=x%2Fy/c=/f.parquet");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1].second.value(), "x/y");
  EXPECT_FALSE(parts[2].second.has_value());
}

TEST(ParquetReader, FilesWrittenByPolars) {
  check_flat_file("polars_flat.parquet", 200);
  DataFrame df = read_parquet(fixture("polars_nested.parquet"));
  check_frame(df, 120, nested_names(), &nested_value, &nested_dtype);
}
