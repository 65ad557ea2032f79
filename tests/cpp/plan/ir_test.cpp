#include "frazil/plan/ir.hpp"

#include <gtest/gtest.h>

using namespace frazil;
using namespace frazil::plan;

// Plan nodes hold their rare attributes out of line: arenas are copied per prepared plan.
TEST(IR, NodeKeepsRareAttributesOutOfLine) { EXPECT_LE(sizeof(IR), 352u); }

TEST(IR, ChangingACopyLeavesTheOriginal) {
  IR sort;
  sort.kind = IRKind::Sort;
  EXPECT_FALSE(sort.sort_slice().has_value());  // defaults without a payload
  EXPECT_TRUE(sort.names2().empty());
  sort.sort_mut().descending = {true};
  IR copy = sort;
  copy.sort_slice_mut() = std::make_pair(int64_t{0}, int64_t{5});
  copy.sort_mut().descending = {false};
  EXPECT_FALSE(sort.sort_slice().has_value());
  EXPECT_EQ(sort.sort().descending, std::vector<bool>{true});
  EXPECT_EQ(copy.sort().descending, std::vector<bool>{false});
  EXPECT_EQ(copy.sort_slice()->second, 5);
}
