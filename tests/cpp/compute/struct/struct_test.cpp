#include "frazil/compute/struct/struct.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/compute/compare.hpp"
#include "frazil/compute/sort.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

// {a: i64, b: str} with a null struct row (row 2) on top of field-level nulls.
ArrayRef sample() {
  std::vector<ArrayRef> fields{i64({1, N, 3, 4}), strs({"x", "y", N, "zz"})};
  ArrayRef s = struct_from_fields({"a", "b"}, fields);
  Buffer validity = Buffer::zeroed(1);
  for (int i : {0, 1, 3}) set_bit(validity.mutable_data(), i);
  return s->with_validity(std::move(validity));
}

}  // namespace

TEST(StructKernels, BuildsFromFieldsAndBroadcastsOneRow) {
  std::vector<ArrayRef> fields{i64({1, 2, 3}), strs({"k"})};
  ArrayRef s = struct_from_fields({"a", "k"}, fields);
  ASSERT_EQ(s->length(), 3);
  EXPECT_EQ(s->dtype(), DataType::struct_({{"a", DataType::int64()}, {"k", DataType::string()}}));
  EXPECT_EQ(strs_of(*struct_field(*s, 1)), (Opt<std::string>{"k", "k", "k"}));
  EXPECT_THROW(struct_from_fields({"a", "a"}, fields), DuplicateError);
}

TEST(StructKernels, FieldCarriesTheStructsNulls) {
  ArrayRef s = sample();
  EXPECT_EQ(values_of<int64_t>(*struct_field(*s, 0)), (Opt<int64_t>{1, N, N, 4}));
  EXPECT_EQ(strs_of(*struct_field(*s, 1)), (Opt<std::string>{"x", "y", N, "zz"}));
  // On a slice: the children are read from the parent's offset.
  ArrayRef cut = s->slice(1, 3);
  EXPECT_EQ(values_of<int64_t>(*struct_field(*cut, 0)), (Opt<int64_t>{N, N, 4}));
  EXPECT_EQ(struct_field_index(s->dtype(), "b"), 1u);
  EXPECT_THROW(struct_field_index(s->dtype(), "nope"), StructFieldNotFoundError);
}

TEST(StructKernels, RenameAndWithFields) {
  ArrayRef s = sample();
  ArrayRef r = struct_rename_fields(*s, {"x", "y"});
  EXPECT_EQ(r->dtype().fields()[1].name, "y");
  EXPECT_TRUE(r->is_null(2));
  std::vector<ArrayRef> add{f64({0.5, 1.5, 2.5, 3.5}), i64({7})};
  ArrayRef w = struct_with_fields(*s->slice(0, 4), {"a", "c"}, add);
  EXPECT_EQ(w->dtype(), DataType::struct_({{"a", DataType::float64()}, {"b", DataType::string()}, {"c", DataType::int64()}}));
  EXPECT_TRUE(w->is_null(2));
  EXPECT_EQ(values_of<int64_t>(*struct_field(*w, 2)), (Opt<int64_t>{7, 7, N, 7}));
  // struct.eval: only the new fields, the struct's nulls kept; a repeated name is an error.
  ArrayRef e = struct_with_fields(*s->slice(0, 4), {"c", "a"}, add, StructFieldsBase::Drop);
  EXPECT_EQ(e->dtype(), DataType::struct_({{"c", DataType::float64()}, {"a", DataType::int64()}}));
  EXPECT_TRUE(e->is_null(2));
  EXPECT_EQ(values_of<int64_t>(*struct_field(*e, 1)), (Opt<int64_t>{7, 7, N, 7}));
  EXPECT_THROW(struct_with_fields(*s->slice(0, 4), {"a", "a"}, add, StructFieldsBase::Drop), DuplicateError);
  const DataType two[] = {DataType::int64(), DataType::int64()};
  EXPECT_THROW(struct_with_fields_dtype(s->dtype(), {"x", "x"}, two, StructFieldsBase::Drop), DuplicateError);
  EXPECT_THROW(struct_with_fields_dtype(DataType::int64(), {"x"}, std::span(two, 1), StructFieldsBase::Drop),
               InvalidOperationError);
}

TEST(StructKernels, JsonEncode) {
  ArrayRef s = sample();
  EXPECT_EQ(strs_of(*struct_json_encode(*s)),
            (Opt<std::string>{R"({"a":1,"b":"x"})", R"({"a":null,"b":"y"})", "null", R"({"a":4,"b":"zz"})"}));
  std::vector<ArrayRef> fields{f64({1.0, -2.5}), bools({true, N})};
  EXPECT_EQ(strs_of(*struct_json_encode(*struct_from_fields({"f", "t"}, fields))),
            (Opt<std::string>{R"({"f":1.0,"t":true})", R"({"f":-2.5,"t":null})"}));
}

TEST(StructKernels, SortsByFieldsInOrderAndComparesFieldwise) {
  std::vector<ArrayRef> fields{i64({2, 1, 2, 1}), strs({"b", "z", "a", N})};
  ArrayRef s = struct_from_fields({"k", "v"}, fields);
  SortOptions o;
  o.descending = {false};
  o.nulls_last = {false};
  EXPECT_EQ(arg_sort({s}, o), (std::vector<IdxSize>{3, 1, 2, 0}));
  std::vector<ArrayRef> other_fields{i64({2, 1, 0, 1}), strs({"b", "y", "a", N})};
  ArrayRef t = struct_from_fields({"k", "v"}, other_fields);
  EXPECT_EQ(bools_of(*compare(CmpOp::Eq, *s, *t)), (Opt<bool>{true, false, false, true}));
  EXPECT_EQ(bools_of(*compare(CmpOp::NotEq, *s, *t)), (Opt<bool>{false, true, true, false}));
}
