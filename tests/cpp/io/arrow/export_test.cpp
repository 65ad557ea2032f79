#include "frazil/io/arrow/export.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/io/arrow/import.hpp"

using namespace frazil;
using namespace frazil::io;

namespace {

ArrayRef int64s(std::vector<std::optional<int64_t>> vals, DataType t = DataType::int64()) {
  PrimitiveBuilder<int64_t> b(t);
  for (auto v : vals) v ? b.push(*v) : b.push_null();
  return b.finish();
}

ArrayRef strings(std::vector<std::optional<std::string>> vals, DataType t = DataType::string()) {
  ViewBuilder b(t);
  for (auto& v : vals) v ? b.push(*v) : b.push_null();
  return b.finish();
}

// Export then import: the data must come back equal and (for shared layouts) unmoved.
ArrayRef round_trip(const ArrayRef& a) {
  ArrowSchema s;
  ArrowArray arr;
  export_schema(a->dtype(), "c", &s);
  export_array(a, &arr);
  ArrayRef back = import_array(&arr, &s, "c");
  s.release(&s);
  return back;
}

void expect_same_values(const ArrayRef& a, const ArrayRef& b) {
  ASSERT_EQ(a->dtype(), b->dtype());
  ASSERT_EQ(a->length(), b->length());
  for (int64_t i = 0; i < a->length(); ++i)
    EXPECT_EQ(array_get(*a, i), array_get(*b, i)) << "row " << i << ": " << array_get(*a, i).to_string()
                                                  << " vs " << array_get(*b, i).to_string();
}

}  // namespace

TEST(ArrowExport, SchemaFormats) {
  ArrowSchema s;
  DataType t = DataType::struct_({{"ts", DataType::datetime(TimeUnit::Nanoseconds, "UTC")},
                                  {"l", DataType::list(DataType::string())},
                                  {"d", DataType::decimal(12, 3)}});
  export_schema(t, "root", &s);
  EXPECT_STREQ(s.format, "+s");
  EXPECT_STREQ(s.name, "root");
  ASSERT_EQ(s.n_children, 3);
  EXPECT_STREQ(s.children[0]->format, "tsn:UTC");
  EXPECT_STREQ(s.children[1]->format, "+L");
  EXPECT_STREQ(s.children[1]->children[0]->format, "vu");
  EXPECT_STREQ(s.children[2]->format, "d:12,3");
  EXPECT_EQ(s.children[0]->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
  EXPECT_EQ(import_dtype(&s, "root"), t);
  s.release(&s);
  EXPECT_EQ(s.release, nullptr);
}

TEST(ArrowExport, PrimitiveIsZeroCopyBothWays) {
  ArrayRef a = int64s({1, std::nullopt, 3, 4})->slice(1, 3);
  ArrowArray arr;
  export_array(a, &arr);
  EXPECT_EQ(arr.offset, 1);
  EXPECT_EQ(arr.length, 3);
  EXPECT_EQ(arr.null_count, 1);
  EXPECT_EQ(arr.n_buffers, 2);
  EXPECT_EQ(arr.buffers[1], a->buffer(0).data());
  arr.release(&arr);
  ArrayRef back = round_trip(a);
  expect_same_values(a, back);
  EXPECT_EQ(back->buffer(0).data(), a->buffer(0).data());
}

TEST(ArrowExport, EveryDtypeRoundTrips) {
  std::vector<ArrayRef> arrays;
  arrays.push_back(make_null_array(DataType::null(), 3));
  {
    BooleanBuilder b;
    for (int i = 0; i < 20; ++i) i % 7 == 3 ? b.push_null() : b.push(i % 2);
    arrays.push_back(b.finish()->slice(3, 15));
  }
  {
    PrimitiveBuilder<int8_t> b(DataType::int8());
    b.push(-3);
    b.push_null();
    arrays.push_back(b.finish());
  }
  {
    PrimitiveBuilder<uint32_t> b(DataType::uint32());
    b.push(4000000000u);
    arrays.push_back(b.finish());
  }
  {
    PrimitiveBuilder<float> b(DataType::float32());
    b.push(1.5f);
    b.push_null();
    arrays.push_back(b.finish());
  }
  {
    PrimitiveBuilder<int32_t> b(DataType::date());
    b.push(19000);
    b.push_null();
    arrays.push_back(b.finish());
  }
  arrays.push_back(int64s({1, std::nullopt}, DataType::datetime(TimeUnit::Milliseconds, "Asia/Tokyo")));
  arrays.push_back(int64s({-5, 6}, DataType::duration(TimeUnit::Nanoseconds)));
  arrays.push_back(int64s({3600000000000LL, std::nullopt}, DataType::time()));
  {
    PrimitiveBuilder<int128_t> b(DataType::decimal(20, 4));
    b.push(static_cast<int128_t>(1) << 70);
    b.push_null();
    arrays.push_back(b.finish());
  }
  arrays.push_back(strings({"a", std::nullopt, "a long string that is not inline", ""})->slice(1, 3));
  arrays.push_back(strings({std::string("\0\1", 2), std::nullopt}, DataType::binary()));
  {
    ArrayRef values = int64s({1, 2, 3, 4, std::nullopt});
    Buffer offsets = Buffer::allocate(4 * sizeof(int64_t));
    int64_t o[] = {0, 2, 2, 5};
    std::memcpy(offsets.mutable_data(), o, sizeof o);
    Buffer validity = Buffer::zeroed(1);
    validity.mutable_data()[0] = 0b101;
    arrays.push_back(Array::make(DataType::list(DataType::int64()), 3, validity, {offsets}, {values}, 0, 1)->slice(1, 2));
  }
  {
    ArrayRef x = int64s({1, 2, 3});
    ArrayRef y = strings({"p", std::nullopt, "a string longer than twelve"});
    DataType t = DataType::struct_({{"x", DataType::int64()}, {"y", DataType::string()}});
    Buffer validity = Buffer::zeroed(1);
    validity.mutable_data()[0] = 0b110;
    arrays.push_back(Array::make(t, 3, validity, {}, {x, y}, 0, 1)->slice(1, 2));
  }
  for (const auto& a : arrays) {
    SCOPED_TRACE(a->dtype().to_string());
    ArrayRef back = round_trip(a);
    expect_same_values(a, back);
    if (!a->dtype().is_null() && !a->dtype().is_nested())
      EXPECT_EQ(back->buffer(0).data(), a->buffer(0).data());  // not copied
  }
  // Empty arrays of every dtype.
  for (const auto& a : arrays) expect_same_values(make_empty_array(a->dtype()), round_trip(make_empty_array(a->dtype())));
}

TEST(ArrowExport, FrameAsStruct) {
  DataFrame df({Column("a", int64s({1, 2, 3})), Column("b", strings({"x", std::nullopt, "z"}))});
  ArrowSchema s;
  ArrowArray arr;
  export_schema(df.schema(), &s);
  export_frame(df, &arr);
  EXPECT_STREQ(s.format, "+s");
  EXPECT_EQ(arr.length, 3);
  EXPECT_EQ(arr.n_children, 2);
  DataFrame back = import_frame(&arr, &s);
  s.release(&s);
  EXPECT_TRUE(back.equals(df));
}

// Large and regular strings: offsets + one data buffer, starting at offset 0 even for a
// slice (validity realigned), read back by the importer as the same values.
TEST(ArrowExport, StringsAsLargeAndRegularLayouts) {
  ArrayRef a = strings({"x", std::nullopt, "a string longer than twelve bytes", "", std::nullopt, "é", "tail"});
  for (ArrayRef input : {a, a->slice(1, 5), a->slice(3, 4)}) {
    for (auto layout : {ArrowStringLayout::Large, ArrowStringLayout::Regular}) {
      ArrowSchema s;
      ArrowArray arr;
      export_schema(input->dtype(), "c", &s, {layout});
      export_array(input, &arr, {layout});
      EXPECT_STREQ(s.format, layout == ArrowStringLayout::Large ? "U" : "u");
      EXPECT_EQ(arr.offset, 0);
      EXPECT_EQ(arr.n_buffers, 3);
      EXPECT_EQ(arr.null_count, input->null_count());
      ArrayRef back = import_array(&arr, &s, "c");
      s.release(&s);
      expect_same_values(input, back);
    }
  }
}

// A requested schema picks the layout per field, nested ones included; anything it does
// not say keeps the default.
TEST(ArrowExport, RequestedSchemaChoosesStringLayouts) {
  DataType t = DataType::struct_({{"s", DataType::string()}, {"l", DataType::list(DataType::binary())},
                                  {"i", DataType::int64()}, {"d", DataType::string()}});
  ArrowSchema want;
  ArrowSchema have;
  {
    // The request: large_string, large_list<binary>, int32 (ignored), nothing for "d".
    ArrowSchema item{"z", "item", nullptr, 2, 0, nullptr, nullptr, nullptr, nullptr};
    ArrowSchema* item_ptr = &item;
    ArrowSchema s{"U", "s", nullptr, 2, 0, nullptr, nullptr, nullptr, nullptr};
    ArrowSchema l{"+L", "l", nullptr, 2, 1, &item_ptr, nullptr, nullptr, nullptr};
    ArrowSchema i{"i", "i", nullptr, 2, 0, nullptr, nullptr, nullptr, nullptr};
    ArrowSchema* kids[] = {&s, &l, &i};
    ArrowSchema root{"+s", "", nullptr, 0, 3, kids, nullptr, nullptr, nullptr};
    copy_schema_formats(&root, &want);  // the request need not outlive the copy
  }
  export_schema(t, "root", &have, {ArrowStringLayout::View, &want});
  EXPECT_STREQ(have.children[0]->format, "U");
  EXPECT_STREQ(have.children[1]->children[0]->format, "z");
  EXPECT_STREQ(have.children[2]->format, "l");
  EXPECT_STREQ(have.children[3]->format, "vu");
  EXPECT_EQ(string_layout_for(ArrowStringLayout::Large, nullptr), ArrowStringLayout::Large);
  have.release(&have);
  want.release(&want);
}
