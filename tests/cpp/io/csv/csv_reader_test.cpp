#include "frazil/io/csv/csv_reader.hpp"

#include <gtest/gtest.h>

#include <atomic>

#include "csv_test_util.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/categories.hpp"

using namespace frazil;
using namespace frazil::io;
using namespace frazil::io::csv_test;

namespace {

DataFrame rd(const std::string& text, CsvReadOptions o = {}) { return read_csv_bytes(text, o); }

Schema schema_of(std::initializer_list<std::pair<const char*, DataType>> fields) {
  std::vector<Field> f;
  for (auto& [n, t] : fields) f.push_back(Field{n, t});
  return Schema(std::move(f));
}

}  // namespace

// ------------------------------------------------------------------ inference

TEST(CsvInfer, PrimitiveKinds) {
  auto df = rd("i,f,b,s,n,m,big\n1,1.5,true,x,,1,99999999999999999999\n-2,.5,False,y,,2.5,1\n3,1e5,TRUE,+3,,3,2\n");
  EXPECT_EQ(df.schema(), schema_of({{"i", DataType::int64()}, {"f", DataType::float64()}, {"b", DataType::boolean()},
                                    {"s", DataType::string()}, {"n", DataType::string()}, {"m", DataType::float64()},
                                    {"big", DataType::int128()}}));  // beyond Int64: Int128, as Polars
  EXPECT_EQ(vals(df, "i"), vs({"1", "-2", "3"}));
  EXPECT_EQ(vals(df, "f"), vs({"1.5", "0.5", "100000.0"}));
  EXPECT_EQ(vals(df, "b"), vs({"true", "false", "true"}));
  EXPECT_EQ(vals(df, "s"), vs({"x", "y", "+3"}));
  EXPECT_EQ(vals(df, "n"), vs({"null", "null", "null"}));
  EXPECT_EQ(vals(df, "m"), vs({"1.0", "2.5", "3.0"}));
  EXPECT_EQ(vals(df, "big"), vs({"99999999999999999999", "1", "2"}));
}

TEST(CsvInfer, PolarsFloatAndStringRules) {
  // Polars: "+3", "Inf", "nan", " 1", "1.e5", "1e" are strings; 1E5, +1.5, inf, NaN floats;
  // a quoted "" is a string value.
  EXPECT_EQ(rd("a\n+3\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\nInf\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\nnan\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\n 1\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\n1.e5\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\n1e\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\n1E5\n+1.5\n2E-3\n").column(0).dtype(), DataType::float64());
  EXPECT_EQ(vals(rd("a\n\"\"\n1\n"), "a"), vs({"", "1"}));
  EXPECT_EQ(vals(rd("a\n\n1\n"), "a"), vs({"null", "1"}));
  auto df = rd("a\ninf\nNaN\n-inf\n5.\n1e5\n1.5E5\n-.5\n");
  EXPECT_EQ(df.column(0).dtype(), DataType::float64());
  EXPECT_EQ(vals(df, "a"), vs({"inf", "NaN", "-inf", "5.0", "100000.0", "150000.0", "-0.5"}));
  EXPECT_EQ(rd("a\ntrue\n1\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("a\n-0\n").column(0).dtype(), DataType::int64());
}

TEST(CsvInfer, InferSchemaLengthZeroAndNone) {
  auto df = rd("a,b\n1,2\n", [] { CsvReadOptions o; o.infer_schema_length = 0; return o; }());
  EXPECT_EQ(df.column(0).dtype(), DataType::string());
  EXPECT_EQ(df.column(1).dtype(), DataType::string());
  std::string text = "a\n";
  for (int i = 0; i < 200; ++i) text += "1\n";
  text += "x\n";
  CsvReadOptions all;
  all.infer_schema_length = std::nullopt;
  EXPECT_EQ(rd(text, all).column(0).dtype(), DataType::string());
  CsvReadOptions few;
  few.infer_schema_length = 50;
  std::string msg = error_of<ComputeError>([&] { rd(text, few); });
  EXPECT_NE(msg.find("`x`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 202"), std::string::npos) << msg;
  EXPECT_NE(msg.find("infer_schema_length"), std::string::npos) << msg;
  EXPECT_NE(msg.find("schema_overrides"), std::string::npos) << msg;
}

TEST(CsvInfer, Dates) {
  CsvReadOptions o;
  o.try_parse_dates = true;
  auto df = rd("d,dt,tz,t,dmy,mixed,bad\n2024-01-02,2024-01-02T03:04:05,2024-01-02T03:04:05+01:00,03:04:05,31/12/2024,2024-01-02,2024-13-45\n"
               "2024/1/3,2024-01-02 03:04:05.123,2024-01-02 03:04:05Z,23:59:59.5,01-02-2024,2024-01-02 03:04,1999-02-29\n",
               o);
  EXPECT_EQ(df.column("d").dtype(), DataType::date());
  EXPECT_EQ(df.column("dt").dtype(), DataType::datetime(TimeUnit::Microseconds));
  EXPECT_EQ(df.column("tz").dtype(), DataType::datetime(TimeUnit::Microseconds, "UTC"));
  EXPECT_EQ(df.column("t").dtype(), DataType::time());
  EXPECT_EQ(df.column("dmy").dtype(), DataType::date());
  EXPECT_EQ(df.column("mixed").dtype(), DataType::string());
  EXPECT_EQ(df.column("bad").dtype(), DataType::string());
  EXPECT_EQ(vals(df, "d"), vs({"2024-01-02", "2024-01-03"}));
  EXPECT_EQ(vals(df, "dt"), vs({"2024-01-02 03:04:05", "2024-01-02 03:04:05.123"}));
  EXPECT_EQ(vals(df, "tz"), vs({"2024-01-02 02:04:05 UTC", "2024-01-02 03:04:05 UTC"}));
  EXPECT_EQ(vals(df, "t"), vs({"03:04:05", "23:59:59.500"}));
  EXPECT_EQ(vals(rd("t\n12:00\n", o), "t"), vs({"12:00:00"}));
  EXPECT_EQ(vals(df, "dmy"), vs({"2024-12-31", "2024-02-01"}));
  // Without try_parse_dates they stay strings; 20240102 is an integer.
  EXPECT_EQ(rd("d\n2024-01-02\n").column(0).dtype(), DataType::string());
  EXPECT_EQ(rd("d\n20240102\n", o).column(0).dtype(), DataType::int64());
}

TEST(CsvInfer, QuotedValuesInferToo) {
  auto df = rd("a,b\n\"1\",\"2.5\"\n");
  EXPECT_EQ(df.column(0).dtype(), DataType::int64());
  EXPECT_EQ(df.column(1).dtype(), DataType::float64());
}

// ------------------------------------------------------------------ quoting and dialect

TEST(CsvRead, QuotingEscapesSeparatorsNewlines) {
  auto df = rd("a,b\n\"x,\"\"y\"\"\nz\",1\n\"\",2\n,3\n\"p\"q,4\n");
  EXPECT_EQ(vals(df, "a"), vs({"x,\"y\"\nz", "", "null", "pq"}));
  EXPECT_EQ(vals(df, "b"), vs({"1", "2", "3", "4"}));
}

TEST(CsvRead, QuotedHeaderAndDuplicates) {
  auto df = rd("\"a\"\"x\",\"b,c\",a,a\n1,2,3,4\n");
  EXPECT_EQ(df.names(), vs({"a\"x", "b,c", "a", "a_duplicated_0"}));
  EXPECT_EQ(vals(df, "a_duplicated_0"), vs({"4"}));
}

TEST(CsvRead, MissingUtf8IsEmptyString) {
  CsvReadOptions o;
  o.missing_utf8_is_empty_string = true;
  auto df = rd("a,b\n1,\n,x\n", o);
  EXPECT_EQ(vals(df, "a"), vs({"1", "null"}));
  EXPECT_EQ(vals(df, "b"), vs({"", "x"}));
}

TEST(CsvRead, CrLf) {
  auto df = rd("a,b\r\n1,x\r\n3,\"y\"\r\n5,\r\n");
  EXPECT_EQ(df.names(), vs({"a", "b"}));
  EXPECT_EQ(vals(df, "a"), vs({"1", "3", "5"}));
  EXPECT_EQ(vals(df, "b"), vs({"x", "y", "null"}));
  // A quoted "\r" is data.
  EXPECT_EQ(vals(rd("a\n\"x\r\"\n"), "a"), vs({"x\r"}));
}

TEST(CsvRead, Comments) {
  CsvReadOptions o;
  o.comment_prefix = "#";
  auto df = rd("# top\na,b\n#x,\"unbalanced\n1,2\n# another\n3,4\n", o);
  EXPECT_EQ(vals(df, "a"), vs({"1", "3"}));
  o.comment_prefix = "//";
  EXPECT_EQ(vals(rd("a\n//c\n5\n", o), "a"), vs({"5"}));
}

TEST(CsvRead, SeparatorQuoteEol) {
  CsvReadOptions tab;
  tab.separator = '\t';
  EXPECT_EQ(vals(rd("a\tb\n1\t2\n", tab), "b"), vs({"2"}));
  CsvReadOptions sq;
  sq.quote_char = '\'';
  EXPECT_EQ(vals(rd("a,b\n'1,2',3\n", sq), "a"), vs({"1,2"}));
  CsvReadOptions noq;
  noq.quote_char = std::nullopt;
  EXPECT_EQ(vals(rd("a,b\n\"x\",2\n", noq), "a"), vs({"\"x\""}));
  EXPECT_THROW(rd("a,b\n\"1,2\",3\n", noq), ComputeError);  // three fields
  CsvReadOptions eol;
  eol.eol_char = ';';
  auto df = rd("a,b;1,2;3,4", eol);
  EXPECT_EQ(vals(df, "b"), vs({"2", "4"}));
}

TEST(CsvRead, DecimalComma) {
  CsvReadOptions o;
  o.separator = ';';
  o.decimal_comma = true;
  auto df = rd("a;b\n1,5;2\n-0,25;3\n", o);
  EXPECT_EQ(df.column("a").dtype(), DataType::float64());
  EXPECT_EQ(vals(df, "a"), vs({"1.5", "-0.25"}));
}

TEST(CsvRead, NullValues) {
  CsvReadOptions one;
  one.null_values = NullValues::for_all({"NA"});
  auto df = rd("a,b\nNA,2\n3,\"NA\"\n", one);
  EXPECT_EQ(df.column("a").dtype(), DataType::int64());
  EXPECT_EQ(vals(df, "a"), vs({"null", "3"}));
  EXPECT_EQ(vals(df, "b"), vs({"2", "null"}));
  CsvReadOptions many;
  many.null_values = NullValues::for_all({"NA", "-"});
  EXPECT_EQ(vals(rd("a\nNA\n-\n1\n", many), "a"), vs({"null", "null", "1"}));
  CsvReadOptions per;
  per.null_values = NullValues::for_columns({{"b", "NA"}});
  df = rd("a,b\nNA,2\n3,NA\n", per);
  EXPECT_EQ(df.column("a").dtype(), DataType::string());
  EXPECT_EQ(vals(df, "a"), vs({"NA", "3"}));
  EXPECT_EQ(vals(df, "b"), vs({"2", "null"}));
  CsvReadOptions missing;
  missing.null_values = NullValues::for_columns({{"zz", "NA"}});
  EXPECT_THROW(rd("a\n1\n", missing), ColumnNotFoundError);
}

TEST(CsvRead, EmptyLinesAndRaggedRows) {
  auto df = rd("a,b,c\n1,2\n\n3,4,5\n");
  EXPECT_EQ(vals(df, "a"), vs({"1", "null", "3"}));
  EXPECT_EQ(vals(df, "c"), vs({"null", "null", "5"}));
  std::string msg = error_of<ComputeError>([] { rd("a,b\n1,2\n\"x\ny\",2,3\n"); });
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncate_ragged_lines"), std::string::npos) << msg;
  CsvReadOptions t;
  t.truncate_ragged_lines = true;
  df = rd("a,b\n1,2,3\n4,5\n", t);
  EXPECT_EQ(vals(df, "b"), vs({"2", "5"}));
  // No final newline.
  EXPECT_EQ(vals(rd("a,b\n1,2\n3,4"), "b"), vs({"2", "4"}));
}

// ------------------------------------------------------------------ rows and columns

TEST(CsvRead, SkipRowsRespectsQuotes) {
  CsvReadOptions o;
  o.skip_rows = 1;
  auto df = rd("skip,\"x\ny\"\na,b\n1,2\n", o);
  EXPECT_EQ(df.names(), vs({"a", "b"}));
  EXPECT_EQ(vals(df, "b"), vs({"2"}));
}

TEST(CsvRead, SkipAfterHeaderNRowsRowIndex) {
  CsvReadOptions o;
  o.skip_rows_after_header = 1;
  o.n_rows = 2;
  o.row_index_name = "idx";
  o.row_index_offset = 10;
  auto df = rd("a,b\n1,2\n3,4\n5,6\n7,8\n", o);
  EXPECT_EQ(df.names(), vs({"idx", "a", "b"}));
  EXPECT_EQ(df.column("idx").dtype(), DataType::uint32());
  EXPECT_EQ(vals(df, "idx"), vs({"10", "11"}));
  EXPECT_EQ(vals(df, "a"), vs({"3", "5"}));
  CsvReadOptions zero;
  zero.n_rows = 0;
  df = rd("a,b\n1,2\n", zero);
  EXPECT_EQ(df.height(), 0);
  EXPECT_EQ(df.schema(), schema_of({{"a", DataType::int64()}, {"b", DataType::int64()}}));
  CsvReadOptions dup;
  dup.row_index_name = "a";
  EXPECT_THROW(rd("a\n1\n", dup), DuplicateError);
}

TEST(CsvRead, ProjectionByNameAndIndex) {
  CsvReadOptions o;
  o.columns = std::vector<std::string>{"c", "a"};
  auto df = rd("a,b,c\n1,x,2.5\n", o);
  EXPECT_EQ(df.names(), vs({"c", "a"}));
  EXPECT_EQ(vals(df, "c"), vs({"2.5"}));
  CsvReadOptions p;
  p.projection = std::vector<size_t>{1};
  df = rd("a,b,c\n1,x,2.5\n", p);
  EXPECT_EQ(df.names(), vs({"b"}));
  CsvReadOptions bad;
  bad.columns = std::vector<std::string>{"zz"};
  EXPECT_THROW(rd("a\n1\n", bad), ColumnNotFoundError);
  CsvReadOptions oob;
  oob.projection = std::vector<size_t>{3};
  EXPECT_THROW(rd("a\n1\n", oob), OutOfBoundsError);
  // A column that would fail to parse is not parsed when not projected.
  CsvReadOptions skip;
  skip.columns = std::vector<std::string>{"a"};
  skip.schema_overrides = {Field{"b", DataType::int64()}};
  EXPECT_EQ(vals(rd("a,b\n1,x\n", skip), "a"), vs({"1"}));
}

TEST(CsvRead, NewColumnsAndOverrides) {
  CsvReadOptions o;
  o.new_columns = {"x", "y"};
  o.schema_overrides = {Field{"x", DataType::float64()}, Field{"nope", DataType::int8()}};
  auto df = rd("a,b\n1,2\n", o);
  EXPECT_EQ(df.schema(), schema_of({{"x", DataType::float64()}, {"y", DataType::int64()}}));
  CsvReadOptions too_many;
  too_many.new_columns = {"x", "y", "z"};
  EXPECT_THROW(rd("a,b\n1,2\n", too_many), ShapeError);
}

TEST(CsvRead, FullSchema) {
  CsvReadOptions o;
  o.schema = schema_of({{"b", DataType::int32()}, {"a", DataType::string()}});
  auto df = rd("a,b\n1,2\n3,4\n", o);
  EXPECT_EQ(df.names(), vs({"b", "a"}));
  EXPECT_EQ(df.column("b").dtype(), DataType::int32());
  EXPECT_EQ(vals(df, "a"), vs({"1", "3"}));
  CsvReadOptions wrong;
  wrong.schema = schema_of({{"x", DataType::int32()}, {"b", DataType::string()}});
  std::string msg = error_of<SchemaError>([&] { rd("a,b\n1,2\n", wrong); });
  EXPECT_NE(msg.find("'x'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'a'"), std::string::npos) << msg;
  CsvReadOptions positional;
  positional.has_header = false;
  positional.schema = schema_of({{"x", DataType::int16()}, {"y", DataType::string()}});
  df = rd("1,2\n3,4\n", positional);
  EXPECT_EQ(df.names(), vs({"x", "y"}));
  EXPECT_EQ(vals(df, "x"), vs({"1", "3"}));
  CsvReadOptions unsupported;
  unsupported.schema = schema_of({{"a", DataType::duration(TimeUnit::Microseconds)}});
  EXPECT_THROW(rd("a\n1\n", unsupported), InvalidOperationError);
}

TEST(CsvRead, NoHeaderNamesColumns) {
  CsvReadOptions o;
  o.has_header = false;
  auto df = rd("a,1\nb,2\n", o);
  EXPECT_EQ(df.names(), vs({"column_0", "column_1"}));
  EXPECT_EQ(vals(df, "column_1"), vs({"1", "2"}));
}

TEST(CsvRead, GivenDtypesParseAndRangeCheck) {
  CsvReadOptions o;
  o.schema_overrides = {Field{"i8", DataType::int8()},    Field{"u16", DataType::uint16()},
                        Field{"f32", DataType::float32()}, Field{"b", DataType::boolean()},
                        Field{"d", DataType::date()},      Field{"ms", DataType::datetime(TimeUnit::Milliseconds)},
                        Field{"ns", DataType::datetime(TimeUnit::Nanoseconds)},
                        Field{"u64", DataType::uint64()}};
  auto df = rd("i8,u16,f32,b,d,ms,ns,u64\n-128,65535,1.5,tRuE,2024-01-02,2024-01-02 03:04:05.123,2024-01-02T03:04:05.123456789,18446744073709551615\n"
               "+7,0,+2.5,FALSE,1960-12-31,2024-01-02,1970-01-01,0\n",
               o);
  EXPECT_EQ(vals(df, "i8"), vs({"-128", "7"}));
  EXPECT_EQ(vals(df, "u16"), vs({"65535", "0"}));
  EXPECT_EQ(vals(df, "f32"), vs({"1.5", "2.5"}));
  EXPECT_EQ(vals(df, "b"), vs({"true", "false"}));
  EXPECT_EQ(vals(df, "d"), vs({"2024-01-02", "1960-12-31"}));
  EXPECT_EQ(vals(df, "ms"), vs({"2024-01-02 03:04:05.123", "2024-01-02 00:00:00"}));
  EXPECT_EQ(vals(df, "ns"), vs({"2024-01-02 03:04:05.123456789", "1970-01-01 00:00:00"}));
  EXPECT_EQ(vals(df, "u64"), vs({"18446744073709551615", "0"}));
  auto over = [](const char* text, DataType t) {
    CsvReadOptions x;
    x.schema_overrides = {Field{"a", t}};
    return error_of<ComputeError>([&] { read_csv_bytes(text, x); });
  };
  EXPECT_NE(over("a\n300\n", DataType::int8()).find("`300`"), std::string::npos);
  EXPECT_NE(over("a\n-1\n", DataType::uint8()).find("`-1`"), std::string::npos);
  EXPECT_NE(over("a\n9223372036854775808\n", DataType::int64()).find("as dtype `i64`"), std::string::npos);
  EXPECT_NE(over("a\n1\n", DataType::boolean()).find("as dtype `bool`"), std::string::npos);
  EXPECT_NE(over("a\n2023-02-29\n", DataType::date()).find("line 2"), std::string::npos);
  EXPECT_EQ(over("a\n-9223372036854775808\n", DataType::int64()), "");
}

TEST(CsvRead, DtypeErrorNamesFileLineColumnValue) {
  TempDir dir;
  std::string path = dir.file("data.csv", "a,b\n1,2\n3,\"multi\nline\"\n5,6\n7,oops\n");
  CsvReadOptions o;
  o.infer_schema_length = 1;
  o.schema_overrides = {Field{"a", DataType::int64()}};
  std::string msg = error_of<ComputeError>([&] { read_csv(path, o); });
  // "multi" fails first: line 3.
  EXPECT_NE(msg.find("`multi\nline`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 3 of '" + path + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("at column 'b' (column number 2)"), std::string::npos) << msg;
  EXPECT_NE(msg.find("as dtype `i64`"), std::string::npos) << msg;
  std::string path2 = dir.file("data2.csv", "a,b\n1,2\n3,\"multi\nline\"\n5,6\n7,oops\n");
  CsvReadOptions o2;
  o2.schema_overrides = {Field{"a", DataType::int64()}, Field{"b", DataType::int64()}};
  o2.null_values = NullValues::for_all({"multi\nline"});
  msg = error_of<ComputeError>([&] { read_csv(path2, o2); });
  EXPECT_NE(msg.find("`oops`"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 6"), std::string::npos) << msg;
  // ignore_errors turns the bad values into nulls.
  o2.ignore_errors = true;
  EXPECT_EQ(vals(read_csv(path2, o2), "b"), vs({"2", "null", "6", "null"}));
}

// ------------------------------------------------------------------ bad input

TEST(CsvRead, InvalidUtf8) {
  std::string text = "a,b\n1,ok\n2,x\xff\xfey\n";
  std::string msg = error_of<ComputeError>([&] { rd(text); });
  EXPECT_NE(msg.find("UTF-8"), std::string::npos) << msg;
  EXPECT_NE(msg.find("'b'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
  CsvReadOptions lossy;
  lossy.encoding = CsvEncoding::Utf8Lossy;
  EXPECT_EQ(vals(rd(text, lossy), "b"), vs({"ok", "x\xEF\xBF\xBD\xEF\xBF\xBDy"}));
  CsvReadOptions bin;
  bin.schema_overrides = {Field{"b", DataType::binary()}};
  EXPECT_EQ(rd(text, bin).column("b").get(1).as_string(), "x\xff\xfey");
  // Invalid UTF-8 in the header.
  EXPECT_THROW(rd("a\xff\n1\n"), ComputeError);
  EXPECT_EQ(rd("a\xff\n1\n", lossy).names(), vs({"a\xEF\xBF\xBD"}));
}

TEST(CsvRead, EmptyInputs) {
  DataFrame df = rd("");
  EXPECT_EQ(df.width(), 0u);
  EXPECT_EQ(df.height(), 0);
  CsvReadOptions raise;
  raise.raise_if_empty = true;
  EXPECT_THROW(rd("", raise), ComputeError);
  CsvReadOptions s;
  s.schema = schema_of({{"a", DataType::int64()}, {"b", DataType::string()}});
  df = rd("", s);
  EXPECT_EQ(df.schema(), *s.schema);
  EXPECT_EQ(df.height(), 0);
  df = rd("a,b\n");
  EXPECT_EQ(df.schema(), schema_of({{"a", DataType::string()}, {"b", DataType::string()}}));
  EXPECT_EQ(df.height(), 0);
  df = rd("a,b\n", s);
  EXPECT_EQ(df.schema(), *s.schema);
  CsvReadOptions skip;
  skip.skip_rows_after_header = 5;
  EXPECT_EQ(rd("a,b\n1,2\n", skip).height(), 0);
  // BOM only, or BOM + header.
  EXPECT_EQ(rd("\xEF\xBB\xBF").width(), 0u);
  EXPECT_EQ(rd("\xEF\xBB\xBF" "a,b\n1,2\n").names(), vs({"a", "b"}));
}

TEST(CsvRead, UnterminatedQuote) {
  std::string msg = error_of<ComputeError>([] { rd("a,b\n1,2\n3,\"open\n4,5\n"); });
  EXPECT_NE(msg.find("unterminated"), std::string::npos) << msg;
  EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
  EXPECT_THROW(rd("\"a,b\n1,2\n"), ComputeError);
  // Also with small chunks, where later chunks start inside the open quote.
  CsvReadOptions o;
  o.chunk_size_bytes = 8;
  std::string text = "a,b\n";
  for (int i = 0; i < 50; ++i) text += "1,2\n";
  text += "3,\"x\n";
  for (int i = 0; i < 50; ++i) text += "1,2\n";
  EXPECT_THROW(rd(text, o), ComputeError);
}

TEST(CsvRead, HugeField) {
  std::string big(3 << 20, 'x');
  big[100] = ',';
  big[2000] = '\n';
  std::string text = "a,b\n1,\"" + big + "\"\n2,short\n";
  CsvReadOptions o;
  o.chunk_size_bytes = 4096;
  auto df = rd(text, o);
  ASSERT_EQ(df.height(), 2);
  EXPECT_EQ(df.column("b").get(0).as_string(), big);
  EXPECT_EQ(vals(df, "b")[1], "short");
}

// ------------------------------------------------------------------ parallel chunks

namespace {

// Rows with quoted newlines, escaped quotes, separators and mid-field quote chars (which
// fool the quote-parity guess) to exercise chunk boundary checks.
std::string tricky_csv(int rows, std::vector<std::string>& expect_s) {
  std::string text = "i,s,f\n";
  for (int i = 0; i < rows; ++i) {
    std::string s;
    switch (i % 6) {
      case 0: s = "plain" + std::to_string(i); break;
      case 1: s = "line\nbreak " + std::to_string(i); break;
      case 2: s = "q\"uote,\n\"" + std::to_string(i); break;
      case 3: s = ""; break;
      case 4: s = "x\"y"; break;  // written unquoted: a literal quote mid-field
      case 5: s = std::string(300, 'a' + i % 26) + "\n\n"; break;
    }
    expect_s.push_back(i % 6 == 3 ? "null" : s);
    text += std::to_string(i) + ",";
    if (i % 6 == 4) {
      text += s;
    } else if (i % 6 != 3) {
      text += "\"";
      for (char c : s) text += c == '"' ? std::string("\"\"") : std::string(1, c);
      text += "\"";
    }
    text += "," + std::to_string(i) + ".5\n";
  }
  return text;
}

}  // namespace

TEST(CsvChunks, QuotedNewlinesAcrossManySmallChunks) {
  std::vector<std::string> expect;
  std::string text = tricky_csv(3000, expect);
  ASSERT_GT(text.size(), 100000u);
  DataFrame whole = rd(text);
  ASSERT_EQ(whole.height(), 3000);
  EXPECT_EQ(vals(whole, "s"), expect);
  for (int64_t chunk : {1, 7, 64, 333, 4096, 50000}) {
    CsvReadOptions o;
    o.chunk_size_bytes = chunk;
    o.batch_rows = 10;
    DataFrame df = rd(text, o);
    EXPECT_TRUE(df.equals(whole)) << "chunk " << chunk;
  }
}

TEST(CsvChunks, BatchedReaderYieldsFileOrder) {
  std::vector<std::string> expect;
  std::string text = tricky_csv(1000, expect);
  CsvReadOptions o;
  o.chunk_size_bytes = 2000;
  o.row_index_name = "row";
  auto reader = CsvReader::from_bytes(text, o);
  EXPECT_EQ(reader.schema().names(), vs({"row", "i", "s", "f"}));
  int64_t next = 0;
  int batches = 0;
  while (auto b = reader.next_batch()) {
    ++batches;
    ASSERT_GT(b->height(), 0);
    for (int64_t r = 0; r < b->height(); ++r) {
      EXPECT_EQ(b->column("row").get(r).as_uint64(), static_cast<uint64_t>(next));
      EXPECT_EQ(b->column("i").get(r).as_int64(), next);
      ++next;
    }
  }
  EXPECT_EQ(next, 1000);
  EXPECT_GT(batches, 5);
  EXPECT_FALSE(reader.next_batch().has_value());
}

TEST(CsvChunks, PredicateProjectionNRows) {
  std::vector<std::string> expect;
  std::string text = tricky_csv(1000, expect);
  CsvReadOptions o;
  o.chunk_size_bytes = 1500;
  o.columns = std::vector<std::string>{"i"};
  o.row_index_name = "row";
  o.row_index_offset = 5;
  o.n_rows = 700;
  int calls = 0;
  std::atomic<int64_t> max_seen{0};
  o.predicate = [&](const DataFrame& chunk) {
    ++calls;
    max_seen = std::max<int64_t>(max_seen, chunk.height());
    BooleanBuilder b;
    const Column& i = chunk.column("i");
    for (int64_t r = 0; r < chunk.height(); ++r) {
      if (r % 10 == 0) b.push_null();
      else b.push(i.get(r).as_int64() % 3 == 0);
    }
    return b.finish();
  };
  DataFrame df = rd(text, o);
  EXPECT_GT(calls, 3);
  EXPECT_LT(max_seen.load(), 700);
  EXPECT_EQ(df.names(), vs({"row", "i"}));
  ASSERT_GT(df.height(), 0);
  for (int64_t r = 0; r < df.height(); ++r) {
    int64_t i = df.column("i").get(r).as_int64();
    EXPECT_EQ(i % 3, 0);
    EXPECT_LT(i, 700);
    EXPECT_EQ(df.column("row").get(r).as_uint64(), static_cast<uint64_t>(i + 5));
  }
  // A predicate returning the wrong length is an error, not a crash.
  CsvReadOptions bad;
  bad.predicate = [](const DataFrame&) { return BooleanBuilder().finish(); };
  EXPECT_THROW(rd("a\n1\n2\n", bad), ComputeError);
}

TEST(CsvChunks, NRowsStopsEarlyAndIgnoresLaterErrors) {
  std::string text = "a\n";
  for (int i = 0; i < 5000; ++i) text += std::to_string(i) + "\n";
  text += "bad\n";
  CsvReadOptions o;
  o.n_rows = 10;
  o.chunk_size_bytes = 16;
  DataFrame df = rd(text, o);
  EXPECT_EQ(df.height(), 10);
  EXPECT_EQ(vals(df, "a").back(), "9");
  CsvReadOptions big;
  big.n_rows = 4999;
  big.chunk_size_bytes = 1000;
  EXPECT_EQ(rd(text, big).height(), 4999);
  CsvReadOptions all;
  all.chunk_size_bytes = 1000;
  EXPECT_THROW(rd(text, all), ComputeError);
}

// ------------------------------------------------------------------ files and globs

TEST(CsvFiles, GlobReadsFilesInOrder) {
  TempDir dir;
  dir.file("p1.csv", "a,b\n1,x\n2,y\n");
  dir.file("p2.csv", "a,b\n3,z\n");
  dir.file("p3.csv", "a,b\n");
  dir.file("other.txt", "junk");
  CsvReadOptions o;
  o.row_index_name = "r";
  DataFrame df = read_csv(dir.path("p*.csv"), o);
  EXPECT_EQ(vals(df, "a"), vs({"1", "2", "3"}));
  EXPECT_EQ(vals(df, "b"), vs({"x", "y", "z"}));
  EXPECT_EQ(vals(df, "r"), vs({"0", "1", "2"}));
  CsvReadOptions n;
  n.n_rows = 2;
  EXPECT_EQ(read_csv(dir.path("p*.csv"), n).height(), 2);
  EXPECT_EQ(read_csv_schema(dir.path("p*.csv")), schema_of({{"a", DataType::int64()}, {"b", DataType::string()}}));
  EXPECT_THROW(read_csv(dir.path("nothing*.csv")), IOError);
  EXPECT_THROW(read_csv(dir.path("missing.csv")), IOError);
}

TEST(CsvFiles, DifferentSchemasAreSchemaErrors) {
  TempDir dir;
  std::string a = dir.file("a.csv", "x,y\n1,2\n");
  std::string b = dir.file("b.csv", "x,z\n1,2\n");
  std::string c = dir.file("c.csv", "x,y\n1.5,2\n");
  std::string d = dir.file("d.csv", "x,y\n,2\n");
  std::string msg = error_of<SchemaError>([&] { read_csv(std::vector<std::string>{a, b}); });
  EXPECT_NE(msg.find(a), std::string::npos) << msg;
  EXPECT_NE(msg.find(b), std::string::npos) << msg;
  msg = error_of<SchemaError>([&] { read_csv(std::vector<std::string>{a, c}); });
  EXPECT_NE(msg.find(c), std::string::npos) << msg;
  EXPECT_NE(msg.find("Float64"), std::string::npos) << msg;
  // A column with no values in the sample fits any dtype.
  EXPECT_EQ(vals(read_csv(std::vector<std::string>{a, d}), "x"), vs({"1", "null"}));
  // With an explicit dtype both read.
  CsvReadOptions o;
  o.schema_overrides = {Field{"x", DataType::float64()}};
  EXPECT_EQ(vals(read_csv(std::vector<std::string>{a, c}, o), "x"), vs({"1.0", "1.5"}));
}

TEST(CsvFiles, ReadsFromDiskWithRechunk) {
  TempDir dir;
  std::string text = "a,b\n";
  for (int i = 0; i < 2000; ++i) text += std::to_string(i) + ",s" + std::to_string(i) + "\n";
  std::string p = dir.file("big.csv", text);
  CsvReadOptions o;
  o.chunk_size_bytes = 512;
  o.rechunk = true;
  DataFrame df = read_csv(p, o);
  EXPECT_EQ(df.height(), 2000);
  EXPECT_EQ(df.column("a").num_chunks(), 1u);
  EXPECT_EQ(df.column("b").get(1999).as_string(), "s1999");
  EXPECT_TRUE(df.equals(read_csv_bytes(text)));
}

TEST(CsvRead, CategoricalAndEnumColumns) {
  CsvReadOptions o;
  const DataType e = DataType::enum_(Categories::fixed({"b", "a", ""}));
  o.schema_overrides = {Field{"c", DataType::categorical()}, Field{"e", e}};
  auto df = rd("c,e\nx,a\n,b\n\"y\",\"\"\nx,\n", o);
  EXPECT_EQ(df.column("c").dtype(), DataType::categorical());
  EXPECT_EQ(df.column("e").dtype(), e);
  EXPECT_EQ(vals(df, "e"), vs({"a", "b", "", "null"}));
  EXPECT_EQ(df.column("c").null_count(), 1);
  // A value outside the categories names the column and line, also with ignore_errors.
  for (bool ignore : {false, true}) {
    CsvReadOptions bad = o;
    bad.ignore_errors = ignore;
    try {
      rd("c,e\nx,a\ny,zz\n", bad);
      FAIL() << "no error";
    } catch (const ComputeError& err) {
      const std::string msg = err.what();
      EXPECT_NE(msg.find("'e'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("line 3"), std::string::npos) << msg;
    }
  }
}
