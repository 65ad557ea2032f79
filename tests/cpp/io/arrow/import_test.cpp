#include "frazil/io/arrow/import.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "frazil/core/categorical_array.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/scalar.hpp"
#include "frazil/core/string_view.hpp"
#include "producer.hpp"

using namespace frazil;
using namespace frazil::io;
using frazil::testing::ProducerArray;
using frazil::testing::ProducerSchema;

namespace {

std::vector<std::string> strings_of(const ArrayRef& a) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < a->length(); ++i) out.push_back(a->is_null(i) ? "<null>" : std::string(a->str_value(i)));
  return out;
}

template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return std::string(error_kind_name(e.kind())) + ": " + e.what();
  }
  return "no error";
}

}  // namespace

TEST(ArrowImport, Int64ZeroCopyWithNullsAndOffsetReleasesOnce) {
  int released = 0;
  ArrayRef a;
  const void* values_ptr;
  {
    ProducerArray p;
    p.release_count = &released;
    p.add_bits({true, true, false, true, true});
    p.add(std::vector<int64_t>{10, 20, 30, 40, 50});
    values_ptr = p.buffers[1];
    ArrowArray* arr = p.finish(/*length=*/3, /*null_count=*/-1, /*offset=*/1);
    ProducerSchema s("l", "x");
    a = import_array(arr, s.finish(), "x");
    EXPECT_EQ(arr->release, nullptr);  // moved out
    EXPECT_EQ(released, 0);
    ASSERT_EQ(a->dtype(), DataType::int64());
    ASSERT_EQ(a->length(), 3);
    EXPECT_EQ(a->null_count(), 1);
    EXPECT_EQ(a->buffer(0).data(), values_ptr);  // shared, not copied
    EXPECT_EQ(a->values<int64_t>()[0], 20);
    EXPECT_TRUE(a->is_null(1));
    EXPECT_EQ(a->values<int64_t>()[2], 40);
    ArrayRef s2 = a->slice(1, 2);
    a.reset();
    EXPECT_EQ(released, 0);  // a slice still holds the owner
    EXPECT_EQ(s2->values<int64_t>()[1], 40);
    s2.reset();
    EXPECT_EQ(released, 1);
  }
  EXPECT_EQ(released, 1);
}

TEST(ArrowImport, Utf8BecomesViewsSharingTheDataBuffer) {
  ProducerArray p;
  std::string data = "abcthis string is long enoughxyz\xc3\xa9";
  p.add_bits({true, true, false, true, true});
  p.add(std::vector<int32_t>{0, 3, 29, 29, 32, 34});
  p.add(std::vector<char>(data.begin(), data.end()));
  const uint8_t* data_ptr = static_cast<const uint8_t*>(p.buffers[2]);
  ProducerSchema s("u", "s");
  // Sliced: rows 1..4 of the producer's 5.
  ArrayRef a = import_array(p.finish(4, 1, 1), s.finish(), "s");
  ASSERT_EQ(a->dtype(), DataType::string());
  EXPECT_EQ(strings_of(a), (std::vector<std::string>{"this string is long enough", "<null>", "xyz", "\xc3\xa9"}));
  ASSERT_EQ(a->buffers().size(), 2u);
  EXPECT_EQ(a->buffer(1).data(), data_ptr);  // the long value points into the producer's bytes
  EXPECT_FALSE(a->views()[0].is_inline());
}

TEST(ArrowImport, LargeBinaryAndEmpty) {
  ProducerArray p;
  p.add_null();
  p.add(std::vector<int64_t>{0, 2, 2, 20});
  std::string data("\xff\x00" "0123456789abcdefgh", 20);
  p.add(std::vector<char>(data.begin(), data.begin() + 20));
  ProducerSchema s("Z");
  ArrayRef a = import_array(p.finish(3), s.finish(), "b");
  ASSERT_EQ(a->dtype(), DataType::binary());
  EXPECT_EQ(a->str_value(0), std::string("\xff\x00", 2));  // not UTF-8, fine for binary
  EXPECT_EQ(a->str_value(1), "");
  EXPECT_EQ(a->str_value(2), "0123456789abcdefgh");

  ProducerArray e;
  e.add_null();
  e.add_null();
  e.add_null();
  ProducerSchema es("u");
  ArrayRef empty = import_array(e.finish(0), es.finish(), "e");
  EXPECT_EQ(empty->length(), 0);
  EXPECT_EQ(empty->dtype(), DataType::string());
}

TEST(ArrowImport, InvalidUtf8IsAComputeErrorNamingTheColumn) {
  for (bool with_nulls : {false, true}) {
    ProducerArray p;
    if (with_nulls) p.add_bits({true, true, true});
    else p.add_null();
    p.add(std::vector<int32_t>{0, 1, 3, 4});
    p.add(std::vector<uint8_t>{'a', 0xc3, 0x28, 'b'});
    ProducerSchema s("u");
    std::string err = error_of([&] { import_array(p.finish(3, with_nulls ? 0 : 0), s.finish(), "name"); });
    EXPECT_NE(err.find("ComputeError"), std::string::npos) << err;
    EXPECT_NE(err.find("'name'"), std::string::npos) << err;
    EXPECT_NE(err.find("row 1"), std::string::npos) << err;
  }
  // A valid multi-byte character split across two rows is invalid too.
  ProducerArray p;
  p.add_null();
  p.add(std::vector<int32_t>{0, 1, 2});
  p.add(std::vector<uint8_t>{0xc3, 0xa9});
  ProducerSchema s("u");
  EXPECT_NE(error_of([&] { import_array(p.finish(2), s.finish(), "split"); }).find("ComputeError"), std::string::npos);
}

TEST(ArrowImport, Utf8ViewsAreSharedAndChecked) {
  ViewBuilder b;
  b.push("short");
  b.push_null();
  b.push("a value longer than twelve bytes");
  ArrayRef src = b.finish();
  auto make = [&](std::vector<uint8_t> views_bytes, int64_t data_size) {
    auto p = std::make_unique<ProducerArray>();
    p->add_bits({true, false, true});
    p->add(views_bytes);
    p->buffers.push_back(src->buffer(1).data());
    p->add(std::vector<int64_t>{data_size});
    return p;
  };
  std::vector<uint8_t> views(src->buffer(0).data(), src->buffer(0).data() + 48);
  {
    auto p = make(views, static_cast<int64_t>(src->buffer(1).size()));
    ProducerSchema s("vu");
    ArrayRef a = import_array(p->finish(3, 1), s.finish(), "v");
    EXPECT_EQ(strings_of(a), (std::vector<std::string>{"short", "<null>", "a value longer than twelve bytes"}));
    EXPECT_EQ(a->buffer(1).data(), src->buffer(1).data());
  }
  {
    // A data buffer that is too short for a view: an error, not a read out of bounds.
    auto p = make(views, 4);
    ProducerSchema s("vu");
    std::string err = error_of([&] { import_array(p->finish(3, 1), s.finish(), "v"); });
    EXPECT_NE(err.find("ComputeError"), std::string::npos) << err;
    EXPECT_NE(err.find("'v'"), std::string::npos) << err;
  }
}

// Views over one data buffer, built by hand so that views may start or end inside a
// character; `rows` repeats the first view so that the check runs in several blocks.
struct HandViews {
  std::string data;
  std::vector<View> views;
  void push_ref(size_t start, uint32_t n) { views.push_back(View::make_ref(data.data() + start, n, 0, uint32_t(start))); }
  void push_inline(const std::string& s) { views.push_back(View::make_inline(s.data(), uint32_t(s.size()))); }
  std::string import_error(int64_t offset = 0) {
    ProducerArray p;
    p.add_null();
    std::vector<uint8_t> bytes(views.size() * sizeof(View));
    std::memcpy(bytes.data(), views.data(), bytes.size());
    p.add(bytes);
    p.add(std::vector<uint8_t>(data.begin(), data.end()));
    p.add(std::vector<int64_t>{int64_t(data.size())});
    ProducerSchema s("vu");
    return error_of([&] { import_array(p.finish(int64_t(views.size()) - offset, 0, offset), s.finish(), "col"); });
  }
};

TEST(ArrowImport, Utf8ViewsAreCheckedAtCharacterBoundaries) {
  const std::string e_acute = "\xc3\xa9";
  HandViews good;
  good.data = "first value, " + e_acute + " long enough" + e_acute + "then the next one";
  good.push_ref(0, 13);
  good.push_ref(13, uint32_t(2 + 12 + 2));  // ends right after a two-byte character
  good.push_inline("caf" + e_acute);
  good.push_inline("ascii");
  EXPECT_EQ(good.import_error(), "no error");
  EXPECT_EQ(good.import_error(1), "no error");  // a slice takes the value-by-value path

  HandViews starts_inside = good;
  starts_inside.views[1] = View::make_ref(good.data.data() + 14, 15, 0, 14);  // the 0xa9 byte
  std::string err = starts_inside.import_error();
  EXPECT_NE(err.find("ComputeError"), std::string::npos) << err;
  EXPECT_NE(err.find("row 1"), std::string::npos) << err;
  EXPECT_NE(starts_inside.import_error(1).find("row 0"), std::string::npos);  // rows count from the slice

  HandViews ends_inside = good;
  ends_inside.views[0] = View::make_ref(good.data.data(), 14, 0, 0);  // ends after 0xc3
  EXPECT_NE(ends_inside.import_error().find("row 0"), std::string::npos);

  HandViews bad_inline = good;
  bad_inline.views[3] = View::make_inline("ab\xc3", 3);
  EXPECT_NE(bad_inline.import_error().find("row 3"), std::string::npos);

  // Invalid bytes that no view covers do not matter.
  HandViews garbage_between;
  garbage_between.data = "a first long value\xff\xfe" "a second long value";
  garbage_between.push_ref(0, 18);
  garbage_between.push_ref(20, 19);
  EXPECT_EQ(garbage_between.import_error(), "no error");
  garbage_between.push_ref(17, 3);  // covers the garbage, but is inline-sized: make it long
  garbage_between.views.back() = View::make_ref(garbage_between.data.data() + 10, 13, 0, 10);
  EXPECT_NE(garbage_between.import_error().find("row 2"), std::string::npos);

  // Many rows (several blocks, checked in parallel): the error names the first bad row.
  HandViews many;
  many.data = good.data;
  for (int i = 0; i < 300000; ++i) many.push_ref(0, 13);
  EXPECT_EQ(many.import_error(), "no error");
  many.views[250001] = View::make_ref(good.data.data() + 14, 15, 0, 14);
  many.views[290000] = View::make_inline("\xff", 1);
  err = many.import_error();
  EXPECT_NE(err.find("row 250001"), std::string::npos) << err;
  many.views[100] = View::make_ref(good.data.data(), 13, 0, 900);  // out of bounds
  err = many.import_error();
  EXPECT_NE(err.find("row 100 points outside"), std::string::npos) << err;
}

// Views into a Parquet page: each value follows its 4-byte little-endian length, so the
// byte after a value is the next length's low byte (0xC2 for 194: not UTF-8 on its own).
// A value of 32 or 160 bytes (whole steps of the ASCII fast path) must still be valid.
TEST(ArrowImport, Utf8ViewsBetweenLengthPrefixesAreValid) {
  HandViews page;
  std::vector<std::pair<size_t, uint32_t>> spans;
  for (uint32_t n : {32u, 194u, 160u, 200u, 64u, 130u}) {
    const char prefix[4] = {char(n & 0xff), 0, 0, 0};
    page.data.append(prefix, 4);
    spans.emplace_back(page.data.size(), n);
    page.data += std::string(n, char('a' + n % 26));
  }
  for (auto [start, n] : spans) page.push_ref(start, n);
  EXPECT_EQ(page.import_error(), "no error");   // the buffer as a whole is not UTF-8: value by value
  EXPECT_EQ(page.import_error(2), "no error");  // a slice
}

TEST(ArrowImport, TemporalAndDecimalFormats) {
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{0, 1700000000000000});
    ProducerSchema s("tsu:Europe/Berlin");
    ArrayRef a = import_array(p.finish(2), s.finish(), "t");
    EXPECT_EQ(a->dtype(), DataType::datetime(TimeUnit::Microseconds, "Europe/Berlin"));
    EXPECT_EQ(a->values<int64_t>()[1], 1700000000000000);
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{-2, 3});
    ProducerSchema s("tss:");  // seconds -> milliseconds
    ArrayRef a = import_array(p.finish(2), s.finish(), "t");
    EXPECT_EQ(a->dtype(), DataType::datetime(TimeUnit::Milliseconds));
    EXPECT_EQ(a->values<int64_t>()[0], -2000);
    EXPECT_EQ(a->values<int64_t>()[1], 3000);
  }
  {
    ProducerArray p;
    p.add_bits({false, true});
    p.add(std::vector<int32_t>{999, 3600});
    ProducerSchema s("tts");  // time32[s] -> Time (ns)
    ArrayRef a = import_array(p.finish(2, 1), s.finish(), "t");
    EXPECT_EQ(a->dtype(), DataType::time());
    EXPECT_TRUE(a->is_null(0));
    EXPECT_EQ(a->values<int64_t>()[1], 3600LL * 1000000000LL);
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{-1, 86400000LL * 3});
    ProducerSchema s("tdm");  // date64 -> Datetime(ms), as Polars reads it
    ArrayRef a = import_array(p.finish(2), s.finish(), "d");
    EXPECT_EQ(a->dtype(), DataType::datetime(TimeUnit::Milliseconds));
    EXPECT_EQ(a->values<int64_t>()[0], -1);
    EXPECT_EQ(a->values<int64_t>()[1], 86400000LL * 3);
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{5});
    ProducerSchema s("tDn");
    EXPECT_EQ(import_array(p.finish(1), s.finish(), "d")->dtype(), DataType::duration(TimeUnit::Nanoseconds));
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{12345, 0, -7, -1});  // two 128-bit values, little endian
    ProducerSchema s("d:10,2");
    ArrayRef a = import_array(p.finish(2), s.finish(), "m");
    EXPECT_EQ(a->dtype(), DataType::decimal(10, 2));
    EXPECT_EQ(array_get(*a, 0).to_string(), "123.45");
    EXPECT_EQ(array_get(*a, 1).to_string(), "-0.07");
  }
}

TEST(ArrowImport, UnsupportedFormatsNameColumnAndFormat) {
  for (const char* fmt : {"tiM", "+ud:0,1", "d:40,2,256", "+r", "+vl", "q", "_pli256"}) {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{1});
    ProducerSchema s(fmt);
    std::string err = error_of([&] { import_array(p.finish(1), s.finish(), "col_x"); });
    EXPECT_NE(err.find("InvalidOperation"), std::string::npos) << fmt << ": " << err;
    EXPECT_NE(err.find("'col_x'"), std::string::npos) << err;
    EXPECT_NE(err.find(std::string("'") + fmt + "'"), std::string::npos) << err;
  }
}

TEST(ArrowImport, MalformedInputIsAnErrorNotACrash) {
  int released = 0;
  auto expect_compute_error = [&](ArrowArray* arr, const char* fmt, const char* what) {
    ProducerSchema s(fmt);
    std::string err = error_of([&] { import_array(arr, s.finish(), "bad"); });
    EXPECT_NE(err.find("ComputeError"), std::string::npos) << what << ": " << err;
    EXPECT_NE(err.find("'bad'"), std::string::npos) << what << ": " << err;
  };
  {
    ProducerArray p;
    p.release_count = &released;
    p.add_null();
    p.add(std::vector<int64_t>{1});
    expect_compute_error(p.finish(-1), "l", "negative length");
    EXPECT_EQ(released, 1);  // released even on error
  }
  {
    ProducerArray p;
    p.add_null();
    p.add_null();
    expect_compute_error(p.finish(3), "l", "null values buffer");
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{1, 2});
    expect_compute_error(p.finish(2, 1), "l", "null count without validity");
  }
  {
    ProducerArray p;
    p.add_null();
    expect_compute_error(p.finish(1), "l", "missing buffer");
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int32_t>{0, 5, 2});
    p.add(std::vector<char>(8, 'a'));
    expect_compute_error(p.finish(2), "u", "decreasing offsets");
  }
  {
    ProducerArray p;
    p.add_null();
    p.add(std::vector<int64_t>{1});
    expect_compute_error(p.finish(1, 0, -3), "l", "negative offset");
  }
}

TEST(ArrowImport, ListsAreConvertedToInt64Offsets) {
  ProducerArray p;
  p.add_bits({true, false, true, true});
  p.add(std::vector<int32_t>{0, 2, 2, 3, 5});
  auto child = std::make_unique<ProducerArray>();
  child->add_null();
  child->add(std::vector<int64_t>{1, 2, 3, 4, 5});
  child->finish(5);
  p.add_child(std::move(child));
  ProducerSchema s("+l");
  s.child("l", "item");
  ArrayRef a = import_array(p.finish(3, 1, 1), s.finish(), "lst");
  ASSERT_EQ(a->dtype(), DataType::list(DataType::int64()));
  ASSERT_EQ(a->length(), 3);
  EXPECT_TRUE(a->is_null(0));
  EXPECT_EQ(array_get(*a, 1).to_string(), "[3]");
  EXPECT_EQ(array_get(*a, 2).to_string(), "[4, 5]");
}

TEST(ArrowImport, ListOffsetsPastTheValuesAreAnError) {
  ProducerArray p;
  p.add_null();
  p.add(std::vector<int32_t>{0, 1, 9});
  auto child = std::make_unique<ProducerArray>();
  child->add_null();
  child->add(std::vector<int64_t>{1, 2});
  child->finish(2);
  p.add_child(std::move(child));
  ProducerSchema s("+l");
  s.child("l", "item");
  std::string err = error_of([&] { import_array(p.finish(2), s.finish(), "lst"); });
  EXPECT_NE(err.find("ComputeError"), std::string::npos) << err;
  EXPECT_NE(err.find("'lst'"), std::string::npos) << err;
}

TEST(ArrowImport, LargeListAndStructAreShared) {
  ProducerArray p;
  p.add_null();
  auto a_child = std::make_unique<ProducerArray>();
  a_child->add_null();
  a_child->add(std::vector<int32_t>{7, 8, 9});
  a_child->finish(3);
  auto b_child = std::make_unique<ProducerArray>();
  b_child->add_null();
  b_child->add(std::vector<int64_t>{0, 1, 1, 3});
  auto inner = std::make_unique<ProducerArray>();
  inner->add_null();
  inner->add(std::vector<double>{0.5, 1.5, 2.5});
  inner->finish(3);
  b_child->add_child(std::move(inner));
  b_child->finish(3);
  const void* offsets_ptr = b_child->buffers[1];
  p.add_child(std::move(a_child));
  p.add_child(std::move(b_child));
  ProducerSchema s("+s", "st");
  s.child("i", "a");
  s.child("+L", "b")->child("g", "item");
  ArrayRef a = import_array(p.finish(2, 0, 1), s.finish(), "st");
  ASSERT_EQ(a->dtype().to_string(), "Struct({'a': Int32, 'b': List(Float64)})");
  EXPECT_EQ(a->child(1)->buffer(0).data(), offsets_ptr);
  EXPECT_EQ(array_get(*a, 0).to_string(), "{8,[]}");
  EXPECT_EQ(array_get(*a, 1).to_string(), "{9,[1.5, 2.5]}");
}

// A string dictionary is a Categorical, as in Polars (its strings join the global mapping).
TEST(ArrowImport, DictionaryStringsAreCategorical) {
  ProducerArray p;
  p.add_bits({true, false, true, true});
  p.add(std::vector<int8_t>{1, 0, 0, 1});
  p.dictionary_owned = std::make_unique<ProducerArray>();
  auto& d = *p.dictionary_owned;
  d.add_null();
  d.add(std::vector<int32_t>{0, 3, 23});
  std::string data = "redblue is a long color";
  d.add(std::vector<char>(data.begin(), data.end()));
  d.finish(2);
  ProducerSchema s("c", "dict");
  s.dictionary_owned = std::make_unique<ProducerSchema>("u");
  ArrayRef a = import_array(p.finish(4, 1), s.finish(), "dict");
  EXPECT_EQ(a->dtype(), DataType::categorical());
  EXPECT_EQ(strings_of(decode_categorical(*a)),
            (std::vector<std::string>{"blue is a long color", "<null>", "red", "blue is a long color"}));

  ProducerArray q;
  q.add_null();
  q.add(std::vector<int8_t>{5});
  q.dictionary_owned = std::make_unique<ProducerArray>();
  q.dictionary_owned->add_null();
  q.dictionary_owned->add(std::vector<int32_t>{0, 1});
  q.dictionary_owned->add(std::vector<char>{'x'});
  q.dictionary_owned->finish(1);
  ProducerSchema qs("c");
  qs.dictionary_owned = std::make_unique<ProducerSchema>("u");
  EXPECT_NE(error_of([&] { import_array(q.finish(1), qs.finish(), "dict"); }).find("out of bounds"), std::string::npos);
}

TEST(ArrowImport, FrameFromStructWithDuplicateNamesFails) {
  ProducerArray p;
  p.add_null();
  for (int i = 0; i < 2; ++i) {
    auto c = std::make_unique<ProducerArray>();
    c->add_null();
    c->add(std::vector<int64_t>{1});
    c->finish(1);
    p.add_child(std::move(c));
  }
  ProducerSchema s("+s");
  s.child("l", "a");
  s.child("l", "a");
  std::string err = error_of([&] { import_frame(p.finish(1), s.finish()); });
  EXPECT_NE(err.find("Duplicate"), std::string::npos) << err;
}

TEST(ArrowImport, FrameFromStructPushesDownBatchNulls) {
  ProducerArray p;
  p.add_bits({true, false, true});
  auto c = std::make_unique<ProducerArray>();
  c->add_null();
  c->add(std::vector<int64_t>{1, 2, 3});
  c->finish(3);
  p.add_child(std::move(c));
  ProducerSchema s("+s");
  s.child("l", "a");
  DataFrame df = import_frame(p.finish(3, 1), s.finish());
  ASSERT_EQ(df.height(), 3);
  EXPECT_EQ(df.column("a").get(0).to_string(), "1");
  EXPECT_TRUE(df.column("a").get(1).is_null());
  EXPECT_EQ(df.column("a").get(2).to_string(), "3");
}

// validate_utf8 = false (a producer that guarantees UTF-8) shares the data unread; the
// structure is still checked.
TEST(ArrowImport, TrustedProducersSkipUtf8ButNotStructureChecks) {
  ProducerArray p;
  p.add_null();
  p.add(std::vector<int32_t>{0, 1, 3});
  p.add(std::vector<uint8_t>{'a', 0xc3, 0x28});
  ProducerSchema s("u");
  ArrayRef a = import_array(p.finish(2), s.finish(), "t", {/*validate_utf8=*/false});
  EXPECT_EQ(a->length(), 2);
  ProducerArray bad;
  bad.add_null();
  bad.add(std::vector<int32_t>{0, 3, 1});
  bad.add(std::vector<uint8_t>{'a', 'b', 'c'});
  ProducerSchema s2("u");
  EXPECT_NE(error_of([&] { import_array(bad.finish(2), s2.finish(), "t", {false}); }).find("offsets decrease"),
            std::string::npos);
}
