#include <gtest/gtest.h>

#include <cmath>

#include "frazil/core/array.hpp"
#include "frazil/core/builder.hpp"
#include "frazil/core/column.hpp"
#include "frazil/core/error.hpp"
#include "frazil/core/frame.hpp"
#include "frazil/core/scalar.hpp"

using namespace frazil;

TEST(Buffer, AlignedAndSlicesShareMemory) {
  Buffer b = Buffer::allocate(100);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.data()) % 64, 0u);
  Buffer s = b.slice(10, 20);
  EXPECT_EQ(s.data(), b.data() + 10);
  EXPECT_EQ(s.size(), 20u);
  EXPECT_EQ(s.owner(), b.owner());
  EXPECT_THROW(b.slice(90, 20), InternalError);
}

TEST(Bitmap, CountAndCopyAtOddOffsets) {
  BitmapBuilder bb;
  for (int i = 0; i < 200; ++i) bb.push(i % 3 == 0);
  Buffer bits = bb.finish();
  EXPECT_EQ(count_set_bits(bits.data(), 0, 200), 67);
  EXPECT_EQ(count_set_bits(bits.data(), 1, 6), 2);  // bits 3 and 6 of 1..6
  Bitmap view(bits, 7, 100);
  Buffer aligned = view.to_aligned_buffer();
  for (int i = 0; i < 100; ++i) EXPECT_EQ(get_bit(aligned.data(), i), (i + 7) % 3 == 0);
}

TEST(Array, PrimitiveWithNullsAndSlices) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  b.push(1);
  b.push_null();
  b.push(3);
  b.push(4);
  ArrayRef a = b.finish();
  EXPECT_EQ(a->length(), 4);
  EXPECT_EQ(a->null_count(), 1);
  EXPECT_FALSE(a->is_valid(1));
  ArrayRef s = a->slice(1, 3);
  EXPECT_EQ(s->null_count(), 1);
  EXPECT_EQ(s->values<int64_t>()[1], 3);
  EXPECT_EQ(s->buffer(0).data(), a->buffer(0).data());  // zero-copy
  ArrayRef s2 = a->slice(2, 2);
  EXPECT_EQ(s2->null_count(), 0);
}

TEST(Array, NoValidityWithoutNulls) {
  PrimitiveBuilder<double> b(DataType::float64());
  b.push(1.5);
  EXPECT_FALSE(b.finish()->has_validity());
}

TEST(Array, StringViewsInlineAndOutOfLine) {
  ViewBuilder b;
  b.push("short");
  b.push("a string longer than twelve bytes");
  b.push_null();
  b.push("");
  b.push("exactly12byt");
  ArrayRef a = b.finish();
  EXPECT_EQ(a->str_value(0), "short");
  EXPECT_TRUE(a->views()[0].is_inline());
  EXPECT_EQ(a->str_value(1), "a string longer than twelve bytes");
  EXPECT_FALSE(a->views()[1].is_inline());
  EXPECT_EQ(a->views()[1].prefix(), *reinterpret_cast<const uint32_t*>("a st"));
  EXPECT_TRUE(a->is_null(2));
  EXPECT_EQ(a->str_value(3), "");
  EXPECT_TRUE(a->views()[4].is_inline());
  EXPECT_EQ(a->str_value(4), "exactly12byt");
  ArrayRef s = a->slice(1, 2);
  EXPECT_EQ(s->str_value(0), "a string longer than twelve bytes");
}

TEST(Array, ConcatStringsSharesDataBuffers) {
  ViewBuilder b1, b2;
  b1.push("first long string value here");
  b2.push("second long string value here");
  b2.push_null();
  ArrayRef a1 = b1.finish(), a2 = b2.finish();
  ArrayRef c = concat_arrays({a1, a2});
  EXPECT_EQ(c->length(), 3);
  EXPECT_EQ(c->str_value(0), "first long string value here");
  EXPECT_EQ(c->str_value(1), "second long string value here");
  EXPECT_TRUE(c->is_null(2));
  EXPECT_EQ(c->buffer(2).data(), a2->buffer(1).data());
}

TEST(Array, ConcatOfSlicesListsSharedBuffersOnce) {
  // Morsels are slices of one array: concatenating them (again and again) must not repeat
  // the shared data buffer once per slice (found by the Python fuzzer: memory grew with
  // morsels x buffers).
  ViewBuilder b;
  for (int i = 0; i < 100; ++i) b.push("a string longer than twelve bytes #" + std::to_string(i));
  ArrayRef a = b.finish();
  std::vector<ArrayRef> slices;
  for (int64_t i = 0; i < 100; i += 2) slices.push_back(a->slice(i, 2));
  ArrayRef c = concat_arrays(slices);
  EXPECT_EQ(c->buffers().size(), a->buffers().size());
  ArrayRef again = concat_arrays({c->slice(0, 50), c->slice(50, 50)});
  EXPECT_EQ(again->buffers().size(), a->buffers().size());
  for (int64_t i = 0; i < 100; ++i) EXPECT_EQ(again->str_value(i), a->str_value(i));
}

TEST(Array, NullArrayOfEveryLayout) {
  for (DataType t : {DataType::boolean(), DataType::int32(), DataType::string(),
                     DataType::list(DataType::int64()), DataType::decimal(10, 2)}) {
    ArrayRef a = make_null_array(t, 5);
    EXPECT_EQ(a->null_count(), 5) << t;
    EXPECT_TRUE(array_get(*a, 4).is_null());
  }
}

TEST(Scalar, BroadcastRoundTrip) {
  ArrayRef a = scalar_to_array(Scalar::string("a long string to repeat"), 3);
  EXPECT_EQ(a->str_value(2), "a long string to repeat");
  EXPECT_EQ(array_get(*scalar_to_array(Scalar::int64(7), 2), 1), Scalar::int64(7));
  EXPECT_EQ(Scalar::float64(NAN), Scalar::float64(NAN));
  EXPECT_EQ(Scalar::float64(-0.0), Scalar::float64(0.0));
}

TEST(DataFrame, ShapeAndDuplicateErrors) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  b.push(1);
  ArrayRef one = b.finish();
  EXPECT_THROW(DataFrame({Column("a", one), Column("a", one)}), DuplicateError);
  EXPECT_THROW(DataFrame({Column("a", one), Column("b", make_null_array(DataType::int64(), 2))}),
               ShapeError);
  DataFrame df({Column("a", one)});
  EXPECT_THROW(df.column("zz"), ColumnNotFoundError);
}

TEST(DataFrame, PolarsStyleTable) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  b.push(1);
  b.push_null();
  DataFrame df({Column("a", b.finish())});
  EXPECT_EQ(df.to_string(),
            "shape: (2, 1)\n"
            "┌──────┐\n"
            "│ a    │\n"
            "│ ---  │\n"
            "│ i64  │\n"
            "╞══════╡\n"
            "│ 1    │\n"
            "│ null │\n"
            "└──────┘");
}

#include <atomic>

#include "frazil/core/thread_pool.hpp"

TEST(ThreadPool, RunsEveryTaskAndNests) {
  std::atomic<int> sum{0};
  parallel_for(100, [&](size_t i) {
    parallel_for(10, [&](size_t j) { sum += static_cast<int>(i * 10 + j); });
  });
  EXPECT_EQ(sum.load(), 999 * 1000 / 2);
  EXPECT_THROW(parallel_for(10, [](size_t i) { if (i == 3) throw ComputeError("boom"); }), ComputeError);
}
