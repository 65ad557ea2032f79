#include <gtest/gtest.h>

#include "frazil/core/column.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/length_limit.hpp"

using namespace frazil;

namespace {

template <typename F>
std::string compute_error_of(F f) {
  try {
    f();
  } catch (const ComputeError& e) {
    return e.what();
  }
  return "";
}

TEST(LengthLimit, CountsFitUInt32OrRaise) {
  EXPECT_EQ(checked_count(0, "len()"), 0u);
  EXPECT_EQ(checked_count(UINT32_MAX, "len()"), UINT32_MAX);
  const std::string msg = compute_error_of([] { checked_count(uint64_t{1} << 32, "len()"); });
  EXPECT_NE(msg.find("maximum length reached"), std::string::npos) << msg;
  EXPECT_NE(msg.find("len()"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4294967296"), std::string::npos) << msg;
}

TEST(LengthLimit, ColumnsAndFramesPastTheLimitRaise) {
  // Broadcast scalars and zero-column frames hold a length without materializing it.
  EXPECT_EQ(Column::scalar("a", Scalar::int64(1), kMaxLength).length(), kMaxLength);
  EXPECT_NE(compute_error_of([] { Column::scalar("a", Scalar::int64(1), kMaxLength + 1); }).find("column 'a'"),
            std::string::npos);
  EXPECT_EQ(DataFrame::empty_with_height(kMaxLength).height(), kMaxLength);
  EXPECT_NE(compute_error_of([] { DataFrame::empty_with_height(kMaxLength + 1); }).find("maximum length reached"),
            std::string::npos);
}

TEST(LengthLimit, ConcatOfManyReferencesRaises) {
  // 2^32 + 1 rows = 641 references to one frame of 6,700,417 broadcast rows: the
  // concatenation refuses the total before it materializes anything.
  DataFrame part({Column::scalar("a", Scalar::int64(7), 6'700'417)});
  const std::string msg = compute_error_of([&] { concat_frames(std::vector<DataFrame>(641, part)); });
  EXPECT_NE(msg.find("4294967297"), std::string::npos) << msg;
  EXPECT_EQ(concat_frames(std::vector<DataFrame>(640, DataFrame::empty_with_height(6'700'417))).height(),
            int64_t{640} * 6'700'417);
  std::vector<DataFrame> empty(641, DataFrame::empty_with_height(6'700'417));
  EXPECT_NE(compute_error_of([&] { concat_frames(empty); }).find("maximum length reached"), std::string::npos);
}

}  // namespace
