#include <gtest/gtest.h>
#include "frazil/io/csv/csv_reader.hpp"
using namespace frazil;
TEST(CsvSmoke, Basic) {
  auto df = io::read_csv_bytes("a,b\n1,x\n2,y\n");
  EXPECT_EQ(df.height(), 2);
}
