#include "frazil/io/csv/csv_writer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "csv_test_util.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/calendar.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/csv/csv_reader.hpp"

using namespace frazil;
using namespace frazil::io;
using namespace frazil::io::csv_test;

namespace {

template <typename T>
ArrayRef prim(DataType t, std::vector<std::optional<T>> v) {
  PrimitiveBuilder<T> b(std::move(t));
  for (auto& x : v) x ? b.push(*x) : b.push_null();
  return b.finish();
}

ArrayRef strs(std::vector<std::optional<std::string>> v, DataType t = DataType::string()) {
  ViewBuilder b(std::move(t));
  for (auto& x : v) x ? b.push(*x) : b.push_null();
  return b.finish();
}

ArrayRef bools(std::vector<std::optional<bool>> v) {
  BooleanBuilder b;
  for (auto& x : v) x ? b.push(*x) : b.push_null();
  return b.finish();
}

constexpr int64_t kDay20240102 = days_from_civil(2024, 1, 2);
constexpr int64_t kSecs = kDay20240102 * 86400 + 3 * 3600 + 4 * 60 + 5;

// The frame Polars was asked to write (values and expected text taken from polars 2.1).
DataFrame polars_sample() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return DataFrame({
      Column("i", prim<int64_t>(DataType::int64(), {1, std::nullopt, -3})),
      Column("f", prim<double>(DataType::float64(), {1.0, 0.1, std::nullopt})),
      Column("f2", prim<double>(DataType::float64(), {1e20, 1.5e-10, nan})),
      Column("f3", prim<double>(DataType::float64(), {inf, -0.0, 123456789.125})),
      Column("f32", prim<float>(DataType::float32(), {1.0f, 0.1f, 3.3f})),
      Column("b", bools({true, false, std::nullopt})),
      Column("s", strs({"a,b", "q\"x", "line\nbreak"})),
      Column("s2", strs({"", std::nullopt, " x "})),
      Column("d", prim<int32_t>(DataType::date(), {int32_t(kDay20240102), std::nullopt, int32_t(days_from_civil(1960, 5, 6))})),
      Column("dt", prim<int64_t>(DataType::datetime(TimeUnit::Microseconds),
                                 {kSecs * 1000000, kSecs * 1000000 + 123456, std::nullopt})),
      Column("dtms", prim<int64_t>(DataType::datetime(TimeUnit::Milliseconds), {kSecs * 1000, std::nullopt, std::nullopt})),
      Column("dtns", prim<int64_t>(DataType::datetime(TimeUnit::Nanoseconds), {kSecs * 1000000000, std::nullopt, std::nullopt})),
      Column("dttz", prim<int64_t>(DataType::datetime(TimeUnit::Microseconds, "UTC"), {kSecs * 1000000, std::nullopt, std::nullopt})),
      Column("t", prim<int64_t>(DataType::time(), {3723000000000, 3723000400000, std::nullopt})),
      Column("u8", prim<uint8_t>(DataType::uint8(), {1, 2, 3})),
  });
}

}  // namespace

TEST(CsvWrite, MatchesPolarsDefaults) {
  const std::string expect =
      "i,f,f2,f3,f32,b,s,s2,d,dt,dtms,dtns,dttz,t,u8\n"
      "1,1.0,1e+20,inf,1.0,true,\"a,b\",\"\",2024-01-02,2024-01-02T03:04:05.000000,2024-01-02T03:04:05.000,"
      "2024-01-02T03:04:05.000000000,2024-01-02T03:04:05.000000+0000,01:02:03.000000000,1\n"
      ",0.1,1.5e-10,-0.0,0.1,false,\"q\"\"x\",,,2024-01-02T03:04:05.123456,,,,01:02:03.000400000,2\n"
      "-3,,NaN,123456789.125,3.3,,\"line\nbreak\", x ,1960-05-06,,,,,,3\n";
  EXPECT_EQ(write_csv_string(polars_sample()), expect);
}

TEST(CsvWrite, FloatForms) {
  CsvWriteOptions o;
  auto f = [&](double v) { return format_csv_float(v, false, o); };
  auto f32 = [&](float v) { return format_csv_float(v, true, o); };
  // polars 2.1 output for the same values.
  EXPECT_EQ(f(1e15), "1000000000000000.0");
  EXPECT_EQ(f(1e16), "1e+16");
  EXPECT_EQ(f(1e-5), "0.00001");
  EXPECT_EQ(f(1.5e-5), "0.000015");
  EXPECT_EQ(f(1e-6), "1e-6");
  EXPECT_EQ(f(2.5e-7), "2.5e-7");
  EXPECT_EQ(f(123456.0), "123456.0");
  EXPECT_EQ(f(12345678901234567.0), "1.2345678901234568e+16");
  EXPECT_EQ(f(9999999999999998.0), "9999999999999998.0");
  EXPECT_EQ(f(0.30000000000000004), "0.30000000000000004");
  EXPECT_EQ(f(5e-324), "5e-324");
  EXPECT_EQ(f(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(f(-1.5), "-1.5");
  EXPECT_EQ(f(0.0), "0.0");
  EXPECT_EQ(f32(1e15f), "1e+15");
  EXPECT_EQ(f32(1e12f), "1000000000000.0");
  EXPECT_EQ(f32(16777216.0f), "16777216.0");
  EXPECT_EQ(f32(0.1f), "0.1");
  EXPECT_EQ(f32(1.5e-6f), "0.0000015");
  EXPECT_EQ(f32(3.4028235e38f), "3.4028235e+38");
  CsvWriteOptions prec;
  prec.float_precision = 3;
  EXPECT_EQ(format_csv_float(1.0, false, prec), "1.000");
  EXPECT_EQ(format_csv_float(1e20, false, prec), "100000000000000000000.000");
  EXPECT_EQ(format_csv_float(-0.0, false, prec), "-0.000");
  CsvWriteOptions sci;
  sci.float_scientific = true;
  EXPECT_EQ(format_csv_float(1.0, false, sci), "1e0");
  EXPECT_EQ(format_csv_float(1.5e-10, false, sci), "1.5e-10");
  EXPECT_EQ(format_csv_float(123456789.125, false, sci), "1.23456789125e8");
  sci.float_precision = 2;
  EXPECT_EQ(format_csv_float(1e16, false, sci), "1.00e16");
  EXPECT_EQ(format_csv_float(0.5, false, sci), "5.00e-1");
  CsvWriteOptions fixed;
  fixed.float_scientific = false;
  EXPECT_EQ(format_csv_float(1.0, false, fixed), "1");
  EXPECT_EQ(format_csv_float(1e20, false, fixed), "100000000000000000000");
  EXPECT_EQ(format_csv_float(1.5e-10, false, fixed), "0.00000000015");
  CsvWriteOptions comma;
  comma.decimal_comma = true;
  EXPECT_EQ(format_csv_float(1.0, false, comma), "1,0");
  EXPECT_EQ(format_csv_float(1.5e-10, false, comma), "1,5e-10");
}

TEST(CsvWrite, QuoteStylesNullValueTerminator) {
  DataFrame df({Column("i", prim<int64_t>(DataType::int64(), {1, std::nullopt, -3})),
                Column("s", strs({"a,b", "q\"x", "line\nbreak"})),
                Column("s2", strs({"", std::nullopt, " x "})),
                Column("f", prim<double>(DataType::float64(), {1.0, 0.1, std::nullopt}))});
  CsvWriteOptions always;
  always.quote_style = QuoteStyle::Always;
  EXPECT_EQ(write_csv_string(df, always),
            "\"i\",\"s\",\"s2\",\"f\"\n\"1\",\"a,b\",\"\",\"1.0\"\n\"\",\"q\"\"x\",\"\",\"0.1\"\n"
            "\"-3\",\"line\nbreak\",\" x \",\"\"\n");
  CsvWriteOptions nn;
  nn.quote_style = QuoteStyle::NonNumeric;
  EXPECT_EQ(write_csv_string(df, nn),
            "\"i\",\"s\",\"s2\",\"f\"\n1,\"a,b\",\"\",1.0\n,\"q\"\"x\",,0.1\n-3,\"line\nbreak\",\" x \",\n");
  CsvWriteOptions never;
  never.quote_style = QuoteStyle::Never;
  EXPECT_EQ(write_csv_string(df, never), "i,s,s2,f\n1,a,b,,1.0\n,q\"x,,0.1\n-3,line\nbreak, x ,\n");
  CsvWriteOptions custom;
  custom.null_value = "NULL";
  custom.line_terminator = "\r\n";
  custom.quote_char = '\'';
  custom.include_header = false;
  EXPECT_EQ(write_csv_string(df.select({"i", "s", "s2"}), custom),
            "1,'a,b',''\r\nNULL,q\"x,NULL\r\n-3,'line\nbreak', x \r\n");
  CsvWriteOptions semi;
  semi.separator = ';';
  semi.decimal_comma = true;
  EXPECT_EQ(write_csv_string(df.select({"f"}), semi), "f\n1,0\n0,1\n\n");
  // Header names are quoted when needed; a BOM when asked.
  DataFrame names({Column("a b", strs({"x"})), Column("c,d", prim<int64_t>(DataType::int64(), {1}))});
  EXPECT_EQ(write_csv_string(names), "a b,\"c,d\"\nx,1\n");
  CsvWriteOptions bom;
  bom.include_bom = true;
  EXPECT_EQ(write_csv_string(names, bom), "\xEF\xBB\xBF" "a b,\"c,d\"\nx,1\n");
}

TEST(CsvWrite, TemporalFormats) {
  DataFrame df({Column("d", prim<int32_t>(DataType::date(), {int32_t(kDay20240102), std::nullopt})),
                Column("dt", prim<int64_t>(DataType::datetime(TimeUnit::Nanoseconds),
                                           {kSecs * 1000000000 + 5000000, std::nullopt})),
                Column("t", prim<int64_t>(DataType::time(), {3723000400000, std::nullopt}))});
  CsvWriteOptions o;
  o.date_format = "%d/%m/%Y";
  o.datetime_format = "%Y%m%d %H:%M%.f|%.3f|%6f|%j|%a %b|%F %T";
  o.time_format = "%H-%M-%S%.6f";
  EXPECT_EQ(write_csv_string(df, o),
            "d,dt,t\n02/01/2024,20240102 03:04.005|.005|005000|002|Tue Jan|2024-01-02 03:04:05,01-02-03.000400\n,,\n");
  CsvWriteOptions bad;
  bad.date_format = "%Q";
  EXPECT_THROW(write_csv_string(df, bad), ComputeError);
  // Dates before the epoch and negative datetimes.
  DataFrame old({Column("dt", prim<int64_t>(DataType::datetime(TimeUnit::Milliseconds), {-1}))});
  EXPECT_EQ(write_csv_string(old), "dt\n1969-12-31T23:59:59.999\n");
}

TEST(CsvWrite, UnsupportedDtypesAndShapes) {
  DataFrame dur({Column("x", prim<int64_t>(DataType::duration(TimeUnit::Microseconds), {1}))});
  EXPECT_THROW(write_csv_string(dur), ComputeError);
  EXPECT_EQ(write_csv_string(DataFrame()), "\n");
  DataFrame empty({Column("a", make_empty_array(DataType::int64()))});
  EXPECT_EQ(write_csv_string(empty), "a\n");
  // Sliced and chunked columns.
  ArrayRef a = prim<int64_t>(DataType::int64(), {1, 2, 3, std::nullopt, 5});
  Column chunked("a", DataType::int64(), {a->slice(1, 3), a->slice(0, 2)});
  EXPECT_EQ(write_csv_string(DataFrame({chunked})), "a\n2\n3\n\n1\n2\n");
  // Streaming writer: schema checked, header once.
  std::ostringstream os;
  CsvWriter w(os, DataFrame({chunked}).schema());
  w.write_batch(DataFrame({chunked}).slice(0, 2));
  w.write_batch(DataFrame({chunked}).slice(2, 3));
  EXPECT_THROW(w.write_batch(dur), SchemaError);
  w.finish();
  EXPECT_EQ(os.str(), "a\n2\n3\n\n1\n2\n");
  EXPECT_THROW(CsvWriter("/nonexistent-dir/x.csv", Schema()), IOError);
}

// Categorical and Enum columns are written as their strings, quoted as strings are (the
// text Polars 2.1 writes for the same frame).
TEST(CsvWrite, CategoricalAndEnumAsTheirStrings) {
  ArrayRef s = strs({"a", std::nullopt, "b,c"});
  const DataType e = DataType::enum_(Categories::fixed({"b,c", "a"}));
  DataFrame df({Column("c", s), Column("cat", encode_categorical(*s, DataType::categorical())),
                Column("e", encode_categorical(*s, e))});
  EXPECT_EQ(write_csv_string(df), "c,cat,e\na,a,a\n,,\n\"b,c\",\"b,c\",\"b,c\"\n");
  CsvWriteOptions o;
  o.quote_style = QuoteStyle::NonNumeric;
  EXPECT_EQ(write_csv_string(df, o), "\"c\",\"cat\",\"e\"\n\"a\",\"a\",\"a\"\n,,\n\"b,c\",\"b,c\",\"b,c\"\n");
  // Sliced: the codes of the slice, not of the whole array.
  EXPECT_EQ(write_csv_string(df.slice(2, 1)), "c,cat,e\n\"b,c\",\"b,c\",\"b,c\"\n");
}

TEST(CsvWrite, RoundTripEveryPrimitiveDtype) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  DataFrame df({
      Column("b", bools({true, std::nullopt, false, true})),
      Column("i8", prim<int8_t>(DataType::int8(), {-128, 127, std::nullopt, 0})),
      Column("i16", prim<int16_t>(DataType::int16(), {-32768, std::nullopt, 32767, 1})),
      Column("i32", prim<int32_t>(DataType::int32(), {INT32_MIN, INT32_MAX, 0, std::nullopt})),
      Column("i64", prim<int64_t>(DataType::int64(), {INT64_MIN, INT64_MAX, std::nullopt, -1})),
      Column("u8", prim<uint8_t>(DataType::uint8(), {0, 255, std::nullopt, 7})),
      Column("u16", prim<uint16_t>(DataType::uint16(), {0, 65535, 9, std::nullopt})),
      Column("u32", prim<uint32_t>(DataType::uint32(), {std::nullopt, UINT32_MAX, 0, 1})),
      Column("u64", prim<uint64_t>(DataType::uint64(), {UINT64_MAX, 0, std::nullopt, 3})),
      Column("f32", prim<float>(DataType::float32(), {0.1f, -3.4028235e38f, std::nullopt, 1e-30f})),
      Column("f64", prim<double>(DataType::float64(), {0.1, nan, -0.0, std::nullopt})),
      Column("s", strs({"plain", std::nullopt, "", "comma, \"quote\"\nnewline \xC3\xA9 and a long tail"})),
      Column("bin", strs({"x", "", std::nullopt, "\x01\x02"}, DataType::binary())),
      Column("d", prim<int32_t>(DataType::date(), {0, -719162, std::nullopt, 2932896})),
      Column("dtus", prim<int64_t>(DataType::datetime(TimeUnit::Microseconds), {kSecs * 1000000 + 1, -1, std::nullopt, 0})),
      Column("dtms", prim<int64_t>(DataType::datetime(TimeUnit::Milliseconds), {kSecs * 1000 + 999, std::nullopt, 0, -86400000})),
      Column("dtns", prim<int64_t>(DataType::datetime(TimeUnit::Nanoseconds), {kSecs * 1000000000 + 123456789, std::nullopt, 1, 0})),
      Column("tz", prim<int64_t>(DataType::datetime(TimeUnit::Microseconds, "UTC"), {kSecs * 1000000, std::nullopt, 0, 1})),
      Column("t", prim<int64_t>(DataType::time(), {0, 86399999999999, std::nullopt, 1})),
  });
  TempDir dir;
  std::string path = dir.path("rt.csv");
  write_csv(df, path);
  CsvReadOptions o;
  o.schema = df.schema();
  DataFrame back = read_csv(path, o);
  EXPECT_TRUE(back.equals(df)) << back.to_string() << "\n" << df.to_string();
  // One row, and a slice with offset != 0.
  DataFrame part = df.slice(1, 2);
  CsvReadOptions o2;
  o2.schema = df.schema();
  EXPECT_TRUE(read_csv_bytes(write_csv_string(part), o2).equals(part));
  EXPECT_TRUE(read_csv_bytes(write_csv_string(df.slice(3, 1)), o2).equals(df.slice(3, 1)));
  // Inference recovers the dtypes polars would infer.
  CsvReadOptions infer;
  infer.try_parse_dates = true;
  DataFrame sel = df.select({"b", "i64", "f64", "s", "d", "dtus"});
  DataFrame inferred = read_csv_bytes(write_csv_string(sel), infer);
  EXPECT_TRUE(inferred.equals(sel)) << inferred.to_string();
}

TEST(CsvWrite, ParallelBlocksKeepOrder) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  ViewBuilder s;
  for (int i = 0; i < 10000; ++i) {
    b.push(i);
    s.push(i % 7 == 0 ? "has,comma " + std::to_string(i) : std::to_string(i));
  }
  DataFrame df({Column("i", b.finish()), Column("s", s.finish())});
  CsvWriteOptions o;
  o.batch_rows = 37;
  std::string text = write_csv_string(df, o);
  EXPECT_EQ(text, write_csv_string(df));
  CsvReadOptions r;
  r.schema_overrides = {Field{"s", DataType::string()}};
  r.chunk_size_bytes = 999;
  EXPECT_TRUE(read_csv_bytes(text, r).equals(df));
}
