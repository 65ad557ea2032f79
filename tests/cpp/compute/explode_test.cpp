#include "frazil/compute/explode.hpp"

#include <gtest/gtest.h>

#include "elementwise_test_util.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

namespace {

using ListValue = std::optional<Opt<int64_t>>;  // nullopt: a null list

// A List(Int64) array built from its rows (optionally with a null list that hides elements,
// as Arrow allows: `hidden` elements sit under each null list).
ArrayRef list_i64(const std::vector<ListValue>& rows, int64_t hidden = 0) {
  Opt<int64_t> values;
  Buffer offsets = Buffer::allocate((rows.size() + 1) * sizeof(int64_t));
  int64_t* o = offsets.mutable_as<int64_t>();
  Buffer validity = Buffer::zeroed((rows.size() + 7) / 8);
  o[0] = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i]) {
      set_bit(validity.mutable_data(), i);
      values.insert(values.end(), rows[i]->begin(), rows[i]->end());
    } else {
      for (int64_t k = 0; k < hidden; ++k) values.push_back(-1);
    }
    o[i + 1] = static_cast<int64_t>(values.size());
  }
  return Array::make(DataType::list(DataType::int64()), static_cast<int64_t>(rows.size()), validity, {offsets},
                     {i64(values)});
}

}  // namespace

TEST(Explode, ListElementsBecomeRows) {
  ArrayRef a = list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{3}, Opt<int64_t>{N, 4}});
  std::vector<IdxSize> rows;
  ArrayRef out = explode(*a, {}, &rows);
  EXPECT_EQ(out->dtype(), DataType::int64());
  EXPECT_EQ(values_of<int64_t>(*out), (Opt<int64_t>{1, 2, 3, N, 4}));
  EXPECT_EQ(rows, (std::vector<IdxSize>{0, 0, 1, 2, 2}));
}

TEST(Explode, EmptyAndNullListsFollowTheOptions) {
  ArrayRef a = list_i64({Opt<int64_t>{1}, Opt<int64_t>{}, std::nullopt, Opt<int64_t>{2, 3}}, 2);
  std::vector<IdxSize> rows;
  // Defaults: an empty list gives no row, a null list one null (its hidden elements ignored).
  EXPECT_EQ(values_of<int64_t>(*explode(*a, {}, &rows)), (Opt<int64_t>{1, N, 2, 3}));
  EXPECT_EQ(rows, (std::vector<IdxSize>{0, 2, 3, 3}));
  EXPECT_EQ(values_of<int64_t>(*explode(*a, {true, true}, &rows)), (Opt<int64_t>{1, N, N, 2, 3}));
  EXPECT_EQ(rows, (std::vector<IdxSize>{0, 1, 2, 3, 3}));
  EXPECT_EQ(values_of<int64_t>(*explode(*a, {false, false}, &rows)), (Opt<int64_t>{1, 2, 3}));
  EXPECT_EQ(rows, (std::vector<IdxSize>{0, 3, 3}));
  EXPECT_EQ(values_of<int64_t>(*explode(*a, {true, false}, &rows)), (Opt<int64_t>{1, N, 2, 3}));
  EXPECT_EQ(rows, (std::vector<IdxSize>{0, 1, 3, 3}));
}

TEST(Explode, SlicedListsAndEmptyArrays) {
  ArrayRef a = list_i64({Opt<int64_t>{9}, Opt<int64_t>{1, 2}, std::nullopt, Opt<int64_t>{3}, Opt<int64_t>{7, 7}});
  ArrayRef s = a->slice(1, 3);
  std::vector<IdxSize> rows;
  EXPECT_EQ(values_of<int64_t>(*explode(*s, {}, &rows)), (Opt<int64_t>{1, 2, N, 3}));
  EXPECT_EQ(rows, (std::vector<IdxSize>{0, 0, 1, 2}));
  // Without nulls nor dropped rows the values are the child's range itself.
  ArrayRef t = a->slice(3, 2);
  EXPECT_EQ(values_of<int64_t>(*explode(*t)), (Opt<int64_t>{3, 7, 7}));
  EXPECT_EQ(explode(*a->slice(0, 0), {}, &rows)->length(), 0);
  EXPECT_TRUE(rows.empty());
}

TEST(Explode, NonListIsAnInvalidOperation) {
  EXPECT_THROW(explode(*i64({1, 2})), InvalidOperationError);
  EXPECT_THROW(explode(*strs({"a"})), InvalidOperationError);
}

TEST(Explode, FrameRepeatsTheOtherColumns) {
  DataFrame df({Column("k", strs({"x", "y", "z", "w"})),
                Column("a", list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{}, std::nullopt, Opt<int64_t>{3}})),
                Column("b", list_i64({Opt<int64_t>{10, 20}, Opt<int64_t>{}, std::nullopt, Opt<int64_t>{30}}))});
  DataFrame out = explode_frame(df, {"a", "b", "a"});
  ASSERT_EQ(out.names(), (std::vector<std::string>{"k", "a", "b"}));
  EXPECT_EQ(strs_of(*out.column("k").as_array()), (Opt<std::string>{"x", "x", "z", "w"}));
  EXPECT_EQ(values_of<int64_t>(*out.column("a").as_array()), (Opt<int64_t>{1, 2, N, 3}));
  EXPECT_EQ(values_of<int64_t>(*out.column("b").as_array()), (Opt<int64_t>{10, 20, N, 30}));
  // One column exploded: the other list column repeats.
  DataFrame one = explode_frame(df, {"a"}, {true, true});
  EXPECT_EQ(one.height(), 5);
  EXPECT_EQ(one.column("b").dtype(), DataType::list(DataType::int64()));
  EXPECT_EQ(array_get(*one.column("b").as_array(), 1).to_string(), "[10, 20]");
}

TEST(Explode, FrameScalarColumnsAndIdentity) {
  DataFrame df({Column::scalar("c", Scalar::int64(7), 2), Column("a", list_i64({Opt<int64_t>{1}, Opt<int64_t>{2}}))});
  DataFrame out = explode_frame(df, {"a"});
  EXPECT_TRUE(out.column("c").is_scalar());
  EXPECT_EQ(out.height(), 2);
  DataFrame df2({Column::scalar("c", Scalar::int64(7), 1), Column("a", list_i64({Opt<int64_t>{1, 2, 3}}))});
  DataFrame out2 = explode_frame(df2, {"a"});
  EXPECT_EQ(out2.height(), 3);
  EXPECT_EQ(out2.column("c").length(), 3);
}

TEST(Explode, FrameErrors) {
  DataFrame df({Column("k", i64({1, 2})), Column("a", list_i64({Opt<int64_t>{1, 2}, Opt<int64_t>{3}})),
                Column("b", list_i64({Opt<int64_t>{1}, Opt<int64_t>{3}})),
                Column("c", list_i64({std::nullopt, Opt<int64_t>{}}))});
  EXPECT_THROW(explode_frame(df, {}), InvalidOperationError);
  EXPECT_THROW(explode_frame(df, {"nope"}), ColumnNotFoundError);
  EXPECT_THROW(explode_frame(df, {"k"}), InvalidOperationError);
  try {
    explode_frame(df, {"a", "b"});
    FAIL() << "expected a ShapeError";
  } catch (const ShapeError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("\"a\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"b\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("2 elements"), std::string::npos) << msg;
  }
  // A null list against an empty one: equal element counts, but 1 row against 0.
  DataFrame d2({Column("c", list_i64({std::nullopt})), Column("e", list_i64({Opt<int64_t>{}}))});
  EXPECT_THROW(explode_frame(d2, {"c", "e"}), ShapeError);
  EXPECT_EQ(explode_frame(d2, {"c", "e"}, {true, true}).height(), 1);
  EXPECT_EQ(explode_frame(d2, {"c", "e"}, {false, false}).height(), 0);
}
