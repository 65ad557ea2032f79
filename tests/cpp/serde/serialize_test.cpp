// The plan format: every DSL step, expression kind, dtype and literal round-trips (bytes
// written again are the same bytes, and the plan computes the same frame); bad input is a
// ComputeError naming the byte offset.
#include "frazil/serde/serialize.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "frazil/compute/cast.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/dsl/list_namespace.hpp"
#include "frazil/dsl/name_namespace.hpp"
#include "frazil/dsl/str_namespace.hpp"
#include "frazil/dsl/struct_namespace.hpp"
#include "frazil/frazil.hpp"
#include "frazil/functions/udf.hpp"
#include "frazil/serde/byte_io.hpp"
#include "frazil/serde/format.hpp"
#include "frazil/serde/value_codec.hpp"

using namespace frazil;
using namespace frazil::dsl;

namespace {

DataFrame frame() {
  PrimitiveBuilder<int64_t> k(DataType::int64());
  PrimitiveBuilder<double> v(DataType::float64());
  ViewBuilder s;
  const int64_t keys[] = {1, 2, 1, 3, 2, 1};
  for (int i = 0; i < 6; ++i) {
    k.push(keys[i]);
    if (i == 3) v.push_null();
    else v.push(i == 4 ? -0.0 : i * 1.5);
    s.push(i % 2 ? "x" : "yy");
  }
  return DataFrame({Column("k", k.finish()), Column("v", v.finish()), Column("s", s.finish())});
}

LazyFrame lf() { return LazyFrame::from_frame(frame()); }

// Round trip: the bytes read and written again are the same, and the plans give one frame.
void expect_round_trip(const LazyFrame& q) {
  const std::string bytes = serde::serialize_dsl_plan(q.plan());
  const DslPlanRef back = serde::deserialize_dsl_plan(bytes);
  EXPECT_EQ(serde::serialize_dsl_plan(back), bytes);
  const DataFrame want = q.collect();
  const DataFrame got = LazyFrame(back).collect();
  EXPECT_TRUE(got.equals(want)) << "want\n" << want.to_string() << "\ngot\n" << got.to_string();
}

void expect_expr_round_trip(const Expr& e) {
  const std::string bytes = serde::serialize_expr(e);
  const Expr back = serde::deserialize_expr(bytes);
  EXPECT_EQ(back.to_string(), e.to_string());
  EXPECT_EQ(serde::serialize_expr(back), bytes);
}

DataType round_trip_dtype(const DataType& t) {
  serde::ByteWriter w;
  serde::write_dtype(w, t);
  serde::ByteReader r(w.bytes());
  DataType back = serde::read_dtype(r);
  EXPECT_TRUE(r.at_end());
  return back;
}

Scalar round_trip_scalar(const Scalar& s) {
  serde::ByteWriter w;
  serde::write_scalar(w, s);
  serde::ByteReader r(w.bytes());
  return serde::read_scalar(r);
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ComputeError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(PlanSerde, EveryStepKind) {
  expect_round_trip(lf());
  expect_round_trip(lf().filter(col("k") > 1));
  expect_round_trip(lf().select({col("k"), (col("v") * 2).alias("w")}));
  expect_round_trip(lf().with_columns({col("s").str().len_bytes().alias("n")}));
  expect_round_trip(lf().group_by({col("k")}, true).agg({col("v").sum(), col("s").n_unique().alias("u")}));
  expect_round_trip(lf().join(lf().select({col("k"), col("s").alias("t")}), {col("k")}, JoinArgs{compute::JoinType::Left}));
  expect_round_trip(lf().sort({col("v"), col("k")}, SortArgs{{true, false}, {true}, true}));
  expect_round_trip(lf().slice(1, 3));
  expect_round_trip(lf().slice(-2));
  expect_round_trip(concat({lf(), lf().filter(col("k") == 1)}));
  const LazyFrame rechunked = concat({lf(), lf()}, /*rechunk=*/true);
  expect_round_trip(rechunked);
  EXPECT_TRUE(LazyFrame(serde::deserialize_dsl_plan(serde::serialize_dsl_plan(rechunked.plan())))
                  .explain(false).find("UNION[rechunk: true]") != std::string::npos);
  expect_round_trip(lf().unique({"k"}, "first", true));
  expect_round_trip(lf().rename({{"k", "key"}}));
  expect_round_trip(lf().drop({"s"}));
  expect_round_trip(lf().with_row_index("i", 5));
  expect_round_trip(lf().group_by({col("k")}, true).agg({col("v")}).explode({"v"}));
  expect_round_trip(lf().select({}));  // a frame of no columns keeps its height
}

TEST(PlanSerde, FramesKeepCategoricalAndEnumColumns) {
  ViewBuilder s;
  for (const char* v : {"b", "a", "b"}) s.push(v);
  const ArrayRef strings = s.finish();
  const DataType e = DataType::enum_(Categories::fixed({"b", "a", "c"}));
  const DataFrame df({Column("c", compute::cast(*strings, DataType::categorical())), Column("e", compute::cast(*strings, e))});
  const DslPlanRef back = serde::deserialize_dsl_plan(serde::serialize_dsl_plan(LazyFrame::from_frame(df).plan()));
  const DataFrame& got = *back->as<DslDataFrameScan>().df;
  EXPECT_EQ(got.schema(), df.schema());
  EXPECT_TRUE(got.equals(df));
  expect_expr_round_trip(col("e").is_in(lit_series(df.column("e").as_array())));
}

TEST(PlanSerde, SharedInputsAreWrittenOnce) {
  const LazyFrame base = lf().filter(col("k") > 1);
  const LazyFrame q = base.join(base, {col("k")});
  const DslPlanRef back = serde::deserialize_dsl_plan(serde::serialize_dsl_plan(q.plan()));
  ASSERT_EQ(back->inputs.size(), 2u);
  EXPECT_EQ(back->inputs[0].get(), back->inputs[1].get());
  EXPECT_TRUE(LazyFrame(back).collect().equals(q.collect()));
}

TEST(PlanSerde, EveryExprKind) {
  expect_expr_round_trip(col("a"));
  expect_expr_round_trip(cols({"a", "b"}));
  expect_expr_round_trip(all());
  expect_expr_round_trip(all().exclude({"a"}));
  expect_expr_round_trip(nth(-1));
  expect_expr_round_trip(col("a").alias("b"));
  for (auto op : {Operator::Eq, Operator::NotEqValidity, Operator::TrueDivide, Operator::FloorDivide, Operator::Xor}) {
    expect_expr_round_trip(col("a").binary(op, col("b")));
  }
  expect_expr_round_trip(col("a").cast(DataType::int32(), false));
  expect_expr_round_trip(col("a").quantile(0.25, "linear"));
  expect_expr_round_trip(col("a").std(0));
  expect_expr_round_trip(col("a").any(false));
  expect_expr_round_trip(when(col("a") > 1).then(lit("x")).when(col("b")).then(lit_null()).otherwise(lit("z")));
  expect_expr_round_trip(col("a").round(2));
  expect_expr_round_trip(col("a").is_between(lit(1), lit(5), "left"));
  expect_expr_round_trip(coalesce({col("a"), col("b"), lit(0)}));
  expect_expr_round_trip(len());
  expect_expr_round_trip(col("a").sort(true, true));
  expect_expr_round_trip(col("a").sort_by({col("b"), col("c")}, {true, false}, {false, true}, true));
  expect_expr_round_trip(col("a").filter(col("b") > 0));
  expect_expr_round_trip(col("a").sum().over({col("g")}));
  expect_expr_round_trip(col("a").cum_sum().over({col("g")}, {col("t")}, true, true, WindowMapping::Join));
  expect_expr_round_trip(col("a").sum().rolling(col("t"), "2d", "", "both"));
  expect_expr_round_trip(col("a").name().suffix("_x"));
  expect_expr_round_trip(col("a").name().prefix("p_"));
  expect_expr_round_trip(col("a").name().to_uppercase());
  expect_expr_round_trip(col("a").name().strip_prefix("a"));
  expect_expr_round_trip(col("a").name().keep());
  expect_expr_round_trip(col("s").struct_().field("f"));
  expect_expr_round_trip(col("s").struct_().fields({"*"}));
  expect_expr_round_trip(col("a").list().len());
  expect_expr_round_trip(col("a").str().contains("x+", false));
}

TEST(PlanSerde, NameRulesAreApplied) {
  const LazyFrame q = lf().select({col("k").name().suffix("_x"), col("v").name().to_uppercase()});
  expect_round_trip(q);
  const DslPlanRef back = serde::deserialize_dsl_plan(serde::serialize_dsl_plan(q.plan()));
  EXPECT_EQ(LazyFrame(back).collect().names(), (std::vector<std::string>{"k_x", "V"}));
}

TEST(PlanSerde, UnserializableExpressionsAreRefusedByName) {
  const std::string why = error_of([] { serde::serialize_expr(col("a").name().map([](const std::string& s) { return s; })); });
  EXPECT_NE(why.find("name.map"), std::string::npos) << why;
  const std::string sel = error_of([] {
    serde::serialize_expr(selector([](const Schema& s) { return s.names(); }, "cs.all()"));
  });
  EXPECT_NE(sel.find("cs.all()"), std::string::npos) << sel;
  // A UDF without a host codec (a C++ callable).
  const int64_t id = functions::register_udf([](std::span<const ArrayRef> in) { return in[0]; });
  const std::string udf = error_of([&] { serde::serialize_expr(col("a").function("map_batches", {}, {{"function", id}})); });
  EXPECT_NE(udf.find("user-defined function"), std::string::npos) << udf;
}

TEST(PlanSerde, EveryDtype) {
  std::vector<DataType> types;
  for (TypeId id : {TypeId::Null, TypeId::Boolean, TypeId::Int8, TypeId::Int16, TypeId::Int32, TypeId::Int64,
                    TypeId::UInt8, TypeId::UInt16, TypeId::UInt32, TypeId::UInt64, TypeId::Float32, TypeId::Float64,
                    TypeId::String, TypeId::Binary, TypeId::Date, TypeId::Time, TypeId::Int128, TypeId::UInt128,
                    TypeId::Float16}) {
    types.emplace_back(id);
  }
  for (TimeUnit u : {TimeUnit::Nanoseconds, TimeUnit::Microseconds, TimeUnit::Milliseconds}) {
    types.push_back(DataType::datetime(u));
    types.push_back(DataType::datetime(u, "Europe/Amsterdam"));
    types.push_back(DataType::duration(u));
  }
  types.push_back(DataType::decimal(38, 10));
  types.push_back(DataType::decimal(5, 0));
  types.push_back(DataType::list(DataType::list(DataType::string())));
  types.push_back(DataType::struct_({{"a", DataType::int8()}, {"b", DataType::list(DataType::struct_({{"c", DataType::date()}}))}}));
  types.push_back(DataType::categorical());
  types.push_back(DataType::enum_(Categories::fixed({"lo", "mid", "hi"})));
  for (const DataType& t : types) {
    const DataType back = round_trip_dtype(t);
    EXPECT_EQ(back, t) << t.to_string() << " read back as " << back.to_string();
    EXPECT_EQ(back.to_string(), t.to_string());
  }
  // Enum categories keep their order.
  const DataType e = round_trip_dtype(DataType::enum_(Categories::fixed({"z", "a"})));
  EXPECT_EQ(e.categories().strings(), (std::vector<std::string>{"z", "a"}));
}

TEST(PlanSerde, EveryLiteralKind) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  b.push(3);
  b.push_null();
  const ArrayRef list_values = b.finish();
  const std::vector<Scalar> values = {
      Scalar(),
      Scalar::null(DataType::string()),
      Scalar::boolean(true),
      Scalar::int32(-7),
      Scalar::int64(INT64_MIN),
      Scalar::uint64(UINT64_MAX),
      Scalar::float64(-0.0),
      Scalar::float64(std::numeric_limits<double>::quiet_NaN()),
      Scalar::float32(1.5),
      Scalar::string("héllo"),
      Scalar(DataType::binary(), std::string("\0\1", 2)),
      Scalar(DataType::date(), int64_t{-1}),
      Scalar(DataType::datetime(TimeUnit::Nanoseconds, "UTC"), int64_t{1}),
      Scalar(DataType::decimal(20, 3), int128_t(-123456789012345678) * 1000),
      Scalar(DataType::list(DataType::int64()), list_values),
      Scalar(DataType::struct_({{"a", DataType::int64()}, {"b", DataType::string()}}),
             Scalar::StructValues(std::make_shared<std::vector<Scalar>>(std::vector<Scalar>{Scalar::int64(1), Scalar::string("x")}))),
      Scalar(DataType::categorical(), std::string("cat")),
  };
  for (const Scalar& s : values) {
    const Scalar back = round_trip_scalar(s);
    EXPECT_EQ(back, s) << s.to_string() << " read back as " << back.to_string();
  }
  // Dynamic literals and whole-series literals.
  expect_expr_round_trip(lit(1));
  expect_expr_round_trip(lit(2.5));
  expect_expr_round_trip(col("k").is_in(lit_series(list_values)));
  expect_round_trip(lf().filter(col("k").is_in(lit_series(list_values))));
  expect_round_trip(lf().with_columns({(col("k") + 1).alias("a"), lit(0.5).alias("b"), lit_null().alias("c")}));
}

TEST(PlanSerde, FileScansKeepTheirOptions) {
  const auto dir = std::filesystem::temp_directory_path() / "frazil_serde_scan_test";
  std::filesystem::create_directories(dir);
  const std::string csv = (dir / "a.csv").string();
  const std::string pq = (dir / "a.parquet").string();
  const std::string ipc = (dir / "a.arrow").string();
  write_csv(frame(), csv);
  write_parquet(frame(), pq);
  write_ipc(frame(), ipc);
  io::CsvReadOptions o;
  o.schema_overrides = {{"k", DataType::int32()}};
  o.null_values = io::NullValues::for_all({"yy"});
  io::FileScanArgs args;
  args.paths = {csv};
  args.row_index_name = "idx";
  args.n_rows = 4;
  expect_round_trip(scan_csv(args, o).filter(col("k") > 1));
  expect_round_trip(scan_parquet(pq).select({col("v")}));
  expect_round_trip(scan_ipc(ipc, false).with_row_index());
  std::filesystem::remove_all(dir);
}

TEST(PlanSerde, ParquetScansRestrictedToRowGroups) {
  const auto dir = std::filesystem::temp_directory_path() / "frazil_serde_row_groups_test";
  std::filesystem::create_directories(dir);
  const std::string a = (dir / "a.parquet").string(), b = (dir / "b.parquet").string();
  io::parquet::ParquetWriteOptions w;
  w.row_group_size = 2;  // frame() has 6 rows: groups {0,1} {2,3} {4,5}
  frazil::write_parquet(frame(), a, w);
  frazil::write_parquet(frame(), b, w);
  io::FileScanArgs args;
  args.paths = {a, b};
  io::parquet::ParquetReadOptions o;
  o.row_groups = {{a, {0, 2}}};  // b is read whole
  const LazyFrame q = scan_parquet(args, o);
  const DataFrame got = q.collect();
  ASSERT_EQ(got.height(), 4 + 6);
  EXPECT_EQ(got.column("k").get(2), frame().column("k").get(4));  // group 2 of a follows group 0
  expect_round_trip(q.filter(col("k") > 1));
  o.row_groups = {{a, {3}}};
  EXPECT_NE(error_of([&] { scan_parquet(args, o).collect(); }).find("row group 3"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(PlanSerde, DeepPlansAndExpressionsDoNotRecurse) {
  Expr e = col("k");
  for (int i = 0; i < 100'000; ++i) e = e + 1;
  const std::string eb = serde::serialize_expr(e);
  EXPECT_EQ(serde::serialize_expr(serde::deserialize_expr(eb)), eb);
  LazyFrame q = lf();
  for (int i = 0; i < 100'000; ++i) q = q.slice(0, 6);
  const std::string pb = serde::serialize_dsl_plan(q.plan());
  EXPECT_EQ(serde::serialize_dsl_plan(serde::deserialize_dsl_plan(pb)), pb);
}

TEST(PlanSerde, NewerVersionsAndOtherContentAreRefused) {
  std::string bytes = serde::serialize_dsl_plan(lf().plan());
  bytes[serde::kMagic.size()] = static_cast<char>(serde::kFormatVersion + 1);
  const std::string why = error_of([&] { serde::deserialize_dsl_plan(bytes); });
  EXPECT_NE(why.find("format version 2"), std::string::npos) << why;
  EXPECT_NE(why.find("up to 1"), std::string::npos) << why;
  const std::string expr = serde::serialize_expr(col("a"));
  EXPECT_NE(error_of([&] { serde::deserialize_dsl_plan(expr); }).find("holds an expression"), std::string::npos);
  EXPECT_NE(error_of([] { serde::deserialize_expr("not a plan"); }).find("FRZLPLAN"), std::string::npos);
}

TEST(PlanSerde, TruncatedAndCorruptInputIsAnErrorNamingTheOffset) {
  const LazyFrame q = lf().filter(col("k").is_in(lit_series(frame().column("k").as_array()))).group_by({col("s")}).agg(
      {col("v").mean(), col("k").cast(DataType::list(DataType::int64()))});
  const std::string bytes = serde::serialize_dsl_plan(q.plan());
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string why = error_of([&] { serde::deserialize_dsl_plan(std::string_view(bytes).substr(0, n)); });
    ASSERT_FALSE(why.empty()) << "a prefix of " << n << " bytes was accepted";
    EXPECT_NE(why.find("byte"), std::string::npos) << why;
  }
  // Flipped bytes: an error or a plan, never a crash.
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 3000; ++i) {
    std::string bad = bytes;
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    bad[serde::kMagic.size() + 5 + x % (bad.size() - serde::kMagic.size() - 5)] ^= static_cast<char>(1 + (x >> 32) % 255);
    try {
      serde::deserialize_dsl_plan(bad);
    } catch (const Error&) {
    }
  }
}
