#include "frazil/functions/registry.hpp"

#include <gtest/gtest.h>

#include <set>

#include "../compute/elementwise_test_util.hpp"
#include "frazil/compute/cast.hpp"
#include "frazil/core/error.hpp"
#include "frazil/functions/function_call.hpp"

using namespace frazil;
using namespace frazil::functions;
using namespace frazil::test;

TEST(Registry, FindsFunctionsByPolarsName) {
  ASSERT_NE(find("abs"), nullptr);
  EXPECT_EQ(find("abs")->name, "abs");
  EXPECT_EQ(&get("str.contains"), find("str.contains"));
  EXPECT_EQ(find("no_such_function"), nullptr);
}

TEST(Registry, UnknownNameSuggestsTheClosest) {
  try {
    get("str.to_uppercas");
    FAIL() << "expected an error";
  } catch (const InvalidOperationError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown function 'str.to_uppercas'; did you mean 'str.to_uppercase'?");
  }
}

// Every row is complete and names are unique: a row missing its kernel or dtype rule
// would only fail when a query used it.
TEST(Registry, EveryRowIsComplete) {
  std::set<std::string> names;
  for (const FunctionSpec* s : all()) {
    SCOPED_TRACE(s->name);
    EXPECT_TRUE(names.insert(s->name).second);
    EXPECT_TRUE(s->kernel != nullptr);
    EXPECT_TRUE(s->output_dtype != nullptr);
    EXPECT_GE(s->min_inputs, 1u);
    EXPECT_LE(s->min_inputs, s->max_inputs);
    EXPECT_LE(s->roles.size(), s->max_inputs);
    // A row-wise property only makes sense for a function whose rows line up.
    if (!s->is_elementwise()) EXPECT_EQ(s->null_if_null, 0u);
  }
  EXPECT_GE(names.size(), 40u);
}

// For every one-input function that takes Int64 (or Float64, or String), the kernel's
// result has the dtype the registry's rule derives: the planner and the executor agree.
TEST(Registry, KernelsProduceTheDtypeTheirRuleDerives) {
  const std::vector<ArrayRef> samples = {i64({1, N, -3, 0}), f64({1.5, N, -0.0, 4.0}),
                                         strs({"a", N, "héllo", ""}),
                                         compute::cast(*i64({1, N, -3, 0}), DataType::int128()),
                                         compute::cast(*i64({1, N, 3, 0}), DataType::uint128()),
                                         compute::cast(*f64({1.5, N, -0.0, 4.0}), DataType::float16())};
  int checked = 0;
  for (const FunctionSpec* s : all()) {
    if (s->min_inputs != 1) continue;
    for (const ArrayRef& x : samples) {
      if (!s->input_types.contains(x->dtype().id())) continue;
      SCOPED_TRACE(s->name + " on " + x->dtype().to_string());
      const Args args = Args::defaults(s->params);
      std::vector<DataType> types{x->dtype()};
      if (s->check) {
        // (A function whose defaults are incomplete, json_decode's dtype, is not sampled.)
        try {
          s->check(CallTypes{types, args});
        } catch (const InvalidOperationError&) {
          continue;
        }
      }
      const DataType want = s->output_dtype(CallTypes{types, args});
      std::vector<ArrayRef> in{x};
      ArrayRef out;
      try {
        out = s->kernel(args)(in);
      } catch (const Error& e) {
        // A fallible function may raise on the sample's values (str.decode of "a", item() of four rows).
        if (s->fallible) continue;
        ADD_FAILURE() << e.what();  // (the trace names the function and dtype)
        continue;
      }
      EXPECT_EQ(out->dtype(), want);
      if (s->is_elementwise() || s->shape == Shape::LengthPreserving) EXPECT_EQ(out->length(), x->length());
      if (s->is_reduction()) EXPECT_EQ(out->length(), 1);
      ++checked;
    }
  }
  EXPECT_GE(checked, 30);
}

TEST(Args, KeywordsAreCheckedByName) {
  const FunctionSpec& between = get("is_between");
  Args a = Args::from_keywords("is_between", between.params, {{"closed", std::string("left")}});
  EXPECT_EQ(a.get_string("closed"), "left");
  EXPECT_EQ(Args::defaults(between.params).get_string("closed"), "both");
  EXPECT_THROW(Args::from_keywords("is_between", between.params, {{"close", std::string("left")}}),
               InvalidOperationError);
  EXPECT_THROW(Args::from_keywords("is_between", between.params, {{"closed", std::string("middle")}}),
               InvalidOperationError);
  EXPECT_THROW(Args::from_keywords("is_between", between.params, {{"closed", int64_t{1}}}), InvalidOperationError);
}

TEST(Args, EqualValuesHashEqually) {
  const FunctionSpec& round = get("round");
  Args a = Args::from_keywords("round", round.params, {{"decimals", int64_t{2}}});
  Args b = Args::defaults(round.params).with("decimals", int64_t{2});
  Args c = Args::defaults(round.params);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.hash(), b.hash());
  EXPECT_FALSE(a == c);
}

TEST(FunctionCall, PrintsAsPolarsDoes) {
  const std::vector<std::string> root{"col(\"a\")"};
  EXPECT_EQ(FunctionCall("abs").to_string(root), "col(\"a\").abs()");
  const FunctionSpec& round = get("round");
  EXPECT_EQ(FunctionCall(round, Args::defaults(round.params).with("decimals", int64_t{2})).to_string(root),
            "col(\"a\").round(2)");
  const std::vector<std::string> three{"col(\"a\")", "col(\"b\")", "0"};
  EXPECT_EQ(FunctionCall("coalesce").to_string(three), "coalesce([col(\"a\"), col(\"b\"), 0])");
  const FunctionSpec& between = get("is_between");
  EXPECT_EQ(FunctionCall(between, Args::defaults(between.params)).to_string(three),
            "col(\"a\").is_between(col(\"b\"), 0, closed=\"both\")");
  // Parameters without a display of their own are printed when they differ from the default.
  const FunctionSpec& fmt = get("dt.to_string");
  EXPECT_EQ(FunctionCall(fmt, Args::defaults(fmt.params)).to_string(root), "col(\"a\").dt.to_string()");
  EXPECT_EQ(FunctionCall(fmt, Args::defaults(fmt.params).with("format", std::string("%Y"))).to_string(root),
            "col(\"a\").dt.to_string(format=\"%Y\")");
  // String functions list their inputs in brackets, as Polars: str.contains(["x"]).
  const std::vector<std::string> two{"col(\"a\")", "\"x\""};
  EXPECT_EQ(FunctionCall("str.contains").to_string(two), "col(\"a\").str.contains([\"x\"])");
}
