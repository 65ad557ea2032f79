#include "frazil/io/parquet/metadata.hpp"

namespace frazil::io::parquet {

const char* encoding_name(Encoding e) {
  switch (e) {
    case Encoding::Plain: return "PLAIN";
    case Encoding::PlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::Rle: return "RLE";
    case Encoding::BitPacked: return "BIT_PACKED";
    case Encoding::DeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::DeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::RleDictionary: return "RLE_DICTIONARY";
    case Encoding::ByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN_ENCODING";
}

const char* codec_name(Codec c) {
  switch (c) {
    case Codec::Uncompressed: return "UNCOMPRESSED";
    case Codec::Snappy: return "SNAPPY";
    case Codec::Gzip: return "GZIP";
    case Codec::Lzo: return "LZO";
    case Codec::Brotli: return "BROTLI";
    case Codec::Lz4: return "LZ4";
    case Codec::Zstd: return "ZSTD";
    case Codec::Lz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN_CODEC";
}

namespace {

// Reads the fields of one struct, handing each to `on_field(type, id)`; a handler that
// returns false leaves the field to be skipped.
template <typename F>
void read_struct(ThriftReader& r, F&& on_field) {
  r.begin_struct();
  TType t;
  int16_t id;
  while (r.next_field(t, id)) {
    if (!on_field(t, id)) r.skip(t);
  }
  r.end_struct();
}

void expect(TType got, TType want) {
  if (got != want) throw ThriftError("thrift: field has an unexpected type");
}
bool is_bool(TType t) { return t == TType::BoolTrue || t == TType::BoolFalse; }

int32_t get_i32(ThriftReader& r, TType t) { expect(t, TType::I32); return r.read_i32(); }
int64_t get_i64(ThriftReader& r, TType t) {
  if (t == TType::I32) return r.read_i32();
  expect(t, TType::I64);
  return r.read_i64();
}
std::string get_string(ThriftReader& r, TType t) { expect(t, TType::Binary); return r.read_string(); }
bool get_bool(TType t) {
  if (!is_bool(t)) throw ThriftError("thrift: field has an unexpected type");
  return ThriftReader::bool_from_field(t);
}

template <typename F>
void read_list(ThriftReader& r, TType t, TType elem_want, F&& on_elem) {
  expect(t, TType::List);
  TType elem;
  uint32_t n;
  r.read_list_header(elem, n);
  if (elem != elem_want) throw ThriftError("thrift: list has an unexpected element type");
  for (uint32_t i = 0; i < n; ++i) on_elem();
}

Statistics read_statistics(ThriftReader& r) {
  Statistics s;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: s.max = get_string(r, t); return true;
      case 2: s.min = get_string(r, t); return true;
      case 3: s.null_count = get_i64(r, t); return true;
      case 4: s.distinct_count = get_i64(r, t); return true;
      case 5: s.max_value = get_string(r, t); return true;
      case 6: s.min_value = get_string(r, t); return true;
      default: return false;
    }
  });
  return s;
}

LogicalTimeUnit read_time_unit(ThriftReader& r) {
  LogicalTimeUnit u = LogicalTimeUnit::Millis;
  bool seen = false;
  read_struct(r, [&](TType t, int16_t id) {
    if (id < 1 || id > 3 || t != TType::Struct) return false;
    u = static_cast<LogicalTimeUnit>(id);
    seen = true;
    r.skip(t);
    return true;
  });
  if (!seen) throw ThriftError("thrift: time unit without a value");
  return u;
}

LogicalType read_logical_type(ThriftReader& r) {
  LogicalType lt;
  read_struct(r, [&](TType t, int16_t id) {
    if (t != TType::Struct) return false;
    switch (id) {
      case 5:
        lt.kind = LogicalKind::Decimal;
        read_struct(r, [&](TType t2, int16_t id2) {
          if (id2 == 1) { lt.scale = get_i32(r, t2); return true; }
          if (id2 == 2) { lt.precision = get_i32(r, t2); return true; }
          return false;
        });
        return true;
      case 7:
      case 8:
        lt.kind = id == 7 ? LogicalKind::Time : LogicalKind::Timestamp;
        read_struct(r, [&](TType t2, int16_t id2) {
          if (id2 == 1) { lt.adjusted_to_utc = get_bool(t2); return true; }
          if (id2 == 2) { expect(t2, TType::Struct); lt.unit = read_time_unit(r); return true; }
          return false;
        });
        return true;
      case 10:
        lt.kind = LogicalKind::Integer;
        read_struct(r, [&](TType t2, int16_t id2) {
          if (id2 == 1) { expect(t2, TType::Byte); lt.bit_width = r.read_byte(); return true; }
          if (id2 == 2) { lt.is_signed = get_bool(t2); return true; }
          return false;
        });
        return true;
      case 1: case 2: case 3: case 4: case 6: case 11: case 12: case 13: case 14: case 15:
        lt.kind = static_cast<LogicalKind>(id);
        r.skip(t);
        return true;
      default: return false;
    }
  });
  return lt;
}

SchemaElement read_schema_element(ThriftReader& r) {
  SchemaElement e;
  bool has_name = false;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: {
        int32_t v = get_i32(r, t);
        if (v < 0 || v > 7) throw ThriftError("thrift: unknown physical type");
        e.type = static_cast<PhysicalType>(v);
        return true;
      }
      case 2: e.type_length = get_i32(r, t); return true;
      case 3: {
        int32_t v = get_i32(r, t);
        if (v < 0 || v > 2) throw ThriftError("thrift: unknown repetition type");
        e.repetition = static_cast<Repetition>(v);
        return true;
      }
      case 4: e.name = get_string(r, t); has_name = true; return true;
      case 5: e.num_children = get_i32(r, t); return true;
      case 6: {
        int32_t v = get_i32(r, t);
        if (v >= 0 && v <= 21) e.converted_type = static_cast<ConvertedType>(v);
        return true;
      }
      case 7: e.scale = get_i32(r, t); return true;
      case 8: e.precision = get_i32(r, t); return true;
      case 9: e.field_id = get_i32(r, t); return true;
      case 10: expect(t, TType::Struct); e.logical_type = read_logical_type(r); return true;
      default: return false;
    }
  });
  if (!has_name) throw ThriftError("thrift: schema element without a name");
  return e;
}

ColumnMetaData read_column_metadata(ThriftReader& r) {
  ColumnMetaData m;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: {
        int32_t v = get_i32(r, t);
        if (v < 0 || v > 7) throw ThriftError("thrift: unknown physical type");
        m.type = static_cast<PhysicalType>(v);
        return true;
      }
      case 2: read_list(r, t, TType::I32, [&] { m.encodings.push_back(static_cast<Encoding>(r.read_i32())); }); return true;
      case 3: read_list(r, t, TType::Binary, [&] { m.path_in_schema.push_back(r.read_string()); }); return true;
      case 4: m.codec = static_cast<Codec>(get_i32(r, t)); return true;
      case 5: m.num_values = get_i64(r, t); return true;
      case 6: m.total_uncompressed_size = get_i64(r, t); return true;
      case 7: m.total_compressed_size = get_i64(r, t); return true;
      case 9: m.data_page_offset = get_i64(r, t); return true;
      case 10: m.index_page_offset = get_i64(r, t); return true;
      case 11: m.dictionary_page_offset = get_i64(r, t); return true;
      case 12: expect(t, TType::Struct); m.statistics = read_statistics(r); return true;
      default: return false;
    }
  });
  return m;
}

ColumnChunk read_column_chunk(ThriftReader& r) {
  ColumnChunk c;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: c.file_path = get_string(r, t); return true;
      case 2: c.file_offset = get_i64(r, t); return true;
      case 3: expect(t, TType::Struct); c.meta_data = read_column_metadata(r); return true;
      default: return false;
    }
  });
  return c;
}

RowGroup read_row_group(ThriftReader& r) {
  RowGroup g;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: read_list(r, t, TType::Struct, [&] { g.columns.push_back(read_column_chunk(r)); }); return true;
      case 2: g.total_byte_size = get_i64(r, t); return true;
      case 3: g.num_rows = get_i64(r, t); return true;
      case 5: g.file_offset = get_i64(r, t); return true;
      case 6: g.total_compressed_size = get_i64(r, t); return true;
      case 7: expect(t, TType::I16); g.ordinal = r.read_i16(); return true;
      default: return false;
    }
  });
  return g;
}

void write_statistics_fields(const Statistics& s, ThriftWriter& w) {
  if (s.max) w.field_string(1, *s.max);
  if (s.min) w.field_string(2, *s.min);
  if (s.null_count) w.field_i64(3, *s.null_count);
  if (s.distinct_count) w.field_i64(4, *s.distinct_count);
  if (s.max_value) w.field_string(5, *s.max_value);
  if (s.min_value) w.field_string(6, *s.min_value);
}

void write_empty_struct_field(ThriftWriter& w, int16_t id) {
  w.field_struct(id);
  w.begin_struct();
  w.end_struct();
}

void write_logical_type(const LogicalType& lt, ThriftWriter& w) {
  w.begin_struct();
  int16_t id = static_cast<int16_t>(lt.kind);
  switch (lt.kind) {
    case LogicalKind::None: break;
    case LogicalKind::Decimal:
      w.field_struct(id);
      w.begin_struct();
      w.field_i32(1, lt.scale);
      w.field_i32(2, lt.precision);
      w.end_struct();
      break;
    case LogicalKind::Time:
    case LogicalKind::Timestamp:
      w.field_struct(id);
      w.begin_struct();
      w.field_bool(1, lt.adjusted_to_utc);
      w.field_struct(2);
      w.begin_struct();
      write_empty_struct_field(w, static_cast<int16_t>(lt.unit));
      w.end_struct();
      w.end_struct();
      break;
    case LogicalKind::Integer:
      w.field_struct(id);
      w.begin_struct();
      w.field_byte(1, lt.bit_width);
      w.field_bool(2, lt.is_signed);
      w.end_struct();
      break;
    default: write_empty_struct_field(w, id); break;
  }
  w.end_struct();
}

}  // namespace

FileMetaData decode_file_metadata(const uint8_t* data, size_t size) {
  ThriftReader r(data, size);
  FileMetaData md;
  bool has_schema = false, has_rows = false, has_groups = false;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: md.version = get_i32(r, t); return true;
      case 2:
        read_list(r, t, TType::Struct, [&] { md.schema.push_back(read_schema_element(r)); });
        has_schema = true;
        return true;
      case 3: md.num_rows = get_i64(r, t); has_rows = true; return true;
      case 4:
        read_list(r, t, TType::Struct, [&] { md.row_groups.push_back(read_row_group(r)); });
        has_groups = true;
        return true;
      case 5:
        read_list(r, t, TType::Struct, [&] {
          KeyValue kv;
          read_struct(r, [&](TType t2, int16_t id2) {
            if (id2 == 1) { kv.key = get_string(r, t2); return true; }
            if (id2 == 2) { kv.value = get_string(r, t2); return true; }
            return false;
          });
          md.key_value_metadata.push_back(std::move(kv));
        });
        return true;
      case 6: md.created_by = get_string(r, t); return true;
      case 7:
        read_list(r, t, TType::Struct, [&] {
          bool typed = false;
          read_struct(r, [&](TType, int16_t id2) { typed |= id2 == 1; return false; });
          md.column_orders.push_back(typed);
        });
        return true;
      case 8: md.encrypted = true; return false;
      default: return false;
    }
  });
  if (!has_schema || !has_rows || !has_groups)
    throw ThriftError("thrift: file metadata lacks a required field");
  return md;
}

PageHeader decode_page_header(const uint8_t* data, size_t size, size_t* header_size) {
  ThriftReader r(data, size);
  PageHeader ph;
  bool has_type = false, has_sizes = false;
  read_struct(r, [&](TType t, int16_t id) {
    switch (id) {
      case 1: ph.type = static_cast<PageType>(get_i32(r, t)); has_type = true; return true;
      case 2: ph.uncompressed_page_size = get_i32(r, t); return true;
      case 3: ph.compressed_page_size = get_i32(r, t); has_sizes = true; return true;
      case 4: ph.crc = get_i32(r, t); return true;
      case 5: {
        expect(t, TType::Struct);
        DataPageHeader d;
        read_struct(r, [&](TType t2, int16_t id2) {
          switch (id2) {
            case 1: d.num_values = get_i32(r, t2); return true;
            case 2: d.encoding = static_cast<Encoding>(get_i32(r, t2)); return true;
            case 3: d.definition_level_encoding = static_cast<Encoding>(get_i32(r, t2)); return true;
            case 4: d.repetition_level_encoding = static_cast<Encoding>(get_i32(r, t2)); return true;
            case 5: expect(t2, TType::Struct); d.statistics = read_statistics(r); return true;
            default: return false;
          }
        });
        ph.data_page_header = d;
        return true;
      }
      case 7: {
        expect(t, TType::Struct);
        DictionaryPageHeader d;
        read_struct(r, [&](TType t2, int16_t id2) {
          switch (id2) {
            case 1: d.num_values = get_i32(r, t2); return true;
            case 2: d.encoding = static_cast<Encoding>(get_i32(r, t2)); return true;
            case 3: d.is_sorted = get_bool(t2); return true;
            default: return false;
          }
        });
        ph.dictionary_page_header = d;
        return true;
      }
      case 8: {
        expect(t, TType::Struct);
        DataPageHeaderV2 d;
        read_struct(r, [&](TType t2, int16_t id2) {
          switch (id2) {
            case 1: d.num_values = get_i32(r, t2); return true;
            case 2: d.num_nulls = get_i32(r, t2); return true;
            case 3: d.num_rows = get_i32(r, t2); return true;
            case 4: d.encoding = static_cast<Encoding>(get_i32(r, t2)); return true;
            case 5: d.definition_levels_byte_length = get_i32(r, t2); return true;
            case 6: d.repetition_levels_byte_length = get_i32(r, t2); return true;
            case 7: d.is_compressed = get_bool(t2); return true;
            case 8: expect(t2, TType::Struct); d.statistics = read_statistics(r); return true;
            default: return false;
          }
        });
        ph.data_page_header_v2 = d;
        return true;
      }
      default: return false;
    }
  });
  if (!has_type || !has_sizes) throw ThriftError("thrift: page header lacks a required field");
  *header_size = r.position();
  return ph;
}

void encode_statistics(const Statistics& st, ThriftWriter& w) {
  w.begin_struct();
  write_statistics_fields(st, w);
  w.end_struct();
}

void encode_file_metadata(const FileMetaData& md, ThriftWriter& w) {
  w.begin_struct();
  w.field_i32(1, md.version);
  w.field_list(2, TType::Struct, static_cast<uint32_t>(md.schema.size()));
  for (const auto& e : md.schema) {
    w.begin_struct();
    if (e.type) w.field_i32(1, static_cast<int32_t>(*e.type));
    if (e.type_length) w.field_i32(2, *e.type_length);
    if (e.repetition) w.field_i32(3, static_cast<int32_t>(*e.repetition));
    w.field_string(4, e.name);
    if (e.num_children) w.field_i32(5, *e.num_children);
    if (e.converted_type) w.field_i32(6, static_cast<int32_t>(*e.converted_type));
    if (e.scale) w.field_i32(7, *e.scale);
    if (e.precision) w.field_i32(8, *e.precision);
    if (e.field_id) w.field_i32(9, *e.field_id);
    if (e.logical_type) {
      w.field_struct(10);
      write_logical_type(*e.logical_type, w);
    }
    w.end_struct();
  }
  w.field_i64(3, md.num_rows);
  w.field_list(4, TType::Struct, static_cast<uint32_t>(md.row_groups.size()));
  for (const auto& g : md.row_groups) {
    w.begin_struct();
    w.field_list(1, TType::Struct, static_cast<uint32_t>(g.columns.size()));
    for (const auto& c : g.columns) {
      w.begin_struct();
      if (c.file_path) w.field_string(1, *c.file_path);
      w.field_i64(2, c.file_offset);
      if (c.meta_data) {
        const ColumnMetaData& m = *c.meta_data;
        w.field_struct(3);
        w.begin_struct();
        w.field_i32(1, static_cast<int32_t>(m.type));
        w.field_list(2, TType::I32, static_cast<uint32_t>(m.encodings.size()));
        for (auto e : m.encodings) w.write_i32(static_cast<int32_t>(e));
        w.field_list(3, TType::Binary, static_cast<uint32_t>(m.path_in_schema.size()));
        for (const auto& p : m.path_in_schema) w.write_string(p);
        w.field_i32(4, static_cast<int32_t>(m.codec));
        w.field_i64(5, m.num_values);
        w.field_i64(6, m.total_uncompressed_size);
        w.field_i64(7, m.total_compressed_size);
        w.field_i64(9, m.data_page_offset);
        if (m.index_page_offset) w.field_i64(10, *m.index_page_offset);
        if (m.dictionary_page_offset) w.field_i64(11, *m.dictionary_page_offset);
        if (m.statistics) {
          w.field_struct(12);
          encode_statistics(*m.statistics, w);
        }
        w.end_struct();
      }
      w.end_struct();
    }
    w.field_i64(2, g.total_byte_size);
    w.field_i64(3, g.num_rows);
    if (g.file_offset) w.field_i64(5, *g.file_offset);
    if (g.total_compressed_size) w.field_i64(6, *g.total_compressed_size);
    if (g.ordinal) w.field_i16(7, *g.ordinal);
    w.end_struct();
  }
  if (!md.key_value_metadata.empty()) {
    w.field_list(5, TType::Struct, static_cast<uint32_t>(md.key_value_metadata.size()));
    for (const auto& kv : md.key_value_metadata) {
      w.begin_struct();
      w.field_string(1, kv.key);
      if (kv.value) w.field_string(2, *kv.value);
      w.end_struct();
    }
  }
  if (md.created_by) w.field_string(6, *md.created_by);
  if (!md.column_orders.empty()) {
    w.field_list(7, TType::Struct, static_cast<uint32_t>(md.column_orders.size()));
    for (bool typed : md.column_orders) {
      w.begin_struct();
      if (typed) write_empty_struct_field(w, 1);
      w.end_struct();
    }
  }
  w.end_struct();
}

void encode_page_header(const PageHeader& ph, ThriftWriter& w) {
  w.begin_struct();
  w.field_i32(1, static_cast<int32_t>(ph.type));
  w.field_i32(2, ph.uncompressed_page_size);
  w.field_i32(3, ph.compressed_page_size);
  if (ph.crc) w.field_i32(4, *ph.crc);
  if (ph.data_page_header) {
    const auto& d = *ph.data_page_header;
    w.field_struct(5);
    w.begin_struct();
    w.field_i32(1, d.num_values);
    w.field_i32(2, static_cast<int32_t>(d.encoding));
    w.field_i32(3, static_cast<int32_t>(d.definition_level_encoding));
    w.field_i32(4, static_cast<int32_t>(d.repetition_level_encoding));
    if (d.statistics) {
      w.field_struct(5);
      encode_statistics(*d.statistics, w);
    }
    w.end_struct();
  }
  if (ph.dictionary_page_header) {
    const auto& d = *ph.dictionary_page_header;
    w.field_struct(7);
    w.begin_struct();
    w.field_i32(1, d.num_values);
    w.field_i32(2, static_cast<int32_t>(d.encoding));
    if (d.is_sorted) w.field_bool(3, *d.is_sorted);
    w.end_struct();
  }
  if (ph.data_page_header_v2) {
    const auto& d = *ph.data_page_header_v2;
    w.field_struct(8);
    w.begin_struct();
    w.field_i32(1, d.num_values);
    w.field_i32(2, d.num_nulls);
    w.field_i32(3, d.num_rows);
    w.field_i32(4, static_cast<int32_t>(d.encoding));
    w.field_i32(5, d.definition_levels_byte_length);
    w.field_i32(6, d.repetition_levels_byte_length);
    w.field_bool(7, d.is_compressed);
    if (d.statistics) {
      w.field_struct(8);
      encode_statistics(*d.statistics, w);
    }
    w.end_struct();
  }
  w.end_struct();
}

}  // namespace frazil::io::parquet
