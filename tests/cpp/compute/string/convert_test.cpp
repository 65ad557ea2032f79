#include "frazil/compute/string/convert.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

// polars: to_integer(base=16, strict=False) of ["12", "-0x1f", "ff", None, " 1", "+5"] ->
// [18, None, 255, None, None, 5]; UInt8 of "300" -> None; strict lists the failures.
TEST(StringConvert, ToInteger) {
  ArrayRef s = strs({"12", "-0x1f", "ff", N, " 1", "+5"});
  EXPECT_EQ(values_of<int64_t>(*str_to_integer(*s, *i64({16}), DataType::int64(), false)),
            (Opt<int64_t>{18, N, 255, N, N, 5}));
  EXPECT_EQ(values_of<uint8_t>(*str_to_integer(*strs({"12", "300", "-1"}), *i64({10}), DataType::uint8(), false)),
            (Opt<uint8_t>{12, N, N}));
  try {
    str_to_integer(*strs({"1", "a"}), *i64({10}), DataType::int64(), true);
    FAIL();
  } catch (const ComputeError& e) {
    EXPECT_EQ(std::string(e.what()), "strict integer parsing failed for 1 value(s): [\"a\"]; error message for the "
                                     "first shown value: 'invalid digit found in string' (consider non-strict parsing)");
  }
  EXPECT_THROW(str_to_integer(*s, *i64({37}), DataType::int64(), false), ComputeError);
}

TEST(StringConvert, EncodeDecodeDecimal) {
  ArrayRef s = strs({"héllo", "", N});
  EXPECT_EQ(strs_of(*str_encode(*s, "hex")), (Opt<std::string>{"68c3a96c6c6f", "", N}));
  EXPECT_EQ(strs_of(*str_encode(*s, "base64")), (Opt<std::string>{"aMOpbGxv", "", N}));
  EXPECT_EQ(strs_of(*str_decode(*strs({"68C3A9", "zz"}), "hex", false)), (Opt<std::string>{"h\xC3\xA9", N}));
  EXPECT_EQ(strs_of(*str_decode(*strs({"aGk=", "aGk"}), "base64", false)), (Opt<std::string>{"hi", N}));
  EXPECT_THROW(str_decode(*strs({"zz"}), "hex", true), ComputeError);
  ArrayRef d = str_to_decimal(*strs({"1.255", "-3", "x"}), 2);
  EXPECT_EQ(d->dtype(), DataType::decimal(38, 2));
  EXPECT_EQ(values_of<__int128>(*d), (Opt<__int128>{126, -300, N}));
}
