// write_parquet -> read back, for every dtype, codec, nesting, nulls, slices and chunks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include "../../compute/elementwise_test_util.hpp"
#include "fixture_values.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/parquet/parquet.hpp"

using namespace frazil;
using namespace frazil::io::parquet;
using namespace frazil::test_parquet;

namespace {

DataFrame read_all(const std::vector<uint8_t>& bytes) {
  Buffer b = Buffer::allocate(bytes.size());
  std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  auto f = ParquetFile::from_buffer(b, "<memory>");
  std::vector<DataFrame> parts;
  for (size_t g = 0; g < f->num_row_groups(); ++g) parts.push_back(f->read_row_group(g));
  if (parts.empty()) return DataFrame::empty_with_schema(f->schema());
  return concat_frames(parts);
}

void expect_same(const DataFrame& got, const DataFrame& want) {
  ASSERT_EQ(got.names(), want.names());
  ASSERT_EQ(got.height(), want.height());
  for (size_t c = 0; c < want.width(); ++c) {
    SCOPED_TRACE(want.column(c).name());
    ASSERT_EQ(got.column(c).dtype(), want.column(c).dtype());
    int failures = 0;
    for (int64_t i = 0; i < want.height() && failures < 3; ++i) {
      Scalar a = got.column(c).get(i), b = want.column(c).get(i);
      if (!(a == b)) {
        ++failures;
        ADD_FAILURE() << "row " << i << ": got " << a.to_string() << " want " << b.to_string();
      }
    }
  }
}

DataFrame roundtrip(const DataFrame& df, const ParquetWriteOptions& opt = {}) {
  return read_all(write_parquet_to_buffer(df, opt));
}

// Every flat fixture dtype plus the ones pyarrow fixtures lack (Duration, zoned datetimes).
DataFrame all_types_frame(int64_t n) {
  std::vector<Column> cols;
  for (const auto& name : flat_names()) {
    std::vector<Scalar> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(flat_value(name, i));
    cols.emplace_back(name, array_of(flat_dtype(name), v));
  }
  std::vector<Scalar> dur, paris, nan;
  for (int64_t i = 0; i < n; ++i) {
    dur.push_back(i % 4 == 1 ? Scalar::null(DataType::duration(TimeUnit::Microseconds))
                             : Scalar(DataType::duration(TimeUnit::Microseconds), int64_t(i * 1000003 - 77)));
    paris.push_back(Scalar(DataType::datetime(TimeUnit::Nanoseconds, "Europe/Paris"), int64_t(i) * 999999999937));
    double d = i % 7 == 0 ? std::nan("") : i % 7 == 1 ? -0.0 : i % 7 == 2 ? INFINITY : i * -1.5;
    nan.push_back(Scalar(DataType::float64(), d));
  }
  cols.emplace_back("dur", array_of(DataType::duration(TimeUnit::Microseconds), dur));
  cols.emplace_back("paris", array_of(DataType::datetime(TimeUnit::Nanoseconds, "Europe/Paris"), paris));
  cols.emplace_back("nan", array_of(DataType::float64(), nan));
  return DataFrame(std::move(cols));
}

DataFrame nested_frame(int64_t n) {
  std::vector<Column> cols;
  for (const auto& name : nested_names()) {
    std::vector<Scalar> v;
    for (int64_t i = 0; i < n; ++i) v.push_back(nested_value(name, i));
    cols.emplace_back(name, array_of(nested_dtype(name), v));
  }
  return DataFrame(std::move(cols));
}

}  // namespace

class WriterCodecs : public ::testing::TestWithParam<ParquetCompression> {};

TEST_P(WriterCodecs, AllTypesRoundTrip) {
  DataFrame df = all_types_frame(300);
  ParquetWriteOptions opt;
  opt.compression = GetParam();
  opt.row_group_size = 128;
  opt.data_page_size = 700;
  expect_same(roundtrip(df, opt), df);
  DataFrame nested = nested_frame(150);
  expect_same(roundtrip(nested, opt), nested);
}

INSTANTIATE_TEST_SUITE_P(Parquet, WriterCodecs,
                         ::testing::Values(ParquetCompression::Uncompressed, ParquetCompression::Snappy,
                                           ParquetCompression::Gzip, ParquetCompression::Lz4,
                                           ParquetCompression::Zstd, ParquetCompression::Lz4Hadoop));

TEST(ParquetWriter, DefaultsAndDictionaryChoice) {
  DataFrame df = all_types_frame(1000);
  expect_same(roundtrip(df), df);
  ParquetWriteOptions plain;
  plain.dictionary = false;
  auto with_dict = write_parquet_to_buffer(df.select({"req_str"}));
  auto without = write_parquet_to_buffer(df.select({"req_str"}), plain);
  EXPECT_LT(with_dict.size(), without.size());
  expect_same(read_all(with_dict), df.select({"req_str"}));
  expect_same(read_all(without), df.select({"req_str"}));
  // Dictionary is only used when it pays: unique long strings stay PLAIN.
  ViewBuilder b;
  for (int i = 0; i < 500; ++i) b.push("unique string number " + std::to_string(i * 7919));
  DataFrame uniq({Column("u", b.finish())});
  Buffer buf = Buffer::allocate(1);
  auto bytes = write_parquet_to_buffer(uniq);
  Buffer mem = Buffer::allocate(bytes.size());
  std::memcpy(mem.mutable_data(), bytes.data(), bytes.size());
  auto f = ParquetFile::from_buffer(mem, "uniq");
  const auto& enc = f->metadata().row_groups[0].columns[0].meta_data->encodings;
  EXPECT_EQ(std::count(enc.begin(), enc.end(), Encoding::RleDictionary), 0);
  expect_same(read_all(bytes), uniq);
}

TEST(ParquetWriter, EmptyOneRowSlicedAndChunked) {
  DataFrame df = all_types_frame(50);
  expect_same(roundtrip(df.head(0)), df.head(0));
  expect_same(roundtrip(df.head(1)), df.head(1));
  // Sliced arrays (offset != 0) and columns of several chunks.
  DataFrame sliced = df.slice(13, 30);
  expect_same(roundtrip(sliced), sliced);
  DataFrame chunked = concat_frames({df.slice(0, 10), df.slice(10, 25), df.slice(35, 15)});
  ASSERT_GT(chunked.column(0).num_chunks(), 1u);
  expect_same(roundtrip(chunked), df);
  DataFrame nested = nested_frame(60);
  DataFrame nslice = nested.slice(7, 40);
  expect_same(roundtrip(nslice), nslice);
  DataFrame nchunks = concat_frames({nested.slice(0, 17), nested.slice(17, 43)});
  expect_same(roundtrip(nchunks), nested);
  expect_same(roundtrip(nested.head(1)), nested.head(1));
  expect_same(roundtrip(nested.head(0)), nested.head(0));
}

// Int128/UInt128 as Polars writes them (FIXED_LEN_BYTE_ARRAY(16), little-endian, no logical
// type, the dtype in ARROW:schema) and Float16 as its logical type; read back unchanged.
TEST(ParquetWriter, WideIntegersAndHalfFloats) {
  using frazil::test::N;
  using I = __int128;
  using U = unsigned __int128;
  const I big = static_cast<I>(~U{0} >> 1);
  ArrayRef i = frazil::test::make<I>(DataType::int128(), {I{1}, N, -big - 1, big, I{-2} << 100});
  ArrayRef u = frazil::test::make<U>(DataType::uint128(), {U{1}, ~U{0}, N, U{0}, U{1} << 64});
  ArrayRef h = compute::cast(*frazil::test::f64({1.5, N, -0.0, 65504.0, -INFINITY}), DataType::float16());
  DataFrame df({Column("i", i), Column("u", u), Column("h", h)});
  auto bytes = write_parquet_to_buffer(df);
  expect_same(read_all(bytes), df);
  Buffer mem = Buffer::allocate(bytes.size());
  std::memcpy(mem.mutable_data(), bytes.data(), bytes.size());
  const auto& elements = ParquetFile::from_buffer(mem, "wide")->metadata().schema;
  ASSERT_EQ(elements.size(), 4u);
  EXPECT_EQ(elements[1].type, PhysicalType::FixedLenByteArray);
  EXPECT_EQ(elements[1].type_length, 16);
  EXPECT_FALSE(elements[1].logical_type.has_value());
  EXPECT_EQ(elements[3].type_length, 2);
  EXPECT_EQ(elements[3].logical_type->kind, LogicalKind::Float16);
  // Row groups, slices and chunks.
  ParquetWriteOptions small;
  small.row_group_size = 2;
  expect_same(roundtrip(df, small), df);
  expect_same(roundtrip(df.slice(1, 3)), df.slice(1, 3));
  expect_same(roundtrip(concat_frames({df.slice(0, 2), df.slice(2, 3)})), df);
  expect_same(roundtrip(df.head(0)), df.head(0));
  // Inside a list there is no footer dtype to restore the integers: refused, not written wrong.
  const DataType list = DataType::list(DataType::int128());
  ArrayRef lists = array_of(list, {Scalar(list, i)});
  EXPECT_THROW(write_parquet_to_buffer(DataFrame({Column("l", lists)})), InvalidOperationError);
}

TEST(ParquetWriter, StatisticsAreWritten) {
  DataFrame df = all_types_frame(100);
  ParquetWriteOptions opt;
  opt.row_group_size = 40;
  auto bytes = write_parquet_to_buffer(df, opt);
  Buffer mem = Buffer::allocate(bytes.size());
  std::memcpy(mem.mutable_data(), bytes.data(), bytes.size());
  auto f = ParquetFile::from_buffer(mem, "stats");
  ASSERT_EQ(f->num_row_groups(), 3u);
  RowGroupStats st = f->row_group_stats(1);
  EXPECT_EQ(st.num_rows, 40);
  const ColumnStatistics* i64 = st.get("req_i64");
  ASSERT_TRUE(i64 && i64->min && i64->max);
  EXPECT_EQ(i64->min->as_int64(), 120);
  EXPECT_EQ(i64->max->as_int64(), 79 * 3);
  EXPECT_EQ(*i64->null_count, 0);
  const ColumnStatistics* u64 = st.get("u64");
  ASSERT_TRUE(u64 && u64->min);
  EXPECT_EQ(*u64->null_count, 8);
  const ColumnStatistics* nan = st.get("nan");  // NaN ignored, -0.0 widened
  ASSERT_TRUE(nan && nan->min && nan->max);
  EXPECT_EQ(nan->max->as_double(), INFINITY);
  EXPECT_EQ(nan->min->as_double(), -76 * 1.5);  // 77: NaN, 78: -0.0, 79: inf
  const ColumnStatistics* dur = st.get("dur");
  ASSERT_TRUE(dur && dur->min);
  EXPECT_EQ(dur->min->dtype(), DataType::duration(TimeUnit::Microseconds));
  const ColumnStatistics* s = st.get("str");
  ASSERT_TRUE(s && s->min && s->max);
  EXPECT_EQ(s->min->dtype(), DataType::string());
  ParquetWriteOptions nostats;
  nostats.statistics = false;
  auto b2 = write_parquet_to_buffer(df, nostats);
  Buffer m2 = Buffer::allocate(b2.size());
  std::memcpy(m2.mutable_data(), b2.data(), b2.size());
  EXPECT_EQ(ParquetFile::from_buffer(m2, "nostats")->row_group_stats(0).get("i64"), nullptr);
}

TEST(ParquetWriter, FilesOnDiskAndErrors) {
  auto dir = std::filesystem::temp_directory_path() / ("frazil_pq_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  DataFrame df = all_types_frame(64);
  std::string path = (dir / "x.parquet").string();
  write_parquet(df, path);
  expect_same(read_parquet(path), df);
  EXPECT_THROW(write_parquet(df, (dir / "missing" / "x.parquet").string()), IOError);
  ParquetWriteOptions bad;
  bad.row_group_size = 0;
  EXPECT_THROW(write_parquet(df, path, bad), InvalidOperationError);
  std::filesystem::remove_all(dir);
}

// Writes frazil-made files for tests/data/parquet/check_frazil_written.py when
// FRAZIL_PQ_VERIFY_DIR is set (pyarrow/polars cross-check; see that script).
TEST(ParquetWriter, FilesForExternalReaders) {
  const char* dir = std::getenv("FRAZIL_PQ_VERIFY_DIR");
  if (!dir) GTEST_SKIP() << "FRAZIL_PQ_VERIFY_DIR not set";
  ParquetWriteOptions opt;
  opt.row_group_size = 64;
  opt.data_page_size = 512;
  const std::pair<const char*, ParquetCompression> codecs[] = {
      {"zstd", ParquetCompression::Zstd},   {"snappy", ParquetCompression::Snappy},
      {"gzip", ParquetCompression::Gzip},   {"lz4", ParquetCompression::Lz4},
      {"none", ParquetCompression::Uncompressed}, {"lz4hadoop", ParquetCompression::Lz4Hadoop}};
  for (const auto& [name, c] : codecs) {
    opt.compression = c;
    write_parquet(all_types_frame(200), std::string(dir) + "/flat_" + name + ".parquet", opt);
    write_parquet(nested_frame(120), std::string(dir) + "/nested_" + name + ".parquet", opt);
  }
}
