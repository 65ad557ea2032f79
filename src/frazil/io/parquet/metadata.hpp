// Parquet's footer and page header structures (parquet.thrift), with their compact
// protocol decoders and encoders. Only the fields frazil reads or writes are kept;
// others are skipped on decode.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frazil/io/parquet/thrift.hpp"

namespace frazil::io::parquet {

enum class PhysicalType : int32_t {
  Boolean = 0,
  Int32 = 1,
  Int64 = 2,
  Int96 = 3,
  Float = 4,
  Double = 5,
  ByteArray = 6,
  FixedLenByteArray = 7,
};

enum class Repetition : int32_t { Required = 0, Optional = 1, Repeated = 2 };

enum class ConvertedType : int32_t {
  Utf8 = 0,
  Map = 1,
  MapKeyValue = 2,
  List = 3,
  Enum = 4,
  Decimal = 5,
  Date = 6,
  TimeMillis = 7,
  TimeMicros = 8,
  TimestampMillis = 9,
  TimestampMicros = 10,
  Uint8 = 11,
  Uint16 = 12,
  Uint32 = 13,
  Uint64 = 14,
  Int8 = 15,
  Int16 = 16,
  Int32 = 17,
  Int64 = 18,
  Json = 19,
  Bson = 20,
  Interval = 21,
};

enum class Encoding : int32_t {
  Plain = 0,
  PlainDictionary = 2,
  Rle = 3,
  BitPacked = 4,
  DeltaBinaryPacked = 5,
  DeltaLengthByteArray = 6,
  DeltaByteArray = 7,
  RleDictionary = 8,
  ByteStreamSplit = 9,
};
const char* encoding_name(Encoding e);

enum class Codec : int32_t {
  Uncompressed = 0,
  Snappy = 1,
  Gzip = 2,
  Lzo = 3,
  Brotli = 4,
  Lz4 = 5,  // the old Hadoop-framed LZ4
  Zstd = 6,
  Lz4Raw = 7,
};
const char* codec_name(Codec c);

enum class PageType : int32_t { DataPage = 0, IndexPage = 1, DictionaryPage = 2, DataPageV2 = 3 };

enum class LogicalKind : uint8_t {
  None = 0,
  String = 1,
  Map = 2,
  List = 3,
  Enum = 4,
  Decimal = 5,
  Date = 6,
  Time = 7,
  Timestamp = 8,
  Integer = 10,
  Unknown = 11,  // the Null type
  Json = 12,
  Bson = 13,
  Uuid = 14,
  Float16 = 15,
};

enum class LogicalTimeUnit : uint8_t { Millis = 1, Micros = 2, Nanos = 3 };

struct LogicalType {
  LogicalKind kind = LogicalKind::None;
  int32_t scale = 0;          // Decimal
  int32_t precision = 0;      // Decimal
  bool adjusted_to_utc = false;  // Time, Timestamp
  LogicalTimeUnit unit = LogicalTimeUnit::Millis;  // Time, Timestamp
  int8_t bit_width = 0;       // Integer
  bool is_signed = true;      // Integer
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<Repetition> repetition;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;
};

struct Statistics {
  std::optional<std::string> max;  // deprecated: signed comparison
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::Int32;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  Codec codec = Codec::Uncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;
};

struct FileMetaData {
  int32_t version = 2;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  // One entry per leaf column; true for TYPE_DEFINED_ORDER (min_value/max_value valid).
  std::vector<bool> column_orders;
  bool encrypted = false;  // encryption_algorithm present: unsupported
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::Plain;
  Encoding definition_level_encoding = Encoding::Rle;
  Encoding repetition_level_encoding = Encoding::Rle;
  std::optional<Statistics> statistics;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::Plain;
  std::optional<bool> is_sorted;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::Plain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
  std::optional<Statistics> statistics;
};

struct PageHeader {
  PageType type = PageType::DataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;
};

// Decoders throw ThriftError on malformed input or a missing required field.
FileMetaData decode_file_metadata(const uint8_t* data, size_t size);
// Decodes a page header at `data`; `header_size` receives the bytes it took.
PageHeader decode_page_header(const uint8_t* data, size_t size, size_t* header_size);

void encode_file_metadata(const FileMetaData& md, ThriftWriter& w);
void encode_page_header(const PageHeader& ph, ThriftWriter& w);
void encode_statistics(const Statistics& st, ThriftWriter& w);

}  // namespace frazil::io::parquet
