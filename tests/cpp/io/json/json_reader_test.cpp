#include "frazil/io/json/json_reader.hpp"

#include <gtest/gtest.h>

#include "frazil/core/error.hpp"
#include "frazil/io/json/json_writer.hpp"

using namespace frazil;
using namespace frazil::io;

namespace {

DataFrame nd(const std::string& text, JsonReadOptions o = {}) { return read_ndjson(text.data(), text.size(), o, "test"); }

TEST(NdjsonReader, InfersAndWidensTypes) {
  DataFrame df = nd("{\"a\":1,\"b\":[1,2]}\n{\"a\":1.5,\"b\":null,\"c\":{\"x\":true}}\n\n{\"a\":\"s\"}\n");
  EXPECT_EQ(df.schema().to_string(), Schema({{"a", DataType::string()},
                                              {"b", DataType::list(DataType::int64())},
                                              {"c", DataType::struct_({{"x", DataType::boolean()}})}})
                                         .to_string());
  EXPECT_EQ(df.height(), 3);
  EXPECT_EQ(df.column(0).get(0).to_string(), "1");
  EXPECT_EQ(df.column(0).get(1).to_string(), "1.5");
}

}  // namespace
