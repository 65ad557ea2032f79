#include "frazil/exec/spill/spill_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>

#include "frazil/core/builder.hpp"
#include "frazil/core/error.hpp"
#include "frazil/exec/spill/spill_directory.hpp"
#include "spill_test_util.hpp"

using namespace frazil;
using namespace frazil::exec::spill;

namespace {

DataFrame sample(int64_t n, int64_t start) {
  PrimitiveBuilder<int64_t> a(DataType::int64());
  ViewBuilder s;
  for (int64_t i = start; i < start + n; ++i) {
    if (i % 5 == 2) a.push_null();
    else a.push(i * 7);
    if (i % 3 == 0) s.push_null();
    else s.push(std::string(static_cast<size_t>(i % 20), 'x') + std::to_string(i));
  }
  return DataFrame({Column("a", a.finish()), Column("s", s.finish())});
}

void expect_same(const DataFrame& a, const DataFrame& b) {
  ASSERT_EQ(a.schema(), b.schema());
  ASSERT_EQ(a.height(), b.height());
  for (size_t c = 0; c < a.width(); ++c)
    for (int64_t i = 0; i < a.height(); ++i)
      ASSERT_EQ(a.column(c).get(i).to_string(), b.column(c).get(i).to_string()) << a.column(c).name() << " row " << i;
}

}  // namespace

TEST(SpillFile, BatchesRoundTripAndTheFileGoesWithItsOwner) {
  TempDirEnv env;
  std::string path;
  {
    SpillFile f("sort", sample(1, 0).schema());
    path = f.path();
    EXPECT_EQ(path.rfind(env.dir, 0), 0u) << path;  // under FRAZIL_TEMP_DIRECTORY
    f.write(sample(1000, 0));
    f.write(sample(0, 0));  // skipped
    f.write(sample(257, 1000));
    f.finish();
    EXPECT_EQ(f.rows(), 1257);
    EXPECT_EQ(f.num_batches(), 2u);
    EXPECT_GT(f.bytes_on_disk(), 0);
    expect_same(f.read_batch(1), sample(257, 1000));
    expect_same(f.read_all(), concat_frames({sample(1000, 0), sample(257, 1000)}));
    EXPECT_TRUE(std::filesystem::exists(path));
    EXPECT_THROW(f.write(sample(3, 0)), InvalidOperationError);
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_EQ(env.files(), 0u);
}

TEST(SpillFile, AnUnfinishedFileIsRemovedWhenAnExceptionUnwinds) {
  TempDirEnv env;
  try {
    SpillFile f("group-by", sample(1, 0).schema());
    f.write(sample(500, 0));
    throw std::runtime_error("query cancelled");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(env.files(), 0u);
}

TEST(SpillFile, WrongSchemaIsAnErrorAndEmptyReadsBackEmpty) {
  TempDirEnv env;
  SpillFile f("sort", sample(1, 0).schema());
  DataFrame other({Column("z", sample(3, 0).column(0).as_array())});
  EXPECT_THROW(f.write(other), SchemaError);
  f.finish();
  EXPECT_EQ(f.read_all().height(), 0);
  EXPECT_EQ(f.read_all().schema(), sample(1, 0).schema());
}

TEST(SpillDirectory, RemovedWithItsFiles) {
  TempDirEnv env;
  const std::string dir = spill_directory();
  EXPECT_TRUE(std::filesystem::is_directory(dir));
  EXPECT_EQ(new_spill_path("x").rfind(dir, 0), 0u);
  remove_spill_directory();
  EXPECT_FALSE(std::filesystem::exists(dir));
}
