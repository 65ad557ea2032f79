#include "frazil/compute/string/json.hpp"

#include <gtest/gtest.h>

#include "../elementwise_test_util.hpp"
#include "frazil/core/error.hpp"

using namespace frazil;
using namespace frazil::compute;
using namespace frazil::test;

// polars: json_decode(Struct{a: Int64, b: List(Int64)}) of ['{"a": 1, "b": [1,2]}', None,
// '{"a": null}', '{"a": 2.9, "z": 0}'] -> [{1,[1,2]}, None, {None,None}, {2,None}].
TEST(StringJson, DecodeIntoDtypes) {
  const DataType t = DataType::struct_({{"a", DataType::int64()}, {"b", DataType::list(DataType::int64())}});
  ArrayRef out = str_json_decode(*strs({R"({"a": 1, "b": [1,2]})", N, R"({"a": null})", R"({"a": 2.9, "z": 0})"}), t);
  EXPECT_EQ(out->dtype(), t);
  EXPECT_EQ(values_of<int64_t>(*out->child(0)), (Opt<int64_t>{1, N, N, 2}));
  EXPECT_TRUE(out->is_null(1));
  EXPECT_FALSE(out->is_null(2));
  EXPECT_EQ(values_of<int8_t>(*str_json_decode(*strs({"300", "-5"}), DataType::int8())), (Opt<int8_t>{N, -5}));
  EXPECT_EQ(strs_of(*str_json_decode(*strs({"2.50", R"("x")", "true"}), DataType::string())),
            (Opt<std::string>{"2.5", "x", "true"}));
  EXPECT_THROW(str_json_decode(*strs({R"({"a": 1)"}), DataType::int64()), ComputeError);
  EXPECT_THROW(str_json_decode(*strs({R"("x")"}), DataType::float64()), ComputeError);
}

// polars: json_decode into Int128/UInt128/Float16 -> [1, -2, None, 3] / [1, None, None, 3] / floats.
TEST(StringJson, DecodeIntoWideAndHalfTypes) {
  ArrayRef in = strs({"1", "-2", N, "3.5"});
  ArrayRef i = str_json_decode(*in, DataType::int128());
  EXPECT_EQ(i->dtype(), DataType::int128());
  EXPECT_EQ(i->length(), 4);
  EXPECT_TRUE(i->is_null(2));
  EXPECT_FALSE(i->is_null(3));
  ArrayRef u = str_json_decode(*in, DataType::uint128());
  EXPECT_EQ(u->dtype(), DataType::uint128());
  EXPECT_TRUE(u->is_null(1));
  EXPECT_FALSE(u->is_null(0));
  ArrayRef h = str_json_decode(*in, DataType::float16());
  EXPECT_EQ(h->dtype(), DataType::float16());
  EXPECT_TRUE(h->is_null(2));
  EXPECT_THROW(str_json_decode(*strs({"[1]"}), DataType::int128()), ComputeError);
}

// polars: json_path_match: strings unquoted, others compact JSON, floats as serde_json.
TEST(StringJson, PathMatch) {
  ArrayRef docs = strs({R"({"a": {"b": [1, {"c": "x"}]}})", R"({"a": 2})", N, "bad", R"({"a": {"k": "v", "n": [1, 2.0]}})"});
  EXPECT_EQ(strs_of(*str_json_path_match(*docs, *strs({"$.a.b[1].c"}))), (Opt<std::string>{"x", N, N, N, N}));
  EXPECT_EQ(strs_of(*str_json_path_match(*docs, *strs({"$.a"}))),
            (Opt<std::string>{R"({"b":[1,{"c":"x"}]})", "2", N, N, R"({"k":"v","n":[1,2.0]})"}));
  EXPECT_EQ(strs_of(*str_json_path_match(*strs({R"({"e": 1e3, "l": [{"b":1},{"b":2}]})"}), *strs({"$.e"}))),
            (Opt<std::string>{"1000.0"}));
  EXPECT_EQ(strs_of(*str_json_path_match(*strs({R"({"l": [{"b":1},{"b":2}]})"}), *strs({"$.l[*].b"}))),
            (Opt<std::string>{"1"}));
  EXPECT_THROW(str_json_path_match(*docs, *strs({"a.b"})), ComputeError);
}
