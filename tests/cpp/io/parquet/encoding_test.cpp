// Unit tests of the encoding building blocks: thrift compact protocol, bit unpacking,
// the RLE/bit-packed hybrid, DELTA_BINARY_PACKED and BYTE_STREAM_SPLIT.
#include <gtest/gtest.h>

#include <random>

#include "frazil/io/parquet/bit_unpack.hpp"
#include "frazil/io/parquet/codec.hpp"
#include "frazil/io/parquet/decode_error.hpp"
#include "frazil/io/parquet/delta.hpp"
#include "frazil/io/parquet/metadata.hpp"
#include "frazil/io/parquet/rle.hpp"
#include "frazil/io/parquet/thrift.hpp"

using namespace frazil::io::parquet;

TEST(ParquetThrift, FileMetaDataRoundTrip) {
  FileMetaData md;
  md.version = 2;
  SchemaElement root;
  root.name = "schema";
  root.num_children = 2;
  md.schema.push_back(root);
  SchemaElement a;
  a.name = "a";
  a.type = PhysicalType::FixedLenByteArray;
  a.type_length = 16;
  a.repetition = Repetition::Optional;
  a.converted_type = ConvertedType::Decimal;
  a.precision = 38;
  a.scale = 7;
  LogicalType dec;
  dec.kind = LogicalKind::Decimal;
  dec.precision = 38;
  dec.scale = 7;
  a.logical_type = dec;
  a.field_id = 300;  // forces the long field-header form later on
  md.schema.push_back(a);
  SchemaElement b;
  b.name = "b";
  b.type = PhysicalType::Int64;
  LogicalType ts;
  ts.kind = LogicalKind::Timestamp;
  ts.unit = LogicalTimeUnit::Nanos;
  ts.adjusted_to_utc = true;
  b.logical_type = ts;
  md.schema.push_back(b);
  md.num_rows = -5;  // negative zigzag
  RowGroup rg;
  rg.num_rows = 1234567890123;
  for (int c = 0; c < 20; ++c) {  // a list longer than 14 elements
    ColumnChunk cc;
    cc.file_offset = c * 1000;
    ColumnMetaData m;
    m.type = PhysicalType::Int64;
    m.encodings = {Encoding::Plain, Encoding::RleDictionary};
    m.path_in_schema = {"b", "x" + std::to_string(c)};
    m.codec = Codec::Zstd;
    m.num_values = c;
    m.data_page_offset = 4 + c;
    Statistics st;
    st.min_value = std::string("\x00\x01", 2);
    st.max_value = "zz";
    st.null_count = 3;
    m.statistics = st;
    cc.meta_data = m;
    rg.columns.push_back(cc);
  }
  md.row_groups.push_back(rg);
  md.key_value_metadata.push_back({"k", std::string("v")});
  md.created_by = "test";
  md.column_orders = {true, false};
  ThriftWriter w;
  encode_file_metadata(md, w);
  FileMetaData back = decode_file_metadata(w.bytes().data(), w.bytes().size());
  ASSERT_EQ(back.schema.size(), 3u);
  EXPECT_EQ(back.schema[1].name, "a");
  EXPECT_EQ(*back.schema[1].type_length, 16);
  EXPECT_EQ(*back.schema[1].field_id, 300);
  EXPECT_EQ(back.schema[1].logical_type->kind, LogicalKind::Decimal);
  EXPECT_EQ(back.schema[1].logical_type->precision, 38);
  EXPECT_EQ(back.schema[1].logical_type->scale, 7);
  EXPECT_EQ(back.schema[2].logical_type->unit, LogicalTimeUnit::Nanos);
  EXPECT_TRUE(back.schema[2].logical_type->adjusted_to_utc);
  EXPECT_EQ(back.num_rows, -5);
  ASSERT_EQ(back.row_groups.size(), 1u);
  EXPECT_EQ(back.row_groups[0].num_rows, 1234567890123);
  ASSERT_EQ(back.row_groups[0].columns.size(), 20u);
  const ColumnMetaData& m = *back.row_groups[0].columns[19].meta_data;
  EXPECT_EQ(m.path_in_schema[1], "x19");
  EXPECT_EQ(m.codec, Codec::Zstd);
  EXPECT_EQ(m.encodings[1], Encoding::RleDictionary);
  EXPECT_EQ(*m.statistics->min_value, std::string("\x00\x01", 2));
  EXPECT_EQ(*m.statistics->null_count, 3);
  EXPECT_EQ(back.key_value_metadata[0].value.value(), "v");
  EXPECT_EQ(back.column_orders, (std::vector<bool>{true, false}));
  // Every strict prefix is rejected, never read past.
  for (size_t cut = 0; cut < w.bytes().size(); cut += 7)
    EXPECT_THROW(decode_file_metadata(w.bytes().data(), cut), ThriftError) << cut;
}

TEST(ParquetThrift, PageHeaderRoundTripAndUnknownFieldsSkipped) {
  PageHeader ph;
  ph.type = PageType::DataPageV2;
  ph.uncompressed_page_size = 100;
  ph.compressed_page_size = 50;
  DataPageHeaderV2 d;
  d.num_values = 10;
  d.num_nulls = 2;
  d.num_rows = 9;
  d.encoding = Encoding::DeltaByteArray;
  d.definition_levels_byte_length = 3;
  d.repetition_levels_byte_length = 4;
  d.is_compressed = false;
  ph.data_page_header_v2 = d;
  ThriftWriter w;
  encode_page_header(ph, w);
  // Append an unknown field (id 20, a struct holding a list and a double) before Stop.
  std::vector<uint8_t> bytes = w.bytes();
  bytes.pop_back();
  ThriftWriter extra;
  extra.field_header(TType::Struct, 20);
  extra.begin_struct();
  extra.field_list(1, TType::I32, 3);
  extra.write_i32(1);
  extra.write_i32(-2);
  extra.write_i32(3);
  extra.field_header(TType::Double, 2);
  for (int i = 0; i < 8; ++i) extra.bytes().push_back(0);
  extra.end_struct();
  bytes.insert(bytes.end(), extra.bytes().begin(), extra.bytes().end());
  bytes.push_back(0);
  bytes.push_back(0xAB);  // trailing page data must not be consumed
  size_t used = 0;
  PageHeader back = decode_page_header(bytes.data(), bytes.size(), &used);
  EXPECT_EQ(used, bytes.size() - 1);
  ASSERT_TRUE(back.data_page_header_v2);
  EXPECT_EQ(back.data_page_header_v2->num_nulls, 2);
  EXPECT_EQ(back.data_page_header_v2->encoding, Encoding::DeltaByteArray);
  EXPECT_FALSE(back.data_page_header_v2->is_compressed);
  EXPECT_EQ(back.data_page_header_v2->repetition_levels_byte_length, 4);
}

TEST(ParquetBitUnpack, EveryWidthMatchesNaive) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> packed(64 * 8 + 16);
  for (auto& b : packed) b = static_cast<uint8_t>(rng());
  for (int w = 0; w <= 64; ++w) {
    const size_t n = 64;
    const size_t bytes = n * w / 8;
    std::vector<uint64_t> out(n);
    unpack64(packed.data(), bytes, w, out.data(), n);
    for (size_t i = 0; i < n; ++i) {
      uint64_t v = 0;
      for (int b = 0; b < w; ++b) {
        size_t bit = i * w + b;
        v |= uint64_t((packed[bit / 8] >> (bit % 8)) & 1) << b;
      }
      ASSERT_EQ(out[i], v) << "width " << w << " index " << i;
    }
    if (w <= 32) {
      std::vector<uint32_t> o32(n);
      // Exactly the packed bytes available: the tail path must not read past them.
      unpack32(packed.data(), bytes, w, o32.data(), n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(o32[i], out[i]) << "width " << w;
    }
  }
}

TEST(ParquetRle, RoundTripRunsAndLiterals) {
  std::mt19937 rng(99);
  for (int w : {0, 1, 2, 3, 5, 8, 11, 16, 20, 31, 32}) {
    std::vector<uint32_t> v;
    const uint64_t mask = w == 32 ? 0xFFFFFFFFull : ((1ull << w) - 1);
    while (v.size() < 5000) {
      uint32_t x = static_cast<uint32_t>(rng() & mask);
      size_t run = rng() % 3 == 0 ? 1 + rng() % 40 : 1;
      v.insert(v.end(), run, x);
    }
    std::vector<uint8_t> enc;
    encode_rle_bitpacked(v.data(), v.size(), w, enc);
    RleBitPackedDecoder dec(enc.data(), enc.size(), w);
    std::vector<uint32_t> out(v.size());
    size_t done = 0;
    // Odd batch sizes cross run and group boundaries.
    for (size_t step = 1; done < v.size(); step = step * 3 % 97 + 1) {
      size_t k = std::min(step, v.size() - done);
      ASSERT_EQ(dec.get_batch(out.data() + done, k), k);
      done += k;
    }
    EXPECT_EQ(out, v) << "width " << w;
    uint32_t extra;
    // Past the end only padding of the last group may remain.
    EXPECT_LE(dec.get_batch(&extra, 1), 1u);
  }
  EXPECT_THROW(RleBitPackedDecoder(nullptr, 0, 33), DecodeError);
  // A run value cut short is an error, not a read past the end.
  std::vector<uint8_t> cut = {0x08};  // RLE run of 4, value bytes missing (width 8)
  RleBitPackedDecoder d(cut.data(), cut.size(), 8);
  uint32_t out[4];
  EXPECT_THROW(d.get_batch(out, 4), DecodeError);
}

TEST(ParquetDelta, HeaderOnlyAndErrors) {
  // block 128, 4 miniblocks, 1 value, first value -3 (zigzag 5).
  std::vector<uint8_t> one = {0x80, 0x01, 0x04, 0x01, 0x05};
  DeltaBinaryPackedDecoder d(one.data(), one.size());
  ASSERT_EQ(d.total_values(), 1u);
  int64_t v;
  d.decode(&v, 1);
  EXPECT_EQ(v, -3);
  EXPECT_EQ(d.consumed(), one.size());
  // Two values: min delta 7, all miniblock widths 0.
  std::vector<uint8_t> two = {0x80, 0x01, 0x04, 0x02, 0x02, 0x0E, 0, 0, 0, 0};
  DeltaBinaryPackedDecoder d2(two.data(), two.size());
  int64_t out[2];
  d2.decode(out, 2);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 8);
  EXPECT_EQ(d2.consumed(), two.size());
  std::vector<uint8_t> bad_block = {0x40, 0x04, 0x01, 0x00};  // block size 64
  EXPECT_THROW(DeltaBinaryPackedDecoder(bad_block.data(), bad_block.size()), DecodeError);
  std::vector<uint8_t> wide = {0x80, 0x01, 0x04, 0x02, 0x00, 0x00, 65, 0, 0, 0};
  DeltaBinaryPackedDecoder d3(wide.data(), wide.size());
  EXPECT_THROW(d3.decode(out, 2), DecodeError);
  DeltaBinaryPackedDecoder d4(two.data(), 6);  // widths missing
  EXPECT_THROW(d4.decode(out, 2), DecodeError);
  DeltaBinaryPackedDecoder d5(two.data(), two.size());
  EXPECT_THROW(d5.decode(out, 3), DecodeError);  // more than the page holds
}

TEST(ParquetByteStreamSplit, Decodes) {
  // Two 4-byte values: streams of 2 bytes each.
  uint8_t in[8] = {1, 5, 2, 6, 3, 7, 4, 8};
  uint8_t out[8];
  decode_byte_stream_split(in, 2, 2, 4, out);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 8), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  uint8_t in3[6] = {1, 4, 2, 5, 3, 6};
  decode_byte_stream_split(in3, 2, 2, 3, out);
  EXPECT_EQ(std::vector<uint8_t>(out, out + 6), (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
}

TEST(ParquetCodec, RoundTripAndCorruption) {
  std::vector<uint8_t> data(10000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>((i * 7) % 13);
  for (Codec c : {Codec::Uncompressed, Codec::Snappy, Codec::Gzip, Codec::Zstd, Codec::Lz4Raw, Codec::Lz4}) {
    std::vector<uint8_t> comp;
    compress(c, 0, data.data(), data.size(), comp);
    std::vector<uint8_t> back(data.size());
    decompress(c, comp.data(), comp.size(), back.data(), back.size());
    EXPECT_EQ(back, data) << codec_name(c);
    // Wrong expected size and damaged input are CodecErrors.
    std::vector<uint8_t> small(data.size() - 1);
    EXPECT_THROW(decompress(c, comp.data(), comp.size(), small.data(), small.size()), CodecError) << codec_name(c);
    if (c != Codec::Uncompressed) {
      std::vector<uint8_t> cut(comp.begin(), comp.begin() + comp.size() / 2);
      EXPECT_THROW(decompress(c, cut.data(), cut.size(), back.data(), back.size()), CodecError) << codec_name(c);
    }
  }
  // The old LZ4 codec also accepts a raw block without Hadoop framing.
  std::vector<uint8_t> raw;
  compress(Codec::Lz4Raw, 0, data.data(), data.size(), raw);
  std::vector<uint8_t> back(data.size());
  decompress(Codec::Lz4, raw.data(), raw.size(), back.data(), back.size());
  EXPECT_EQ(back, data);
  EXPECT_THROW(decompress(Codec::Brotli, raw.data(), raw.size(), back.data(), back.size()), CodecError);
}
