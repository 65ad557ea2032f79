#include "frazil/io/ipc/ipc_dictionaries.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "frazil/core/builder.hpp"
#include "frazil/core/categorical_array.hpp"
#include "frazil/core/categories.hpp"
#include "frazil/io/ipc/ipc_reader.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"

using namespace frazil;
using namespace frazil::io;
using namespace frazil::io::ipc;

namespace {

ArrayRef strings(const std::vector<std::optional<std::string>>& v) {
  ViewBuilder b;
  for (const auto& x : v) x ? b.push(*x) : b.push_null();
  return b.finish();
}

ArrayRef categorical(const std::vector<std::optional<std::string>>& v) {
  return encode_categorical(*strings(v), DataType::categorical());
}

std::vector<std::string> values_of(const ArrayRef& a) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < a->length(); ++i) out.emplace_back(a->str_value(i));
  return out;
}

std::vector<uint32_t> as_u32(const std::vector<uint8_t>& bytes) {
  std::vector<uint32_t> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace

TEST(IpcDictionaries, CategoricalGetsOnlyTheStringsItsRowsUseThenDeltas) {
  categorical({"only-in-the-global-mapping"});
  DataFrame first({Column("c", categorical({"x", std::nullopt, "y", "x"}))});
  DataFrame second({Column("c", categorical({"y", "z"}))});
  IpcDictionaries d(first.schema());
  auto u = d.update(first);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u[0].id, 0);
  EXPECT_FALSE(u[0].delta);
  EXPECT_EQ(values_of(u[0].values), (std::vector<std::string>{"x", "y"}));
  const ArrayRef codes = first.column(0).as_array();
  EXPECT_EQ(as_u32(d.indices(0, *codes, 0, 4)), (std::vector<uint32_t>{0, 0, 1, 0}));
  EXPECT_EQ(as_u32(d.indices(0, *codes, 2, 2)), (std::vector<uint32_t>{1, 0}));
  EXPECT_TRUE(d.update(first).empty());  // nothing new
  u = d.update(second);
  ASSERT_EQ(u.size(), 1u);
  EXPECT_TRUE(u[0].delta);
  EXPECT_EQ(values_of(u[0].values), (std::vector<std::string>{"z"}));
  EXPECT_EQ(as_u32(d.indices(0, *second.column(0).as_array(), 0, 2)), (std::vector<uint32_t>{1, 2}));
}

TEST(IpcDictionaries, EnumIsWrittenOnceWholeAndNestedFieldsAreNumberedInPreOrder) {
  const DataType e = DataType::enum_(Categories::fixed({"b", "a", "unused"}));
  ArrayRef enums = encode_categorical(*strings({"a", "b", std::nullopt}), e);
  ArrayRef cats = categorical({"p", "q", "p"});
  // A struct {enum, cat} then a plain Categorical: ids 0 (enum), 1 (struct's cat), 2.
  ArrayRef st = Array::make(DataType::struct_({Field{"e", e}, Field{"c", DataType::categorical()}}), 3, Buffer(),
                            {}, {enums, cats});
  DataFrame df({Column("s", st), Column("c", categorical({"r", "r", std::nullopt}))});
  IpcDictionaries d(df.schema());
  auto u = d.update(df);
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(values_of(u[0].values), (std::vector<std::string>{"b", "a", "unused"}));
  EXPECT_EQ(values_of(u[1].values), (std::vector<std::string>{"p", "q"}));
  EXPECT_EQ(values_of(u[2].values), (std::vector<std::string>{"r"}));
  EXPECT_EQ(as_u32(d.indices(0, *enums, 0, 2)), (std::vector<uint32_t>{1, 0}));  // the codes themselves
  EXPECT_TRUE(d.update(df).empty());
}

namespace {

std::shared_ptr<InputFile> in_memory(const std::string& bytes) {
  Buffer b = Buffer::allocate(bytes.size());
  std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  return InputFile::from_buffer(b, "test.arrow");
}

}  // namespace

// Batches written one by one (as a sink writes them): later ones bring new strings as
// delta dictionary batches, and the reader gets every row's string back.
TEST(IpcDictionaries, DeltasRoundTripInFilesAndStreams) {
  for (bool stream : {false, true}) {
    for (bool oldest : {false, true}) {
      DataFrame a({Column("c", categorical({"x", std::nullopt, "y"}))});
      DataFrame b({Column("c", categorical({"new", "x"}))});
      DataFrame c({Column("c", categorical({"newer", "new", std::nullopt}))});
      MemoryOutput out;
      IpcWriteOptions o;
      o.stream = stream;
      o.compat_oldest = oldest;
      IpcWriter w(out, a.schema(), o);
      w.write_batch(a);
      w.write_batch(b);
      w.write_batch(c);
      w.finish();
      DataFrame got = read_ipc(in_memory(out.data()));
      ASSERT_EQ(got.schema(), a.schema());
      std::vector<std::string> rows;
      for (int64_t i = 0; i < got.height(); ++i) rows.push_back(got.column(0).get(i).to_string());
      EXPECT_EQ(rows, (std::vector<std::string>{"x", "null", "y", "new", "x", "newer", "new", "null"}))
          << "stream=" << stream << " oldest=" << oldest;
    }
  }
}
