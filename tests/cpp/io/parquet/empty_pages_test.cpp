// Valid files that hold nothing in places: an empty data page (v1 or v2) between full ones
// (its zero bytes are not a compressed stream and must not be decompressed), and 0-row
// column chunks whose data_page_offset is 0 (pyarrow 26 and pandas write those).
#include <gtest/gtest.h>

#include <cstring>

#include "frazil/core/error.hpp"
#include "frazil/io/parquet/codec.hpp"
#include "frazil/io/parquet/file_reader.hpp"
#include "frazil/io/parquet/metadata.hpp"
#include "frazil/io/parquet/rle.hpp"
#include "frazil/io/parquet/thrift.hpp"

using namespace frazil;
using namespace frazil::io::parquet;

namespace {

void append(std::vector<uint8_t>& out, const std::vector<uint8_t>& bytes) {
  out.insert(out.end(), bytes.begin(), bytes.end());
}

// A data page of optional int32 `values` (nullopt: null); v1 or v2, compressed with `codec`.
std::vector<uint8_t> data_page(const std::vector<std::optional<int32_t>>& values, bool v2, Codec codec) {
  std::vector<uint32_t> def;
  std::vector<uint8_t> plain;
  for (const auto& v : values) {
    def.push_back(v ? 1 : 0);
    if (v) {
      uint8_t b[4];
      std::memcpy(b, &*v, 4);
      plain.insert(plain.end(), b, b + 4);
    }
  }
  std::vector<uint8_t> levels;
  if (!values.empty()) encode_rle_bitpacked(def.data(), def.size(), 1, levels);
  PageHeader ph;
  std::vector<uint8_t> body;
  if (v2) {
    ph.type = PageType::DataPageV2;
    DataPageHeaderV2 d;
    d.num_values = d.num_rows = static_cast<int32_t>(values.size());
    d.num_nulls = static_cast<int32_t>(values.size() - plain.size() / 4);
    d.definition_levels_byte_length = static_cast<int32_t>(levels.size());
    ph.data_page_header_v2 = d;
    std::vector<uint8_t> packed;
    if (!plain.empty()) compress(codec, 0, plain.data(), plain.size(), packed);  // an empty page stays 0 bytes
    body = levels;
    append(body, packed);
    ph.uncompressed_page_size = static_cast<int32_t>(levels.size() + plain.size());
  } else {
    ph.type = PageType::DataPage;
    DataPageHeader d;
    d.num_values = static_cast<int32_t>(values.size());
    ph.data_page_header = d;
    std::vector<uint8_t> raw;
    if (!values.empty()) {
      const uint32_t n = static_cast<uint32_t>(levels.size());
      raw.insert(raw.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
      append(raw, levels);
      append(raw, plain);
    }
    if (!raw.empty()) compress(codec, 0, raw.data(), raw.size(), body);
    ph.uncompressed_page_size = static_cast<int32_t>(raw.size());
  }
  ph.compressed_page_size = static_cast<int32_t>(body.size());
  ThriftWriter w;
  encode_page_header(ph, w);
  std::vector<uint8_t> out(w.bytes().begin(), w.bytes().end());
  append(out, body);
  return out;
}

// A one-column file (optional int32 "x") with one row group per entry of `groups`, each a
// list of pages. A group with no pages gets data_page_offset 0, as pyarrow 26 writes it.
std::vector<uint8_t> file_of(const std::vector<std::vector<std::vector<uint8_t>>>& groups,
                             const std::vector<int64_t>& rows, Codec codec) {
  std::vector<uint8_t> out = {'P', 'A', 'R', '1'};
  FileMetaData md;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 1;
  SchemaElement x;
  x.name = "x";
  x.type = PhysicalType::Int32;
  x.repetition = Repetition::Optional;
  md.schema = {root, x};
  for (size_t g = 0; g < groups.size(); ++g) {
    ColumnMetaData m;
    m.type = PhysicalType::Int32;
    m.encodings = {Encoding::Plain, Encoding::Rle};
    m.path_in_schema = {"x"};
    m.codec = codec;
    m.num_values = rows[g];
    m.data_page_offset = groups[g].empty() ? 0 : static_cast<int64_t>(out.size());
    const size_t start = out.size();
    for (const auto& page : groups[g]) append(out, page);
    m.total_compressed_size = m.total_uncompressed_size = static_cast<int64_t>(out.size() - start);
    ColumnChunk cc;
    cc.file_offset = m.data_page_offset;
    cc.meta_data = m;
    RowGroup rg;
    rg.num_rows = rows[g];
    rg.total_byte_size = m.total_uncompressed_size;
    rg.columns = {cc};
    md.row_groups.push_back(rg);
    md.num_rows += rows[g];
  }
  md.column_orders = {true};
  ThriftWriter w;
  encode_file_metadata(md, w);
  append(out, w.bytes());
  const uint32_t n = static_cast<uint32_t>(w.bytes().size());
  out.insert(out.end(), reinterpret_cast<const uint8_t*>(&n), reinterpret_cast<const uint8_t*>(&n) + 4);
  append(out, {'P', 'A', 'R', '1'});
  return out;
}

std::vector<std::optional<int32_t>> read_x(const std::vector<uint8_t>& bytes) {
  Buffer b = Buffer::allocate(bytes.size());
  std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
  auto f = ParquetFile::from_buffer(b, "test.parquet");
  std::vector<std::optional<int32_t>> out;
  for (size_t g = 0; g < f->num_row_groups(); ++g) {
    DataFrame df = f->read_row_group(g);
    const Column& c = df.column(0);
    for (int64_t i = 0; i < c.length(); ++i) {
      Scalar v = c.get(i);
      out.push_back(v.is_null() ? std::nullopt : std::optional<int32_t>(static_cast<int32_t>(v.as_int64())));
    }
  }
  return out;
}

class EmptyPages : public ::testing::TestWithParam<std::tuple<bool, Codec>> {};

TEST_P(EmptyPages, AnEmptyPageBetweenFullOnesReadsAsNothing) {
  const auto [v2, codec] = GetParam();
  const std::vector<std::optional<int32_t>> a = {1, std::nullopt, 3};
  const std::vector<std::optional<int32_t>> b = {std::nullopt, 5};
  auto bytes = file_of({{data_page(a, v2, codec), data_page({}, v2, codec), data_page(b, v2, codec)}}, {5}, codec);
  std::vector<std::optional<int32_t>> want = a;
  want.insert(want.end(), b.begin(), b.end());
  EXPECT_EQ(read_x(bytes), want);
}

TEST_P(EmptyPages, AllNullPageV2HasNoValueBytes) {
  const auto [v2, codec] = GetParam();
  const std::vector<std::optional<int32_t>> nulls = {std::nullopt, std::nullopt};
  auto bytes = file_of({{data_page(nulls, v2, codec)}}, {2}, codec);
  EXPECT_EQ(read_x(bytes), nulls);
}

TEST_P(EmptyPages, ZeroRowChunkWithDataPageOffsetZero) {
  const auto [v2, codec] = GetParam();
  // A 0-row group first (no pages, offset 0), then a real one, then an empty page only.
  auto bytes = file_of({{}, {data_page({7, 8}, v2, codec)}, {data_page({}, v2, codec)}}, {0, 2, 0}, codec);
  EXPECT_EQ(read_x(bytes), (std::vector<std::optional<int32_t>>{7, 8}));
}

INSTANTIATE_TEST_SUITE_P(Codecs, EmptyPages,
                         ::testing::Combine(::testing::Bool(), ::testing::Values(Codec::Uncompressed, Codec::Snappy,
                                                                                 Codec::Zstd, Codec::Gzip,
                                                                                 Codec::Lz4Raw)));

TEST(EmptyPagesErrors, NoValueBytesForNonNullValuesIsAnError) {
  // A v2 page with one non-null value whose compressed values section is 0 bytes: zero
  // bytes cannot decompress into the 4 the page claims.
  std::vector<uint8_t> levels;
  const uint32_t one = 1;
  encode_rle_bitpacked(&one, 1, 1, levels);
  PageHeader ph;
  ph.type = PageType::DataPageV2;
  DataPageHeaderV2 d;
  d.num_values = d.num_rows = 1;
  d.definition_levels_byte_length = static_cast<int32_t>(levels.size());
  ph.data_page_header_v2 = d;
  ph.uncompressed_page_size = static_cast<int32_t>(levels.size() + 4);
  ph.compressed_page_size = static_cast<int32_t>(levels.size());
  ThriftWriter w;
  encode_page_header(ph, w);
  std::vector<uint8_t> page(w.bytes().begin(), w.bytes().end());
  append(page, levels);
  auto bytes = file_of({{page}}, {1}, Codec::Snappy);
  EXPECT_THROW(read_x(bytes), IOError);
}

}  // namespace
