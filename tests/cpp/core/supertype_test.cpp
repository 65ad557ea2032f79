#include "frazil/core/supertype.hpp"

#include <gtest/gtest.h>

using namespace frazil;

// Structs meet field by field when their field names agree, in order (Polars 2.1's result
// for those; structs of other fields have no supertype in frazil yet).
TEST(Supertype, StructsOfTheSameFieldsMeetFieldByField) {
  const DataType ints = DataType::struct_({{"a", DataType::int64()}, {"b", DataType::list(DataType::int32())}});
  const DataType floats = DataType::struct_({{"a", DataType::float64()}, {"b", DataType::list(DataType::int64())}});
  const DataType want = DataType::struct_({{"a", DataType::float64()}, {"b", DataType::list(DataType::int64())}});
  EXPECT_EQ(get_supertype(ints, floats), want);
  EXPECT_EQ(get_supertype(floats, ints), want);
  const DataType renamed = DataType::struct_({{"x", DataType::int64()}, {"b", DataType::list(DataType::int32())}});
  EXPECT_EQ(get_supertype(ints, renamed), std::nullopt);
  const DataType wider = DataType::struct_({{"a", DataType::int64()}});
  EXPECT_EQ(get_supertype(ints, wider), std::nullopt);
  const DataType text = DataType::struct_({{"a", DataType::binary()}, {"b", DataType::list(DataType::int32())}});
  EXPECT_EQ(get_supertype(ints, text), std::nullopt);
}
