#include "frazil/io/arrow/stream.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/arrow/import.hpp"

using namespace frazil;
using namespace frazil::io;

namespace {

ArrayRef ints(int64_t from, int64_t n) {
  PrimitiveBuilder<int64_t> b(DataType::int64());
  for (int64_t i = 0; i < n; ++i) (from + i) % 5 == 0 ? b.push_null() : b.push(from + i);
  return b.finish();
}

}  // namespace

TEST(ArrowStream, ChunksOfDifferentShapesRoundTrip) {
  // "a" has chunks of 3 + 4 rows, "b" one of 7, "c" is a scalar: batches split at row 3.
  Column a("a", DataType::int64(), {ints(0, 3), ints(3, 4)});
  Column b("b", ints(100, 7));
  Column c = Column::scalar("c", Scalar::string("const"), 7);
  DataFrame df({a, b, c});
  ArrowArrayStream stream;
  export_stream(df, &stream);

  ArrowSchema schema;
  ASSERT_EQ(stream.get_schema(&stream, &schema), 0);
  EXPECT_EQ(import_schema(&schema), df.schema());
  schema.release(&schema);

  DataFrame back = import_stream(&stream);
  EXPECT_EQ(stream.release, nullptr);
  EXPECT_TRUE(back.equals(df));
  EXPECT_EQ(back.column("a").num_chunks(), 2u);
  EXPECT_EQ(back.column("b").num_chunks(), 2u);
}

TEST(ArrowStream, BatchesAreZeroCopySlices) {
  ArrayRef big = ints(0, 1000);
  DataFrame df({Column("x", big)});
  ArrowArrayStream stream;
  export_stream(df, &stream);
  ArrowArray batch;
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);
  ASSERT_NE(batch.release, nullptr);
  EXPECT_EQ(batch.length, 1000);
  EXPECT_EQ(batch.children[0]->buffers[1], big->buffer(0).data());
  batch.release(&batch);
  ASSERT_EQ(stream.get_next(&stream, &batch), 0);
  EXPECT_EQ(batch.release, nullptr);  // end of stream
  stream.release(&stream);
}

TEST(ArrowStream, EmptyFrameKeepsItsSchema) {
  DataFrame df = DataFrame::empty_with_schema(Schema({{"a", DataType::int64()}, {"s", DataType::string()}}));
  ArrowArrayStream stream;
  export_stream(df, &stream);
  DataFrame back = import_stream(&stream);
  EXPECT_EQ(back.height(), 0);
  EXPECT_EQ(back.schema(), df.schema());
}

TEST(ArrowStream, ProducerErrorBecomesComputeError) {
  struct Failing {
    static int schema(ArrowArrayStream*, ArrowSchema*) { return EIO; }
    static int next(ArrowArrayStream*, ArrowArray*) { return EIO; }
    static const char* error(ArrowArrayStream*) { return "disk on fire"; }
    static void release(ArrowArrayStream* s) {
      ++*static_cast<int*>(s->private_data);
      s->release = nullptr;
    }
  };
  int released = 0;
  ArrowArrayStream s{Failing::schema, Failing::next, Failing::error, Failing::release, &released};
  try {
    import_stream(&s);
    FAIL() << "expected an error";
  } catch (const ComputeError& e) {
    EXPECT_NE(std::string(e.what()).find("disk on fire"), std::string::npos);
  }
  EXPECT_EQ(released, 1);
}

// A stream keeps its own copy of the requested schema: every batch is exported in the
// layout asked for, after the request itself is gone.
TEST(ArrowStream, RequestedSchemaIsCopiedAndAppliedToEveryBatch) {
  ViewBuilder b1, b2;
  b1.push("one");
  b1.push_null();
  b2.push("a string longer than twelve bytes");
  Column c("s", DataType::string(), {b1.finish(), b2.finish()});
  ArrowArrayStream stream;
  {
    ArrowSchema field{"U", "s", nullptr, 2, 0, nullptr, nullptr, nullptr, nullptr};
    ArrowSchema* kids[] = {&field};
    ArrowSchema root{"+s", "", nullptr, 0, 1, kids, nullptr, nullptr, nullptr};
    ArrowExportOptions options;
    options.requested = &root;
    // A borrowed request has release == null in this test: mark it live for the copy.
    root.release = [](ArrowSchema*) {};
    export_stream(DataFrame({c}), &stream, options);
  }
  ArrowSchema s;
  ASSERT_EQ(stream.get_schema(&stream, &s), 0);
  EXPECT_STREQ(s.children[0]->format, "U");
  int batches = 0;
  while (true) {
    ArrowArray batch;
    ASSERT_EQ(stream.get_next(&stream, &batch), 0);
    if (!batch.release) break;
    EXPECT_EQ(batch.children[0]->n_buffers, 3);  // validity, int64 offsets, data
    ++batches;
    DataFrame part = import_frame(&batch, &s);
    EXPECT_EQ(part.column(0).dtype(), DataType::string());
  }
  EXPECT_EQ(batches, 2);
  s.release(&s);
  stream.release(&stream);
}
