#include "frazil/compute/row_encoding/row_encoding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

// The row order that memcmp of the encoded keys gives (stable).
std::vector<int64_t> key_order(const Array& keys) {
  std::vector<int64_t> idx(keys.length());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return keys.str_value(a) < keys.str_value(b); });
  return idx;
}

ArrayRef list_of(const ArrayRef& values, std::vector<int64_t> offsets, std::vector<bool> valid) {
  const int64_t n = static_cast<int64_t>(offsets.size()) - 1;
  Buffer off = Buffer::allocate(offsets.size() * sizeof(int64_t));
  std::memcpy(off.mutable_data(), offsets.data(), offsets.size() * sizeof(int64_t));
  ValidityBuilder v;
  for (bool b : valid) v.push(b);
  return Array::make(DataType::list(values->dtype()), n, v.finish(), {off}, {values});
}

}  // namespace

TEST(RowEncoding, OrdersAsSortWithOptions) {
  ArrayRef a = i64({3, N, -1, 3, 0});
  EXPECT_EQ(key_order(*row_encode({a}, {})), (std::vector<int64_t>{1, 2, 4, 0, 3}));
  EXPECT_EQ(key_order(*row_encode({a}, {{true, false}})), (std::vector<int64_t>{1, 0, 3, 4, 2}));
  EXPECT_EQ(key_order(*row_encode({a}, {{false, true}})), (std::vector<int64_t>{2, 4, 0, 3, 1}));
  // Two columns: the second breaks the first's ties.
  ArrayRef b = strs({"b", "x", "", "a", N});
  EXPECT_EQ(key_order(*row_encode({a, b}, {{true, true}, {false, false}})), (std::vector<int64_t>{3, 0, 4, 2, 1}));
}

TEST(RowEncoding, FloatsAndStringsOrder) {
  ArrayRef f = f64({1.5, -0.0, NAN, -INFINITY, 0.0, -2.0});
  ArrayRef keys = row_encode({f}, {});
  EXPECT_EQ(key_order(*keys), (std::vector<int64_t>{3, 5, 1, 4, 0, 2}));
  EXPECT_EQ(keys->str_value(1), keys->str_value(4));  // -0.0 encodes as 0.0
  ArrayRef s = strs({"ab", "a", std::string("a\0", 2), "", "b"});
  EXPECT_EQ(key_order(*row_encode({s}, {})), (std::vector<int64_t>{3, 1, 2, 0, 4}));
  EXPECT_EQ(key_order(*row_encode({s}, {{true, false}})), (std::vector<int64_t>{4, 0, 2, 1, 3}));
}

TEST(RowEncoding, NestedNullsFirstAscendingLastDescending) {
  // [[1], [null], [], null, [1, 2]]
  ArrayRef l = list_of(i64({1, N, 1, 2}), {0, 1, 2, 2, 2, 4}, {true, true, true, false, true});
  EXPECT_EQ(key_order(*row_encode({l}, {})), (std::vector<int64_t>{3, 2, 1, 0, 4}));
  EXPECT_EQ(key_order(*row_encode({l}, {{true, false}})), (std::vector<int64_t>{3, 4, 0, 1, 2}));
}

TEST(RowEncoding, RoundTripsEveryOption) {
  ArrayRef a = sliced(i32({7, N, -3}));
  ArrayRef s = strs({std::string("x\0y", 3), "", N});
  ArrayRef l = list_of(strs({"p", N, "q"}), {0, 2, 2, 3}, {true, false, true});
  ArrayRef f = f32({NAN, 2.5f, N});
  for (bool desc : {false, true}) {
    for (bool last : {false, true}) {
      std::vector<RowEncodingField> opts(4, {desc, last});
      ArrayRef keys = row_encode({a, s, l, f}, opts);
      auto back = row_decode(*keys, {a->dtype(), s->dtype(), l->dtype(), f->dtype()}, opts);
      EXPECT_EQ(values_of<int32_t>(*back[0]), (Opt<int32_t>{7, N, -3}));
      EXPECT_EQ(strs_of(*back[1]), (Opt<std::string>{std::string("x\0y", 3), "", N}));
      EXPECT_EQ(strs_of(*back[2]->child(0)), (Opt<std::string>{"p", N, "q"}));
      EXPECT_TRUE(back[2]->is_null(1));
      EXPECT_TRUE(std::isnan(back[3]->values<float>()[0]));
      EXPECT_TRUE(back[3]->is_null(2));
    }
  }
}

TEST(RowEncoding, OneRowColumnsBroadcast) {
  ArrayRef keys = row_encode({i64({1, 2}), strs({"k"})}, {});
  auto back = row_decode(*keys, {DataType::int64(), DataType::string()}, {});
  EXPECT_EQ(strs_of(*back[1]), (Opt<std::string>{"k", "k"}));
}

TEST(RowEncoding, BadInputRaises) {
  ArrayRef keys = row_encode({i64({1})}, {});
  EXPECT_THROW(row_decode(*keys, {DataType::int32()}, {}), ComputeError);     // bytes left over
  EXPECT_THROW(row_decode(*keys, {DataType::string()}, {}), ComputeError);    // no terminator
  EXPECT_THROW(row_decode(*row_encode({i64({N})}, {}), {DataType::int64()}, {{false, true}}), ComputeError);
  EXPECT_THROW(row_decode(*strs({"x"}, DataType::binary()), {DataType::int64()}, {}), ComputeError);
  EXPECT_THROW(row_decode(*i64({1}), {DataType::int64()}, {}), InvalidOperationError);
  EXPECT_THROW(row_encode({i64({1, 2}), i64({1, 2, 3})}, {}), ShapeError);
  EXPECT_THROW(row_encode({i64({1})}, {{}, {}}), InvalidOperationError);
}
