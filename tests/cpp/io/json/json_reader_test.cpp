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

namespace {

TEST(JsonWriter, FloatsAsPolarsWritesThem) {
  EXPECT_EQ(format_json_float(1.0, false), "1.0");
  EXPECT_EQ(format_json_float(0.1, false), "0.1");
  EXPECT_EQ(format_json_float(1e-6, false), "1e-6");
  EXPECT_EQ(format_json_float(1e-5, false), "0.00001");
  EXPECT_EQ(format_json_float(1e15, false), "1000000000000000.0");
  EXPECT_EQ(format_json_float(1e16, false), "1e+16");
  EXPECT_EQ(format_json_float(-0.0, false), "-0.0");
  EXPECT_EQ(format_json_float(1e15, true), "1e+15");
  EXPECT_EQ(format_json_float(1e-6, true), "0.000001");
}

TEST(NdjsonReader, ErrorsAndIgnoredErrors) {
  EXPECT_THROW(nd("{\"a\":1}\n{\"a\":\n"), ComputeError);
  JsonReadOptions o;
  o.schema = Schema({{"a", DataType::int64()}});
  EXPECT_THROW(nd("{\"a\":\"x\"}\n", o), ComputeError);
  o.ignore_errors = true;
  DataFrame df = nd("{\"a\":\"x\"}\n{\"a\":2}\nnot json\n", o);
  ASSERT_EQ(df.height(), 3);
  EXPECT_TRUE(df.column(0).get(0).is_null());
  EXPECT_EQ(df.column(0).get(1).to_string(), "2");
}

TEST(NdjsonReader, ParallelChunksEqualOneChunk) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "{\"i\":" + std::to_string(i) + ",\"l\":[" + std::to_string(i % 3) + "]}\n";
  JsonReadOptions o;
  o.chunk_size_bytes = 4096;
  DataFrame parallel = read_ndjson(text.data(), text.size(), o, "t");
  ASSERT_EQ(parallel.height(), 20000);
  EXPECT_EQ(parallel.column(0).get(19999).to_string(), "19999");
  EXPECT_EQ(write_ndjson_string(parallel), text);
}

}  // namespace
