// The C++ str()/dt() namespaces and temporal constructors: each method reaches its
// registry function with the arguments the Python side passes.
#include <gtest/gtest.h>

#include "frazil/frazil.hpp"

using namespace frazil;

namespace {

DataFrame words() {
  ViewBuilder s;
  for (const char* w : {"Apple pie", "banana", "cherry tart"}) s.push(w);
  s.push_null();
  return DataFrame({Column("s", s.finish())});
}

std::string str_at(const DataFrame& df, const std::string& name, int64_t i) {
  return df.column(name).get(i).to_string();
}

}  // namespace

TEST(StrNameSpace, MatchTransformSplit) {
  DataFrame out = LazyFrame::from_frame(words())
                      .select({col("s").str().contains("an").alias("has_an"),
                               col("s").str().starts_with("ch").alias("ch"),
                               col("s").str().to_uppercase().alias("up"),
                               col("s").str().replace_all("a", lit("_"), true).alias("repl"),
                               col("s").str().slice(1, 3).alias("sl"),
                               col("s").str().len_chars().alias("n"),
                               col("s").str().split(" ").alias("parts"),
                               col("s").str().contains_any({"pie", "tart"}).alias("any")})
                      .collect();
  ASSERT_EQ(out.height(), 4);
  EXPECT_EQ(out.column("has_an").get(1), Scalar::boolean(true));
  EXPECT_EQ(out.column("has_an").get(0), Scalar::boolean(false));
  EXPECT_TRUE(out.column("has_an").get(3).is_null());
  EXPECT_EQ(out.column("ch").get(2), Scalar::boolean(true));
  EXPECT_EQ(out.column("up").get(0), Scalar::string("APPLE PIE"));
  EXPECT_EQ(out.column("repl").get(1), Scalar::string("b_n_n_"));
  EXPECT_EQ(out.column("sl").get(1), Scalar::string("ana"));
  EXPECT_EQ(out.column("n").get(2), Scalar::uint32(11));
  EXPECT_EQ(str_at(out, "parts", 2), "[\"cherry\", \"tart\"]");
  EXPECT_EQ(out.column("any").get(0), Scalar::boolean(true));
  EXPECT_EQ(out.column("any").get(1), Scalar::boolean(false));
}

TEST(StrNameSpace, ParseDatesAndConcat) {
  ViewBuilder d;
  for (const char* v : {"2024-01-31", "2024-02-29"}) d.push(v);
  DataFrame df({Column("d", d.finish())});
  DataFrame out = LazyFrame::from_frame(df)
                      .select({col("d").str().to_date("%Y-%m-%d").alias("date"),
                               col("d").str().to_date().dt().month().alias("m"),
                               concat_str({col("d"), lit("x")}, "|").alias("c")})
                      .collect();
  EXPECT_EQ(out.column("date").dtype(), DataType::date());
  EXPECT_EQ(str_at(out, "date", 1), "2024-02-29");
  EXPECT_EQ(out.column("m").get(0), Scalar::int32(1).with_dtype(DataType::int8()));
  EXPECT_EQ(out.column("c").get(0), Scalar::string("2024-01-31|x"));
}

TEST(DtNameSpace, FieldsZonesAndCalendar) {
  ViewBuilder d;
  d.push("2024-03-31 01:30:00");
  DataFrame df({Column("t", d.finish())});
  auto t = col("t").str().to_datetime("%Y-%m-%d %H:%M:%S");
  DataFrame out =
      LazyFrame::from_frame(df)
          .select({t.dt().hour().alias("h"),
                   t.dt().replace_time_zone("UTC").dt().convert_time_zone("Europe/Amsterdam").dt().to_string(
                       "%H:%M %Z").alias("ams"),
                   t.dt().truncate("1mo").dt().to_string().alias("trunc"),
                   t.dt().offset_by("1mo").dt().date().alias("next"),
                   t.dt().date().dt().is_business_day().alias("bd"),
                   dsl::datetime(lit(int64_t{2024}), lit(int64_t{2}), lit(int64_t{29}), lit(int64_t{12})).dt().to_string().alias("dt")})
          .collect();
  EXPECT_EQ(out.column("h").get(0), Scalar::int32(1).with_dtype(DataType::int8()));
  EXPECT_EQ(out.column("ams").get(0), Scalar::string("03:30 CEST"));
  EXPECT_EQ(out.column("trunc").get(0), Scalar::string("2024-03-01 00:00:00.000000"));
  EXPECT_EQ(str_at(out, "next", 0), "2024-04-30");
  EXPECT_EQ(out.column("bd").get(0), Scalar::boolean(false));  // a Sunday
  EXPECT_EQ(out.column("dt").get(0), Scalar::string("2024-02-29 12:00:00.000000"));
}

TEST(DtNameSpace, DateRange) {
  DataFrame out = LazyFrame::from_frame(DataFrame())
                      .select({dsl::date_range(lit("2024-01-30").str().to_date(), lit("2024-02-02").str().to_date())
                                   .alias("r")})
                      .collect();
  ASSERT_EQ(out.height(), 4);
  EXPECT_EQ(str_at(out, "r", 3), "2024-02-02");
}
