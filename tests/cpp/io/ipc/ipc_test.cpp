#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/ipc/ipc_reader.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"

using namespace frazil;
using namespace frazil::io;
using namespace frazil::io::ipc;

namespace {

DataFrame sample(int64_t n) {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  ViewBuilder s;
  PrimitiveBuilder<double> f(DataType::float64());
  for (int64_t i = 0; i < n; ++i) {
    if (i % 5 == 2) a.push_null();
    else a.push(i * 7);
    if (i % 3 == 0) s.push_null();
    else s.push(std::string(static_cast<size_t>(i % 20), 'x') + std::to_string(i));
    f.push(static_cast<double>(i) / 4);
  }
  return DataFrame({Column("a", a.finish()), Column("s", s.finish()), Column("f", f.finish())});
}

std::shared_ptr<InputFile> in_memory(const std::string& bytes) {
  Buffer b = Buffer::allocate(bytes.size());
  std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  return InputFile::from_buffer(b, "test.arrow");
}

void expect_same(const DataFrame& a, const DataFrame& b) {
  ASSERT_EQ(a.schema(), b.schema());
  ASSERT_EQ(a.height(), b.height());
  for (size_t c = 0; c < a.width(); ++c)
    for (int64_t i = 0; i < a.height(); ++i)
      EXPECT_EQ(a.column(c).get(i).to_string(), b.column(c).get(i).to_string()) << a.column(c).name() << " row " << i;
}

class IpcRoundTrip : public ::testing::TestWithParam<std::tuple<IpcCompression, bool, bool>> {};

TEST_P(IpcRoundTrip, FramesAndSlicesRoundTrip) {
  const auto [compression, stream, oldest] = GetParam();
  DataFrame df = sample(1000);
  IpcWriteOptions o;
  o.compression = compression;
  o.stream = stream;
  o.compat_oldest = oldest;
  o.record_batch_size = 128;
  // A sliced frame: offsets into shared buffers must be rebased on write.
  DataFrame sliced = df.slice(13, 900);
  std::string bytes = write_ipc_to_string(sliced, o);
  EXPECT_EQ(is_ipc_file(*in_memory(bytes)), !stream);
  expect_same(read_ipc(in_memory(bytes)), sliced);
  IpcReadOptions r;
  r.columns = std::vector<std::string>{"f", "a"};
  r.n_rows = 300;
  DataFrame part = read_ipc(in_memory(bytes), r);
  expect_same(part, sliced.select({"f", "a"}).head(300));
}

INSTANTIATE_TEST_SUITE_P(Options, IpcRoundTrip,
                         ::testing::Combine(::testing::Values(IpcCompression::Uncompressed, IpcCompression::Lz4,
                                                              IpcCompression::Zstd),
                                            ::testing::Bool(), ::testing::Bool()));

TEST(IpcReader, CorruptInputNeverCrashes) {
  IpcWriteOptions o;
  o.compression = IpcCompression::Zstd;
  const std::string good = write_ipc_to_string(sample(200), o);
  std::mt19937 rng(7);
  int errors = 0;
  for (int k = 0; k < 400; ++k) {
    std::string bad = good;
    if (k % 3 == 0) bad.resize(rng() % bad.size());
    else
      for (int j = 0; j < 1 + static_cast<int>(rng() % 6); ++j) bad[rng() % bad.size()] = static_cast<char>(rng());
    try {
      read_ipc(in_memory(bad));
    } catch (const InternalError& e) {
      ADD_FAILURE() << e.what();
    } catch (const Error&) {
      ++errors;
    }
  }
  EXPECT_GT(errors, 100);
}

TEST(IpcReader, EmptyFrameKeepsSchema) {
  DataFrame df = sample(0);
  expect_same(read_ipc(in_memory(write_ipc_to_string(df))), df);
  EXPECT_EQ(read_ipc_schema(in_memory(write_ipc_to_string(df))), df.schema());
}

// Batches are decoded on the pool: of two bad batches, the error is the first one's.
TEST(IpcReader, ErrorNamesTheFirstBadBatch) {
  ViewBuilder s;
  for (int64_t i = 0; i < 512; ++i) s.push("value-number-" + std::to_string(1000 + i) + "-long");
  IpcWriteOptions o;
  o.record_batch_size = 128;
  std::string bytes = write_ipc_to_string(DataFrame({Column("s", s.finish())}), o);
  // Rows 128 + 5 (batch 1, row 5) and 384 + 10 (batch 3, row 10): their first data byte no
  // longer matches the view's prefix.
  for (int64_t row : {128 + 5, 384 + 10}) {
    const size_t at = bytes.find("value-number-" + std::to_string(1000 + row) + "-long");
    ASSERT_NE(at, std::string::npos);
    bytes[at] = 'V';
  }
  for (int rep = 0; rep < 20; ++rep) {
    try {
      read_ipc(in_memory(bytes));
      FAIL() << "a corrupt view was read";
    } catch (const ComputeError& e) {
      EXPECT_NE(std::string(e.what()).find("at row 5 "), std::string::npos) << e.what();
    }
  }
}

}  // namespace
