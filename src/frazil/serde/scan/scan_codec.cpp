#include "frazil/serde/scan/scan_codec.hpp"

#include <cstring>

#include "frazil/api/io.hpp"
#include "frazil/core/error.hpp"
#include "frazil/io/csv/csv_format.hpp"
#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/io/ipc/ipc_format.hpp"
#include "frazil/io/json/ndjson_format.hpp"
#include "frazil/io/parquet/parquet_format.hpp"
#include "frazil/serde/value_codec.hpp"

namespace frazil::serde {

namespace {

void opt_str(ByteWriter& w, const std::optional<std::string>& v) {
  w.boolean(v.has_value());
  if (v) w.str(*v);
}
std::optional<std::string> opt_str(ByteReader& r) {
  if (!r.boolean()) return std::nullopt;
  return r.str();
}
void opt_i64(ByteWriter& w, const std::optional<int64_t>& v) {
  w.boolean(v.has_value());
  if (v) w.i64(*v);
}
std::optional<int64_t> opt_i64(ByteReader& r) {
  if (!r.boolean()) return std::nullopt;
  return r.i64();
}
void opt_schema(ByteWriter& w, const std::optional<Schema>& v) {
  w.boolean(v.has_value());
  if (v) write_schema(w, *v);
}
std::optional<Schema> opt_schema(ByteReader& r) {
  if (!r.boolean()) return std::nullopt;
  return read_schema(r);
}
void opt_strs(ByteWriter& w, const std::optional<std::vector<std::string>>& v) {
  w.boolean(v.has_value());
  if (v) w.strs(*v);
}
std::optional<std::vector<std::string>> opt_strs(ByteReader& r) {
  if (!r.boolean()) return std::nullopt;
  return r.strs();
}

void write_args(ByteWriter& w, const io::FileScanArgs& a) {
  w.strs(a.paths);
  w.varint(a.buffers.size());
  for (const Buffer& b : a.buffers) w.str(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()));
  w.boolean(a.glob);
  w.strs(a.hidden_file_prefixes);
  w.u8(a.hive_partitioning ? uint8_t(*a.hive_partitioning) : 2);
  opt_schema(w, a.hive_schema);
  w.boolean(a.try_parse_hive_dates);
  opt_str(w, a.include_file_paths);
  opt_str(w, a.row_index_name);
  w.i64(a.row_index_offset);
  opt_i64(w, a.n_rows);
  opt_schema(w, a.schema);
  w.u8(static_cast<uint8_t>(a.missing_columns));
  w.u8(static_cast<uint8_t>(a.extra_columns));
  const io::CastPolicy& c = a.cast;
  for (bool b : {c.integer_upcast, c.integer_to_float, c.float_upcast, c.float_downcast,
                 c.datetime_nanoseconds_downcast, c.datetime_microseconds_downcast, c.datetime_microseconds_upcast,
                 c.datetime_milliseconds_upcast, c.datetime_convert_timezone, c.null_upcast}) {
    w.boolean(b);
  }
  w.u8(static_cast<uint8_t>(c.missing_struct_fields));
  w.u8(static_cast<uint8_t>(c.extra_struct_fields));
}

io::FileScanArgs read_args(ByteReader& r) {
  io::FileScanArgs a;
  a.paths = r.strs();
  const size_t buffers = r.count(1);
  for (size_t i = 0; i < buffers; ++i) {
    const std::string bytes = r.str();
    Buffer b = Buffer::allocate(bytes.size());
    if (!bytes.empty()) std::memcpy(b.mutable_data(), bytes.data(), bytes.size());
    a.buffers.push_back(std::move(b));
  }
  a.glob = r.boolean();
  a.hidden_file_prefixes = r.strs();
  const uint8_t hive = r.enum_u8(3, "hive setting");
  if (hive < 2) a.hive_partitioning = hive == 1;
  a.hive_schema = opt_schema(r);
  a.try_parse_hive_dates = r.boolean();
  a.include_file_paths = opt_str(r);
  a.row_index_name = opt_str(r);
  a.row_index_offset = r.i64();
  a.n_rows = opt_i64(r);
  a.schema = opt_schema(r);
  a.missing_columns = static_cast<io::MissingColumns>(r.enum_u8(2, "missing-columns policy"));
  a.extra_columns = static_cast<io::ExtraColumns>(r.enum_u8(2, "extra-columns policy"));
  io::CastPolicy& c = a.cast;
  for (bool* b : {&c.integer_upcast, &c.integer_to_float, &c.float_upcast, &c.float_downcast,
                  &c.datetime_nanoseconds_downcast, &c.datetime_microseconds_downcast, &c.datetime_microseconds_upcast,
                  &c.datetime_milliseconds_upcast, &c.datetime_convert_timezone, &c.null_upcast}) {
    *b = r.boolean();
  }
  c.missing_struct_fields = static_cast<io::MissingColumns>(r.enum_u8(2, "missing-fields policy"));
  c.extra_struct_fields = static_cast<io::ExtraColumns>(r.enum_u8(2, "extra-fields policy"));
  return a;
}

void write_csv_options(ByteWriter& w, const io::CsvReadOptions& o) {
  if (o.predicate) throw ComputeError("cannot serialize a CSV scan holding a native predicate");
  w.u8(static_cast<uint8_t>(o.separator));
  w.boolean(o.has_header);
  w.strs(o.new_columns);
  opt_schema(w, o.schema);
  write_fields(w, o.schema_overrides);
  opt_i64(w, o.infer_schema_length);
  w.boolean(o.try_parse_dates);
  w.strs(o.null_values.all);
  w.varint(o.null_values.per_column.size());
  for (const auto& [c, v] : o.null_values.per_column) {
    w.str(c);
    w.str(v);
  }
  w.boolean(o.quote_char.has_value());
  if (o.quote_char) w.u8(static_cast<uint8_t>(*o.quote_char));
  w.i64(o.skip_rows);
  w.i64(o.skip_lines);
  w.i64(o.skip_rows_after_header);
  opt_i64(w, o.n_rows);
  opt_str(w, o.comment_prefix);
  w.boolean(o.missing_utf8_is_empty_string);
  opt_str(w, o.row_index_name);
  w.i64(o.row_index_offset);
  w.boolean(o.truncate_ragged_lines);
  w.boolean(o.decimal_comma);
  w.boolean(o.ignore_errors);
  w.u8(static_cast<uint8_t>(o.encoding));
  w.u8(static_cast<uint8_t>(o.eol_char));
  opt_strs(w, o.columns);
  w.boolean(o.projection.has_value());
  if (o.projection) {
    w.varint(o.projection->size());
    for (size_t i : *o.projection) w.varint(i);
  }
  w.boolean(o.raise_if_empty);
  w.i64(o.batch_rows);
  w.i64(o.chunk_size_bytes);
  w.boolean(o.rechunk);
}

io::CsvReadOptions read_csv_options(ByteReader& r) {
  io::CsvReadOptions o;
  o.separator = static_cast<char>(r.u8());
  o.has_header = r.boolean();
  o.new_columns = r.strs();
  o.schema = opt_schema(r);
  o.schema_overrides = read_fields(r);
  o.infer_schema_length = opt_i64(r);
  o.try_parse_dates = r.boolean();
  o.null_values.all = r.strs();
  const size_t per_column = r.count(2);
  for (size_t i = 0; i < per_column; ++i) {
    std::string c = r.str();
    o.null_values.per_column.emplace_back(std::move(c), r.str());
  }
  o.quote_char.reset();
  if (r.boolean()) o.quote_char = static_cast<char>(r.u8());
  o.skip_rows = r.i64();
  o.skip_lines = r.i64();
  o.skip_rows_after_header = r.i64();
  o.n_rows = opt_i64(r);
  o.comment_prefix = opt_str(r);
  o.missing_utf8_is_empty_string = r.boolean();
  o.row_index_name = opt_str(r);
  o.row_index_offset = r.i64();
  o.truncate_ragged_lines = r.boolean();
  o.decimal_comma = r.boolean();
  o.ignore_errors = r.boolean();
  o.encoding = static_cast<io::CsvEncoding>(r.enum_u8(2, "CSV encoding"));
  o.eol_char = static_cast<char>(r.u8());
  o.columns = opt_strs(r);
  if (r.boolean()) {
    std::vector<size_t> p(r.count(1));
    for (auto& i : p) i = r.varint();
    o.projection = std::move(p);
  }
  o.raise_if_empty = r.boolean();
  o.batch_rows = r.i64();
  o.chunk_size_bytes = r.i64();
  o.rechunk = r.boolean();
  if (o.batch_rows <= 0 || o.chunk_size_bytes < 0) r.fail("invalid CSV batch sizes");
  return o;
}

void write_json_options(ByteWriter& w, const io::JsonReadOptions& o) {
  opt_schema(w, o.schema);
  write_fields(w, o.schema_overrides);
  opt_i64(w, o.infer_schema_length);
  w.boolean(o.ignore_errors);
  opt_strs(w, o.columns);
  opt_i64(w, o.n_rows);
  w.i64(o.chunk_size_bytes);
}

io::JsonReadOptions read_json_options(ByteReader& r) {
  io::JsonReadOptions o;
  o.schema = opt_schema(r);
  o.schema_overrides = read_fields(r);
  o.infer_schema_length = opt_i64(r);
  o.ignore_errors = r.boolean();
  o.columns = opt_strs(r);
  o.n_rows = opt_i64(r);
  o.chunk_size_bytes = r.i64();
  if (o.chunk_size_bytes < 0) r.fail("invalid NDJSON chunk size");
  return o;
}

}  // namespace

void write_scan_source(ByteWriter& w, const dsl::ScanSource& source) {
  const auto* scan = static_cast<const io::FileScan*>(source.options.get());
  if (!scan) throw ComputeError("cannot serialize a scan without its options");
  w.u8(static_cast<uint8_t>(source.format));
  write_args(w, scan->args());
  io::FormatReader& reader = scan->reader();
  switch (source.format) {
    case dsl::ScanFormat::Csv: write_csv_options(w, dynamic_cast<io::CsvFormat&>(reader).options()); break;
    case dsl::ScanFormat::Parquet: {
      auto& p = dynamic_cast<io::parquet::ParquetFormat&>(reader);
      w.i64(p.limits().max_rows_per_row_group);
      w.i64(p.limits().max_values_per_column_chunk);
      w.boolean(p.parallel());
      w.varint(p.row_groups().size());
      for (const auto& [path, groups] : p.row_groups()) {
        w.str(path);
        w.varint(groups.size());
        for (int64_t g : groups) w.i64(g);
      }
      break;
    }
    case dsl::ScanFormat::Ipc: w.boolean(dynamic_cast<io::ipc::IpcFormat&>(reader).memory_map()); break;
    case dsl::ScanFormat::Ndjson: write_json_options(w, dynamic_cast<io::NdjsonFormat&>(reader).options()); break;
  }
}

dsl::ScanSource read_scan_source(ByteReader& r) {
  const auto format = static_cast<dsl::ScanFormat>(r.enum_u8(4, "scan format"));
  io::FileScanArgs args = read_args(r);
  LazyFrame lf = [&] {
    switch (format) {
      case dsl::ScanFormat::Csv: {
        io::CsvReadOptions o = read_csv_options(r);
        return scan_csv(std::move(args), std::move(o));
      }
      case dsl::ScanFormat::Parquet: {
        io::parquet::ParquetReadOptions o;
        o.limits.max_rows_per_row_group = r.i64();
        o.limits.max_values_per_column_chunk = r.i64();
        o.parallel = r.boolean();
        const size_t files = r.count(2);
        for (size_t i = 0; i < files; ++i) {
          std::string path = r.str();
          std::vector<int64_t> groups(r.count(1));
          for (int64_t& g : groups) g = r.i64();
          o.row_groups.emplace(std::move(path), std::move(groups));
        }
        if (o.limits.max_rows_per_row_group <= 0 || o.limits.max_values_per_column_chunk <= 0) {
          r.fail("invalid Parquet reader limits");
        }
        return scan_parquet(std::move(args), o);
      }
      case dsl::ScanFormat::Ipc: {
        const bool memory_map = r.boolean();
        return scan_ipc(std::move(args), memory_map);
      }
      case dsl::ScanFormat::Ndjson: break;
    }
    io::JsonReadOptions o = read_json_options(r);
    return scan_ndjson(std::move(args), std::move(o));
  }();
  return lf.plan()->as<dsl::DslScan>().source;
}

}  // namespace frazil::serde
