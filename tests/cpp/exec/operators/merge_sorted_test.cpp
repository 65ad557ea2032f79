// merge_sorted: the merge order (stable: left first on ties; nulls where the inputs have
// them) and the node end to end.
#include "frazil/exec/operators/merge_sorted.hpp"

#include "../exec_test_util.hpp"

using namespace frazil;
using namespace frazil::exec_test;
using compute::IdxSize;

namespace {

ArrayRef ints(std::vector<std::optional<int64_t>> values) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (auto v : values) v ? b.push(*v) : b.push_null();
  return b.finish();
}

}  // namespace

TEST(MergeSorted, StableOrder) {
  EXPECT_EQ(exec::merge_order(ints({1, 3, 3, 7}), ints({0, 3, 8})),
            (std::vector<IdxSize>{4, 0, 1, 2, 5, 3, 6}));
}

TEST(MergeSorted, NullsWhereTheInputsHaveThem) {
  EXPECT_EQ(exec::merge_order(ints({1, 3, std::nullopt}), ints({2, std::nullopt})),
            (std::vector<IdxSize>{0, 3, 1, 2, 4}));
  EXPECT_EQ(exec::merge_order(ints({std::nullopt, 1}), ints({std::nullopt, 0})),
            (std::vector<IdxSize>{0, 2, 3, 1}));
}

TEST(MergeSorted, EmptySide) {
  EXPECT_EQ(exec::merge_order(ints({}), ints({1, 2})), (std::vector<IdxSize>{0, 1}));
}

TEST(MergeSorted, NodeEndToEnd) {
  DataFrame a({Column("k", ints({1, 4})), Column("s", ints({10, 40}))});
  DataFrame b({Column("k", ints({2, 4, 5})), Column("s", ints({20, 41, 50}))});
  LazyFrame q = LazyFrame::from_frame(a).merge_sorted(LazyFrame::from_frame(b), "k");
  EXPECT_TRUE(contains(q.explain(), "MERGE SORTED[maintain_order: false] ON ['k']:\nLEFT PLAN:"));
  DataFrame out = q.collect();
  const ArrayRef s = out.column("s").as_array();
  EXPECT_EQ(std::vector<int64_t>(s->values<int64_t>(), s->values<int64_t>() + s->length()),
            (std::vector<int64_t>{10, 20, 40, 41, 50}));
}
