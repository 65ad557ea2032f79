// Bad input: truncated files, wrong magic, flipped bytes, corrupt thrift, lying sizes.
// Every case must raise a frazil error (IOError / ComputeError / SchemaError), never
// crash, hang or allocate without bound.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>

#include "fixture_values.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/parquet/parquet.hpp"
#include "frazil/io/parquet/thrift.hpp"

using namespace frazil;
using namespace frazil::io::parquet;
using namespace frazil::test_parquet;

namespace {

std::vector<uint8_t> load(const std::string& name) {
  std::ifstream in(fixture(name), std::ios::binary);
  // (fixture() is relative to the build directory, where ctest runs the tests.)
  if (!in) throw std::runtime_error("fixture not found: " + fixture(name) + " (run from the build directory)");
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

Buffer to_buffer(const std::vector<uint8_t>& v) {
  Buffer b = Buffer::allocate(v.size());
  if (!v.empty()) std::memcpy(b.mutable_data(), v.data(), v.size());
  return b;
}

// Opens and reads everything; returns "" on success or the error kind on a frazil error.
// Anything else (a crash, std::bad_alloc, an internal check) fails the test.
std::string read_everything(const std::vector<uint8_t>& bytes) {
  try {
    ReaderLimits limits;
    limits.max_rows_per_row_group = 1 << 20;
    auto f = ParquetFile::from_buffer(to_buffer(bytes), "corrupt.parquet", limits);
    for (size_t g = 0; g < f->num_row_groups(); ++g) {
      f->row_group_stats(g);
      f->read_row_group(g);
    }
    return "";
  } catch (const InternalError& e) {
    ADD_FAILURE() << "internal error: " << e.what();
    return "internal";
  } catch (const Error& e) {
    return error_kind_name(e.kind());
  }
}

}  // namespace

TEST(ParquetCorrupt, WrongMagicAndTinyFiles) {
  auto bytes = load("flat_none.parquet");
  EXPECT_EQ(read_everything({}), "IOError");
  EXPECT_EQ(read_everything({'P', 'A', 'R', '1'}), "IOError");
  auto bad = bytes;
  bad[0] = 'X';
  EXPECT_EQ(read_everything(bad), "IOError");
  bad = bytes;
  bad[bad.size() - 1] = 'X';
  EXPECT_EQ(read_everything(bad), "IOError");
  bad = bytes;
  std::memcpy(bad.data() + bad.size() - 4, "PARE", 4);
  EXPECT_EQ(read_everything(bad), "IOError");
  // Footer length larger than the file.
  bad = bytes;
  uint32_t huge = 0xFFFFFFF0u;
  std::memcpy(bad.data() + bad.size() - 8, &huge, 4);
  EXPECT_EQ(read_everything(bad), "IOError");
  try {
    ParquetFile::open(fixture("flat_none.parquet") + ".missing");
    FAIL();
  } catch (const IOError& e) {
    EXPECT_NE(std::string(e.what()).find(".missing"), std::string::npos);
  }
}

TEST(ParquetCorrupt, TruncatedAtManyPoints) {
  for (const char* name : {"flat_snappy.parquet", "nested_v2.parquet", "enc_delta_v1.parquet"}) {
    auto bytes = load(name);
    for (size_t cut : {size_t(1), size_t(4), size_t(8), size_t(12), size_t(100), bytes.size() / 2, bytes.size() - 9,
                       bytes.size() - 20, bytes.size() - 200, bytes.size() - 1}) {
      SCOPED_TRACE(std::string(name) + " cut at " + std::to_string(cut));
      std::vector<uint8_t> t(bytes.begin(), bytes.begin() + std::min(cut, bytes.size()));
      EXPECT_NE(read_everything(t), "");
    }
  }
}

TEST(ParquetCorrupt, DataTruncatedButFooterIntact) {
  // Keep the footer, drop bytes from the middle: chunk ranges now point outside the data.
  auto bytes = load("flat_zstd.parquet");
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  std::vector<uint8_t> t(bytes.begin(), bytes.begin() + 1000);
  t.insert(t.end(), bytes.end() - 8 - footer_len, bytes.end());
  std::string kind = read_everything(t);
  EXPECT_EQ(kind, "IOError");
}

TEST(ParquetCorrupt, FlippedBytesNeverCrash) {
  std::mt19937 rng(12345);
  int errors = 0, total = 0;
  for (const char* name : {"flat_none.parquet", "flat_v2_snappy.parquet", "nested_v1.parquet", "enc_delta_v2.parquet",
                           "enc_dict_v1.parquet", "enc_delta2.parquet"}) {
    auto bytes = load(name);
    for (int trial = 0; trial < 60; ++trial) {
      auto bad = bytes;
      int flips = 1 + trial % 4;
      for (int k = 0; k < flips; ++k) {
        size_t pos = rng() % bad.size();
        // Half the trials target the footer, where thrift parsing is exercised.
        if (trial % 2) {
          uint32_t footer_len;
          std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
          pos = bytes.size() - 8 - footer_len + rng() % footer_len;
        }
        bad[pos] ^= static_cast<uint8_t>(1 + rng() % 255);
      }
      ++total;
      errors += read_everything(bad) != "";
    }
  }
  // Most flips are caught; some land in value bytes and legitimately decode.
  EXPECT_GT(errors, total / 4);
}

TEST(ParquetCorrupt, ErrorsNameFileRowGroupAndColumn) {
  auto bytes = load("flat_none.parquet");
  // Corrupt the first data page header of row group 0, column i8 (data begins at 4).
  auto f = ParquetFile::from_buffer(to_buffer(bytes), "named.parquet");
  int64_t off = f->metadata().row_groups[1].columns[2].meta_data->data_page_offset;
  auto bad = bytes;
  for (int k = 0; k < 6; ++k) bad[off + k] = 0xFF;
  try {
    auto g = ParquetFile::from_buffer(to_buffer(bad), "named.parquet");
    g->read_row_group(1);
    FAIL() << "expected an error";
  } catch (const IOError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("named.parquet"), std::string::npos) << m;
    EXPECT_NE(m.find("row group 1"), std::string::npos) << m;
    EXPECT_NE(m.find("'i32'"), std::string::npos) << m;
  }
}

TEST(ParquetCorrupt, ThriftDepthAndLengthLimits) {
  // 200 nested structs: rejected by the depth limit, not by a stack overflow.
  std::vector<uint8_t> deep;
  for (int i = 0; i < 200; ++i) deep.push_back(0x1C);  // field 1, type struct
  deep.insert(deep.end(), 200, 0);
  EXPECT_THROW(decode_file_metadata(deep.data(), deep.size()), ThriftError);
  // A list claiming 2^31 elements in a few bytes.
  std::vector<uint8_t> list = {0x19, 0xFC, 0xFF, 0xFF, 0xFF, 0xFF, 0x07};
  EXPECT_THROW(decode_file_metadata(list.data(), list.size()), ThriftError);
  // A string longer than the input.
  std::vector<uint8_t> str = {0x68, 0xFF, 0xFF, 0x03, 'a'};
  EXPECT_THROW(decode_file_metadata(str.data(), str.size()), ThriftError);
  // Varint that never ends.
  std::vector<uint8_t> var(20, 0xFF);
  var.insert(var.begin(), 0x15);
  EXPECT_THROW(decode_file_metadata(var.data(), var.size()), ThriftError);
  // Missing required fields.
  std::vector<uint8_t> empty = {0x00};
  EXPECT_THROW(decode_file_metadata(empty.data(), empty.size()), ThriftError);
}

TEST(ParquetCorrupt, AbsurdRowCountsAreRejectedBeforeAllocating) {
  // Rewrite a valid file's footer with a row group claiming 2^40 rows.
  DataFrame df = read_parquet(fixture("flat_none.parquet"));
  auto f = ParquetFile::open(fixture("flat_none.parquet"));
  FileMetaData md = f->metadata();
  md.row_groups[0].num_rows = int64_t(1) << 40;
  ThriftWriter w;
  encode_file_metadata(md, w);
  auto bytes = load("flat_none.parquet");
  uint32_t footer_len;
  std::memcpy(&footer_len, bytes.data() + bytes.size() - 8, 4);
  bytes.resize(bytes.size() - 8 - footer_len);
  bytes.insert(bytes.end(), w.bytes().begin(), w.bytes().end());
  uint32_t n = static_cast<uint32_t>(w.bytes().size());
  bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&n), reinterpret_cast<uint8_t*>(&n) + 4);
  bytes.insert(bytes.end(), {'P', 'A', 'R', '1'});
  EXPECT_EQ(read_everything(bytes), "IOError");
  // And a column chunk whose value count disagrees with its pages.
  md = f->metadata();
  md.row_groups[0].columns[3].meta_data->num_values += 5;
  ThriftWriter w2;
  encode_file_metadata(md, w2);
  bytes.resize(bytes.size() - 8 - n);
  bytes.insert(bytes.end(), w2.bytes().begin(), w2.bytes().end());
  n = static_cast<uint32_t>(w2.bytes().size());
  bytes.insert(bytes.end(), reinterpret_cast<uint8_t*>(&n), reinterpret_cast<uint8_t*>(&n) + 4);
  bytes.insert(bytes.end(), {'P', 'A', 'R', '1'});
  EXPECT_EQ(read_everything(bytes), "IOError");
}
