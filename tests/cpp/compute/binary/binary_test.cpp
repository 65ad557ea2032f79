#include "frazil/compute/binary/binary.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

ArrayRef bins(const Opt<std::string>& v) { return strs(v, DataType::binary()); }
const std::string kBytes("\x00\x01\x02\x03", 4);

}  // namespace

TEST(BinaryKernels, Matching) {
  ArrayRef b = bins({"abc", "", N, kBytes});
  EXPECT_EQ(bools_of(*bin_contains(*b, *bins({"b"}))), (Opt<bool>{true, false, N, false}));
  EXPECT_EQ(bools_of(*bin_starts_with(*b, *bins({"ab"}))), (Opt<bool>{true, false, N, false}));
  EXPECT_EQ(bools_of(*bin_ends_with(*b, *bins({"c", "", "x", std::string("\x03", 1)}))), (Opt<bool>{true, true, N, true}));
  EXPECT_THROW(bin_contains(*strs({"a"}), *bins({"a"})), SchemaError);
}

TEST(BinaryKernels, SizeSliceHeadTail) {
  ArrayRef b = sliced(bins({"abc", "", N, kBytes}));
  EXPECT_EQ(values_of<uint32_t>(*bin_size(*b, "b")), (Opt<uint32_t>{3, 0, N, 4}));
  EXPECT_EQ(strs_of(*bin_slice(*b, *i64({1}), *i64({2}))), (Opt<std::string>{"bc", "", N, std::string("\x01\x02", 2)}));
  EXPECT_EQ(strs_of(*bin_slice(*b, *i64({-2}), *make_null_array(DataType::null(), 1))),
            (Opt<std::string>{"bc", "", N, std::string("\x02\x03", 2)}));
  EXPECT_EQ(strs_of(*bin_head(*b, *i64({-1}))), (Opt<std::string>{"ab", "", N, std::string("\x00\x01\x02", 3)}));
  EXPECT_EQ(strs_of(*bin_tail(*b, *i64({-1}))), (Opt<std::string>{"bc", "", N, std::string("\x01\x02\x03", 3)}));
  EXPECT_EQ(bin_head(*b, *i64({1}))->dtype(), DataType::binary());
}

TEST(BinaryKernels, GetAndReinterpret) {
  ArrayRef b = bins({"abc", "", N, kBytes});
  EXPECT_EQ(values_of<uint8_t>(*bin_get(*b, *i64({1}), true)), (Opt<uint8_t>{98, N, N, 1}));
  EXPECT_THROW(bin_get(*b, *i64({5}), false), ComputeError);
  EXPECT_EQ(values_of<int32_t>(*bin_reinterpret(*b, DataType::int32(), true)), (Opt<int32_t>{N, N, N, 50462976}));
  EXPECT_EQ(values_of<int32_t>(*bin_reinterpret(*b, DataType::int32(), false)), (Opt<int32_t>{N, N, N, 66051}));
}

// Expected values printed by polars 2.1.0 for the same bytes.
TEST(BinaryKernels, ReinterpretToArraysAndTemporals) {
  ArrayRef b = bins({"short", "justrite", N, kBytes});
  ArrayRef arr = bin_reinterpret(*b, DataType::array(DataType::uint32(), 2), true);
  EXPECT_EQ(arr->dtype(), DataType::array(DataType::uint32(), 2));
  EXPECT_EQ(arr->null_count(), 3);
  EXPECT_EQ(values_of<uint32_t>(*arr->child(0)->slice(2, 2)), (Opt<uint32_t>{0x7473756A, 0x65746972}));
  ArrayRef big = bin_reinterpret(*b, DataType::array(DataType::uint32(), 2), false);
  EXPECT_EQ(values_of<uint32_t>(*big->child(0)->slice(2, 2)), (Opt<uint32_t>{0x6A757374, 0x72697465}));
  ArrayRef dates = bin_reinterpret(*b, DataType::date(), true);
  EXPECT_EQ(dates->dtype(), DataType::date());
  EXPECT_EQ(dates->null_count(), 3);
  // 'justrite' as nanoseconds is past one day: a null Time.
  EXPECT_EQ(bin_reinterpret(*b, DataType::time(), true)->null_count(), 4);
  EXPECT_THROW(bin_reinterpret(*b, DataType::array(DataType::array(DataType::uint8(), 1), 1), true),
               InvalidOperationError);
  EXPECT_THROW(bin_reinterpret(*b, DataType::string(), true), InvalidOperationError);
}
