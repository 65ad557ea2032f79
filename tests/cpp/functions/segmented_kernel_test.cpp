// Every registry row with a segmented kernel computes each segment as if it were the whole
// input: the kernel over two segments equals the plain kernel over each part, concatenated.
#include <gtest/gtest.h>

#include "../compute/elementwise_test_util.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/functions/registry.hpp"

using namespace frazil;
using namespace frazil::functions;
using namespace frazil::test;

namespace {

bool same_values(const Array& a, const Array& b) {
  if (a.dtype() != b.dtype() || a.length() != b.length()) return false;
  for (int64_t i = 0; i < a.length(); ++i) {
    Scalar x = array_get(a, i), y = array_get(b, i);
    if (x.is_null() != y.is_null()) return false;
    if (!x.is_null() && !(x == y) && x.to_string() != y.to_string()) return false;
  }
  return true;
}

}  // namespace

TEST(SegmentedKernels, EachSegmentIsComputedOnItsOwn) {
  const std::vector<ArrayRef> samples = {i64({5, N, -3, 0, 7, 7, N, 2, 9}), f64({1.5, N, -0.0, 4.0, NAN, 2.0, 3.0, N, 1.0})};
  const int64_t cut = 4;
  int checked = 0;
  for (const FunctionSpec* s : all()) {
    if (!s->segmented_kernel || s->min_inputs != 1 || s->nondeterministic) continue;
    for (const ArrayRef& x : samples) {
      if (!s->input_types.contains(x->dtype().id())) continue;
      SCOPED_TRACE(s->name + " on " + x->dtype().to_string());
      Args args = Args::defaults(s->params);
      // ewm_*_by take a `by`; every one-input row runs with its defaults.
      ArrayRef whole;
      try {
        std::vector<ArrayRef> in{x};
        whole = s->kernel(args)(in);
      } catch (const Error&) {
        continue;  // a row whose defaults do not apply to this dtype
      }
      const int64_t offsets[3] = {0, cut, x->length()};
      std::vector<ArrayRef> in{x};
      ArrayRef seg = s->segmented_kernel(args)(in, offsets);
      std::vector<ArrayRef> a{x->slice(0, cut)}, b{x->slice(cut, x->length() - cut)};
      ArrayRef expected = concat_arrays({s->kernel(args)(a), s->kernel(args)(b)});
      EXPECT_TRUE(same_values(*seg, *expected));
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
}
