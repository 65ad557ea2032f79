#include "frazil/compute/binning/binning.hpp"
#include "frazil/compute/binning/bin_intervals.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "../elementwise_test_util.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

Opt<std::string> labels_of(const Array& codes) {
  Opt<std::string> out;
  for (int64_t i = 0; i < codes.length(); ++i) {
    if (codes.is_null(i)) {
      out.push_back(N);
    } else {
      out.push_back(codes.dtype().categories().get(codes.values<uint32_t>()[i]));
    }
  }
  return out;
}

}  // namespace

TEST(Binning, IntervalLabels) {
  EXPECT_EQ(interval_labels({-1, 0.25, 1e20}, false),
            (std::vector<std::string>{"(-inf, -1]", "(-1, 0.25]", "(0.25, 100000000000000000000]",
                                      "(100000000000000000000, inf]"}));
  EXPECT_EQ(interval_labels({2}, true), (std::vector<std::string>{"[-inf, 2)", "[2, inf)"}));
}

TEST(Binning, CutRightAndLeftClosed) {
  ArrayRef v = sliced(f64({-2, -1, 0, 1, N, NAN, 2}));
  BinSpec s;
  s.breaks = {1, -1};  // sorted by cut
  EXPECT_EQ(labels_of(*cut(*v, s)), (Opt<std::string>{"(-inf, -1]", "(-inf, -1]", "(-1, 1]", "(-1, 1]", N, N, "(1, inf]"}));
  EXPECT_EQ(cut(*v, s)->dtype(), cut_dtype(s));
  s.left_closed = true;
  s.labels = {"a", "b", "c"};
  EXPECT_EQ(labels_of(*cut(*v, s)), (Opt<std::string>{"a", "b", "b", "c", N, N, "c"}));
  s.include_breaks = true;
  ArrayRef out = cut(*v, s);
  EXPECT_EQ(out->dtype(), cut_dtype(s));
  expect_floats<double>(*out->child(0), {-1, 1, 1, INFINITY, N, N, INFINITY});
}

TEST(Binning, CutErrors) {
  BinSpec s;
  s.breaks = {1, 1};
  EXPECT_THROW(cut(*i64({1}), s), DuplicateError);
  s.breaks = {1, 2};
  s.labels = {"a"};
  EXPECT_THROW(cut(*i64({1}), s), ShapeError);
  s.labels = {};
  EXPECT_THROW(cut(*strs({"x"}), s), InvalidOperationError);
}

TEST(Binning, QcutLinearQuantiles) {
  ArrayRef v = f64({-1.0, N, 1.0, 2.0, N, 8.0, 4.0});
  EXPECT_EQ(labels_of(*qcut(*v, {0.2, 0.3}, {"a", "b", "c"}, false, false, false)),
            (Opt<std::string>{"a", N, "b", "c", N, "c", "c"}));
  EXPECT_EQ(labels_of(*qcut(*f64({1, 2, 3, 4, NAN}), {0.5, 1.0}, {}, false, false, false)),
            (Opt<std::string>{"(-inf, 2.5]", "(-inf, 2.5]", "(2.5, 4]", "(2.5, 4]", N}));
  EXPECT_EQ(qcut(*f64({NAN, N}), {0.5}, {}, false, false, true)->dtype(), qcut_dtype(true));
  EXPECT_EQ(qcut(*f64({NAN, N}), {0.5}, {}, false, false, false)->null_count(), 2);
}

TEST(Binning, QcutErrors) {
  ArrayRef v = i64({1, 2, 2, 3});
  EXPECT_THROW(qcut(*v, {0.5, 0.51}, {}, false, false, false), DuplicateError);
  EXPECT_EQ(labels_of(*qcut(*v, {0.5, 0.51}, {}, false, true, false)),
            (Opt<std::string>{"(-inf, 2]", "(-inf, 2]", "(-inf, 2]", "(2, inf]"}));
  EXPECT_THROW(qcut(*v, {1.5}, {}, false, false, false), ComputeError);
  EXPECT_THROW(qcut(*f64({INFINITY, -INFINITY}), {0.3}, {}, false, false, false), ComputeError);
}

TEST(BinIntervals, ExplicitBreaksLeftAndRightClosed) {
  ArrayRef v = sliced(f64({1.0, 2.5, N, NAN, -1.0, 3.0}));
  IntervalBinning how;
  EXPECT_EQ(values_of<uint32_t>(*bin_by_breaks(*v, *f64({1, 3}), how)), (Opt<uint32_t>{1, 1, N, 2, 0, 2}));
  how.right_closed = true;
  EXPECT_EQ(values_of<uint32_t>(*bin_by_breaks(*v, *i64({1, 3}), how)), (Opt<uint32_t>{0, 1, N, 2, 0, 1}));
  how.include_intervals = true;
  ArrayRef s = bin_by_breaks(*v, *f64({1, 3}), how);
  EXPECT_EQ(s->dtype(), interval_bins_dtype(v->dtype(), how));
  expect_floats<double>(*s->child(1), {N, 1, N, 3, N, 1});
  expect_floats<double>(*s->child(2), {1, 3, N, N, 1, 3});
}

TEST(BinIntervals, UniformAndQuantileBreaks) {
  IntervalBinning how;
  how.include_intervals = true;
  // [1, 9] in 3 bins: breaks 3.67 and 6.33, rounded up for integers.
  ArrayRef s = bin_uniform(*i64({5, 1, 2, 9, 4}), 3, how);
  EXPECT_EQ(values_of<int64_t>(*s->child(1)), (Opt<int64_t>{4, N, N, 7, 4}));
  // floor(q * n) ranks of the 7 sorted values.
  ArrayRef q = bin_at_quantiles(*f64({0, 1, 2, 3, 4, 5, 6}), {0.25}, how);
  expect_floats<double>(*q->child(2), {1, N, N, N, N, N, N});
}

TEST(BinIntervals, Errors) {
  IntervalBinning how;
  EXPECT_THROW(bin_by_breaks(*i64({1}), *i64({2, 1}), how), ComputeError);
  EXPECT_THROW(bin_by_breaks(*i64({1}), *i64({1, N}), how), ComputeError);
  how.labels = {"a"};
  EXPECT_THROW(bin_by_breaks(*i64({1}), *i64({1, 2}), how), ShapeError);
  EXPECT_THROW(bin_uniform(*strs({"a"}), 2, IntervalBinning{}), InvalidOperationError);
}

TEST(BinIntervals, RanksArePositional) {
  IntervalBinning how;
  // [1, 1, 2, 2] cut at 25% and 75% of the rows: equal values split across bins.
  EXPECT_EQ(values_of<uint32_t>(*bin_by_rank(*i64({1, 1, 2, 2}), {0.25, 0.75}, 0, how)), (Opt<uint32_t>{0, 1, 1, 2}));
  // Two near-equal bins of 5 values (the first one larger), nulls stay null.
  how.include_intervals = true;
  ArrayRef s = bin_by_rank(*i64({5, 1, 1, 3, N, 2}), {}, 2, how);
  EXPECT_EQ(values_of<uint32_t>(*s->child(0)), (Opt<uint32_t>{1, 0, 0, 1, N, 0}));
  EXPECT_EQ(values_of<int64_t>(*s->child(1)), (Opt<int64_t>{3, N, N, 3, N, N}));
  EXPECT_EQ(values_of<int64_t>(*s->child(2)), (Opt<int64_t>{N, 3, 3, N, N, 3}));
  EXPECT_THROW(bin_by_rank(*i64({1}), {0.5, 0.2}, 0, IntervalBinning{}), ComputeError);
}
