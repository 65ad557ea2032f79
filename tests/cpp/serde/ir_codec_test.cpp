// The optimized plan in the plan format: a plan read back runs to the same frame, writes
// the same bytes again, and corrupt input is an error naming the byte offset.
#include "frazil/serde/ir_codec.hpp"

#include <gtest/gtest.h>

#include "frazil/dsl/str_namespace.hpp"
#include "frazil/exec/executor.hpp"
#include "frazil/frazil.hpp"
#include "frazil/optimizer/optimizer.hpp"
#include "frazil/plan/conversion/dsl_to_ir.hpp"

using namespace frazil;
using namespace frazil::dsl;

namespace {

DataFrame frame() {
  PrimitiveBuilder<int64_t> k(DataType::int64());
  PrimitiveBuilder<double> v(DataType::float64());
  ViewBuilder s;
  for (int i = 0; i < 40; ++i) {
    k.push(i % 7);
    if (i % 5 == 0) v.push_null();
    else v.push(i * 0.25);
    s.push(i % 3 ? "x" : "yz");
  }
  return DataFrame({Column("k", k.finish()), Column("v", v.finish()), Column("s", s.finish())});
}

void expect_ir_round_trip(const LazyFrame& q, bool optimized = true) {
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root = plan::to_alp(q.plan(), lp, ea, OptFlags());
  if (optimized) root = optimizer::optimize(root, lp, ea, OptFlags());
  const std::string bytes = serde::serialize_ir(root, lp, ea);
  serde::IrPlan back = serde::deserialize_ir(bytes);
  EXPECT_EQ(serde::serialize_ir(back.root, back.lp, back.ea), bytes);
  const DataFrame want = exec::execute_plan(root, lp, ea);
  const DataFrame got = exec::execute_plan(back.root, back.lp, back.ea);
  EXPECT_TRUE(got.equals(want)) << "want\n" << want.to_string() << "\ngot\n" << got.to_string();
}

}  // namespace

TEST(IrSerde, OptimizedPlansRunTheSame) {
  const LazyFrame lf = LazyFrame::from_frame(frame());
  const std::vector<LazyFrame> queries = {
      lf.filter(col("k") > 2).select({col("v") * 2, col("s").str().len_bytes().alias("n")}),
      lf.group_by({col("k")}, true).agg({col("v").sum(), col("v").std(1).alias("sd"), col("s").n_unique().alias("u")}),
      lf.join(lf.group_by({col("k")}, true).agg({col("v").mean().alias("m")}), {col("k")},
              JoinArgs{compute::JoinType::Left}),
      lf.sort({col("v")}, SortArgs{{true}, {true}, true}).slice(0, 5),  // top-k in the sort
      concat({lf, lf}).unique({"k"}, "first", true).with_row_index("i").rename({{"i", "row"}}),
      lf.with_columns({col("v").cum_sum().over({col("k")}).alias("w"), col("k").is_in(lit_series(frame().column("k").as_array())).alias("in")}),
      lf.group_by({col("k")}, true).agg({col("v")}).explode({"v"}),
  };
  for (const LazyFrame& q : queries) {
    expect_ir_round_trip(q, true);
    expect_ir_round_trip(q, false);
  }
}

TEST(IrSerde, UnionKeepsItsRechunk) {
  const LazyFrame lf = LazyFrame::from_frame(frame());
  plan::IRArena lp;
  plan::ExprArena ea;
  const plan::Node root = plan::to_alp(concat({lf, lf}, /*rechunk=*/true).plan(), lp, ea, OptFlags());
  const serde::IrPlan back = serde::deserialize_ir(serde::serialize_ir(root, lp, ea));
  EXPECT_TRUE(back.lp.get(back.root).as<plan::UnionNode>().rechunk);
  expect_ir_round_trip(concat({lf, lf}, true));
  expect_ir_round_trip(concat({lf, lf}, true).group_by({col("k")}, true).agg({col("v").sum()}));
}

TEST(IrSerde, CommonSubplansKeepTheirCache) {
  const LazyFrame base = LazyFrame::from_frame(frame()).filter(col("k") > 1).with_columns({(col("v") + 1).alias("w")});
  expect_ir_round_trip(base.join(base.select({col("k"), col("w").alias("w2")}), {col("k")}));
}

TEST(IrSerde, CorruptInputIsAnErrorNamingTheOffset) {
  const LazyFrame q = LazyFrame::from_frame(frame()).filter(col("k") > 2).group_by({col("s")}).agg({col("v").max()});
  plan::IRArena lp;
  plan::ExprArena ea;
  plan::Node root = optimizer::optimize(plan::to_alp(q.plan(), lp, ea, OptFlags()), lp, ea, OptFlags());
  const std::string bytes = serde::serialize_ir(root, lp, ea);
  for (size_t n = 0; n < bytes.size(); n += 7) {
    try {
      serde::deserialize_ir(std::string_view(bytes).substr(0, n));
      ADD_FAILURE() << "a prefix of " << n << " bytes was accepted";
    } catch (const ComputeError& e) {
      EXPECT_NE(std::string(e.what()).find("byte"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(serde::deserialize_dsl_plan(bytes), ComputeError);  // an IR is not a DSL plan
}
