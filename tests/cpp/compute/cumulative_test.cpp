#include "frazil/compute/cumulative.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "elementwise_test_util.hpp"
#include "frazil/compute/ewm.hpp"
#include "frazil/compute/rank.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {
std::vector<int64_t> whole(const ArrayRef& a) { return {0, a->length()}; }
}  // namespace

TEST(CumulativeKernels, CumSumWidensSkipsNullsAndRestartsPerSegment) {
  ArrayRef x = i8({100, 100, N, -1, 5});
  const int64_t seg[] = {0, 3, 5};
  ArrayRef out = cum_sum(*x, seg, false);
  EXPECT_EQ(out->dtype(), DataType::int64());
  EXPECT_EQ(values_of<int64_t>(*out), (Opt<int64_t>{100, 200, N, -1, 4}));
  EXPECT_EQ(values_of<int64_t>(*cum_sum(*x, seg, true)), (Opt<int64_t>{200, 100, N, 4, 5}));
  EXPECT_EQ(cum_sum(*bools({true, true}), whole(bools({true, true})), false)->dtype(), DataType::uint32());
  EXPECT_THROW(cum_sum(*strs({"a"}), std::vector<int64_t>{0, 1}, false), InvalidOperationError);
}

TEST(CumulativeKernels, CumMaxSkipsNanAndHandlesStrings) {
  ArrayRef f = f64({NAN, 1.0, NAN, 3.0, N, 2.0});
  auto v = values_of<double>(*cum_max(*f, whole(f), false));
  EXPECT_TRUE(std::isnan(*v[0]));
  EXPECT_EQ(*v[1], 1.0);
  EXPECT_EQ(*v[2], 1.0);
  EXPECT_EQ(*v[3], 3.0);
  EXPECT_FALSE(v[4].has_value());
  EXPECT_EQ(*v[5], 3.0);
  ArrayRef s = strs({"b", N, "a", "c"});
  EXPECT_EQ(strs_of(*cum_min(*s, whole(s), false)), (Opt<std::string>{"b", N, "a", "a"}));
  EXPECT_EQ(values_of<uint32_t>(*cum_count(*s, whole(s), true)), (Opt<uint32_t>{3, 2, 2, 1}));
}

TEST(CumulativeKernels, DiffAndPctChangeStayInsideTheirSegment) {
  ArrayRef x = u8({1, 5, 2, 10, 4});
  const int64_t seg[] = {0, 2, 5};
  ArrayRef d = diff(*x, seg, 1);
  EXPECT_EQ(d->dtype(), DataType::int16());
  EXPECT_EQ(values_of<int16_t>(*d), (Opt<int16_t>{N, 4, N, 8, -6}));
  EXPECT_EQ(values_of<int16_t>(*diff(*x, seg, -1)), (Opt<int16_t>{-4, N, -8, 6, N}));
  EXPECT_EQ(values_of<double>(*pct_change(*x, seg, 1)), (Opt<double>{N, 4.0, N, 4.0, -0.6}));
}

TEST(CumulativeKernels, RleIdAndRle) {
  ArrayRef x = i64({1, 1, N, N, 2, 1});
  EXPECT_EQ(values_of<uint32_t>(*rle_id(*x, whole(x))), (Opt<uint32_t>{0, 0, 1, 1, 2, 3}));
  ArrayRef r = rle(*x);
  EXPECT_EQ(r->length(), 4);
  EXPECT_EQ(values_of<uint32_t>(*r->child(0)), (Opt<uint32_t>{2, 2, 1, 1}));
  EXPECT_EQ(values_of<int64_t>(*r->child(1)), (Opt<int64_t>{1, N, 2, 1}));
}

TEST(CumulativeKernels, PeaksCompareWithZeroAtTheEdges) {
  ArrayRef x = i64({3, N, 1, 4, N, 0, 2});
  EXPECT_EQ(bools_of(*peaks(*x, whole(x), true)), (Opt<bool>{N, N, false, N, N, false, true}));
}

TEST(CumulativeKernels, FillsAndInterpolation) {
  ArrayRef x = i64({N, 1, N, N, 4, N});
  EXPECT_EQ(values_of<int64_t>(*fill_forward(*x, whole(x), 1)), (Opt<int64_t>{N, 1, 1, N, 4, 4}));
  EXPECT_EQ(values_of<int64_t>(*fill_backward(*x, whole(x), std::nullopt)), (Opt<int64_t>{1, 1, 4, 4, 4, N}));
  EXPECT_EQ(values_of<double>(*interpolate(*x, whole(x), false)), (Opt<double>{N, 1.0, 2.0, 3.0, 4.0, N}));
  // Nearest: a tie goes to the later value.
  ArrayRef y = i64({1, N, 4});
  EXPECT_EQ(values_of<int64_t>(*interpolate(*y, whole(y), true)), (Opt<int64_t>{1, 4, 4}));
  ArrayRef by = i64({2, 1, 4});
  EXPECT_EQ(values_of<double>(*interpolate_by(*f64({1.0, N, 4.0}), *by, whole(by))), (Opt<double>{1.0, N, 4.0}));
  ArrayRef by2 = i64({1, 2, 4});
  EXPECT_EQ(values_of<double>(*interpolate_by(*f64({1.0, N, 4.0}), *by2, whole(by2))), (Opt<double>{1.0, 2.0, 4.0}));
}

TEST(RankKernel, MethodsResolveTiesAndSegmentsRankAlone) {
  ArrayRef x = i64({3, 1, 3, N, 2});
  auto w = whole(x);
  EXPECT_EQ(values_of<double>(*rank(*x, w, RankMethod::Average, false)), (Opt<double>{3.5, 1, 3.5, N, 2}));
  EXPECT_EQ(values_of<uint32_t>(*rank(*x, w, RankMethod::Min, false)), (Opt<uint32_t>{3, 1, 3, N, 2}));
  EXPECT_EQ(values_of<uint32_t>(*rank(*x, w, RankMethod::Max, false)), (Opt<uint32_t>{4, 1, 4, N, 2}));
  EXPECT_EQ(values_of<uint32_t>(*rank(*x, w, RankMethod::Dense, true)), (Opt<uint32_t>{1, 3, 1, N, 2}));
  EXPECT_EQ(values_of<uint32_t>(*rank(*x, w, RankMethod::Ordinal, false)), (Opt<uint32_t>{3, 1, 4, N, 2}));
  const int64_t seg[] = {0, 2, 5};
  EXPECT_EQ(values_of<uint32_t>(*rank(*x, seg, RankMethod::Ordinal, false)), (Opt<uint32_t>{2, 1, 2, N, 1}));
}

TEST(EwmKernel, MeanMatchesPolarsRecurrence) {
  ArrayRef x = f64({1.0, N, 3.0, N, N, 2.0});
  EwmOptions o;
  o.alpha = 0.5;
  auto m = values_of<double>(*ewm(EwmKind::Mean, *x, whole(x), o));
  EXPECT_DOUBLE_EQ(*m[0], 1.0);
  EXPECT_FALSE(m[1].has_value());
  EXPECT_DOUBLE_EQ(*m[2], 2.6);
  EXPECT_NEAR(*m[5], 2.081081081081081, 1e-12);
  auto s = values_of<double>(*ewm(EwmKind::Sum, *x, whole(x), o));
  EXPECT_DOUBLE_EQ(*s[2], 3.25);
  o.alpha = 0.0;
  EXPECT_THROW(ewm(EwmKind::Mean, *x, whole(x), o), ComputeError);
}
