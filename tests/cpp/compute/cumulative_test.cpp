#include "frazil/compute/cumulative.hpp"

#include <gtest/gtest.h>

#include "frazil/core/builder.hpp"
#include "frazil/core/column.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;

namespace {

ArrayRef ints(std::vector<std::optional<int64_t>> v, DataType t = DataType::int64()) {
  PrimitiveBuilder<int64_t> b(t);
  for (auto x : v) x ? b.push(*x) : b.push_null();
  return b.finish();
}

std::vector<std::string> show(const ArrayRef& a) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < a->length(); ++i) out.push_back(Column("c", a).get(i).to_string());
  return out;
}

}  // namespace

TEST(Cumulative, NullsStayNullAndAreSkipped) {
  ArrayRef a = ints({std::nullopt, 3, 1, std::nullopt, 5});
  EXPECT_EQ(show(cumulative(*a, CumulativeKind::Sum)), (std::vector<std::string>{"null", "3", "4", "null", "9"}));
  EXPECT_EQ(show(cumulative(*a, CumulativeKind::Min)), (std::vector<std::string>{"null", "3", "1", "null", "1"}));
  EXPECT_EQ(show(cumulative(*a, CumulativeKind::Max)), (std::vector<std::string>{"null", "3", "3", "null", "5"}));
  EXPECT_EQ(show(cumulative(*a, CumulativeKind::Count)), (std::vector<std::string>{"0", "1", "2", "2", "3"}));
}

TEST(Cumulative, Dtypes) {
  EXPECT_EQ(cumulative_dtype(CumulativeKind::Sum, DataType::int8()), DataType::int64());
  EXPECT_EQ(cumulative_dtype(CumulativeKind::Sum, DataType::int32()), DataType::int32());
  EXPECT_EQ(cumulative_dtype(CumulativeKind::Sum, DataType::boolean()), DataType::uint32());
  EXPECT_EQ(cumulative_dtype(CumulativeKind::Min, DataType::date()), DataType::date());
  EXPECT_EQ(cumulative_dtype(CumulativeKind::Count, DataType::string()), DataType::uint32());
  EXPECT_THROW(cumulative_dtype(CumulativeKind::Sum, DataType::string()), InvalidOperationError);
}

TEST(Cumulative, EmptyAndSliced) {
  ArrayRef a = ints({1, 2, 3, 4});
  EXPECT_EQ(cumulative(*a->slice(0, 0), CumulativeKind::Sum)->length(), 0);
  EXPECT_EQ(show(cumulative(*a->slice(2, 2), CumulativeKind::Sum)), (std::vector<std::string>{"3", "7"}));
}
