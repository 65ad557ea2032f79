#include "frazil/api/io.hpp"

#include <sstream>

#include "frazil/io/csv/csv_format.hpp"
#include "frazil/io/csv/csv_reader.hpp"
#include "frazil/io/csv/csv_writer.hpp"
#include "frazil/io/ipc/ipc_format.hpp"
#include "frazil/io/json/ndjson_format.hpp"
#include "frazil/io/parquet/parquet.hpp"
#include "frazil/io/parquet/parquet_format.hpp"

namespace frazil {

namespace {

// The reader options as text, field by field ("" when a callable makes them incomparable).
// A field added to the options must be added here, or two scans differing only in it would
// be taken for the same source.
std::string csv_options_key(const io::CsvReadOptions& o) {
  if (o.predicate) return "";
  std::ostringstream s;
  auto opt = [&s](const auto& v) -> std::ostringstream& {
    if (v) s << "1:" << *v << ';';
    else s << "0;";
    return s;
  };
  s << "csv;" << int(o.separator) << ';' << o.has_header << ';';
  for (const auto& n : o.new_columns) s << n.size() << ':' << n;
  s << ';' << (o.schema ? o.schema->to_string() : "-") << ';';
  for (const auto& f : o.schema_overrides) s << f.name.size() << ':' << f.name << '=' << f.dtype << ',';
  opt(o.infer_schema_length) << o.try_parse_dates << ';';
  for (const auto& v : o.null_values.all) s << v.size() << ':' << v;
  s << ';';
  for (const auto& [c, v] : o.null_values.per_column) s << c.size() << ':' << c << v.size() << ':' << v;
  s << ';';
  if (o.quote_char) s << int(*o.quote_char);
  s << ';' << o.skip_rows << ';' << o.skip_lines << ';' << o.skip_rows_after_header << ';';
  opt(o.n_rows);
  opt(o.comment_prefix) << o.missing_utf8_is_empty_string << ';';
  opt(o.row_index_name) << o.row_index_offset << ';' << o.truncate_ragged_lines << o.decimal_comma
                        << o.ignore_errors << int(o.encoding) << int(o.eol_char) << ';';
  if (o.columns)
    for (const auto& c : *o.columns) s << c.size() << ':' << c;
  s << (o.columns ? ";" : "-;");
  if (o.projection)
    for (size_t i : *o.projection) s << i << ',';
  s << (o.projection ? ";" : "-;") << o.raise_if_empty << ';' << o.batch_rows << ';' << o.chunk_size_bytes << ';'
    << o.rechunk;
  return s.str();
}

std::string parquet_options_key(const io::parquet::ParquetReadOptions& o) {
  std::ostringstream s;
  s << "parquet;" << o.parallel << ';' << o.limits.max_rows_per_row_group << ';' << o.limits.max_values_per_column_chunk;
  for (const auto& [path, groups] : o.row_groups) {
    s << ';' << path.size() << ':' << path << '=';
    for (int64_t g : groups) s << g << ',';
  }
  return s.str();
}

// The scan options every format has, as text.
std::string args_key(const io::FileScanArgs& a) {
  std::ostringstream s;
  for (const auto& p : a.paths) s << p.size() << ':' << p;
  s << ';';
  // In-memory sources are the same source only when they are the same bytes.
  for (const auto& b : a.buffers) s << reinterpret_cast<uintptr_t>(b.data()) << '+' << b.size() << ',';
  auto opt = [&s](const auto& v) {
    if (v) s << "1:" << *v << ';';
    else s << "0;";
  };
  s << ';' << a.glob << ';';
  for (const auto& h : a.hidden_file_prefixes) s << h.size() << ':' << h;
  s << ';' << (a.hive_partitioning ? int(*a.hive_partitioning) : 2) << ';'
    << (a.hive_schema ? a.hive_schema->to_string() : "-") << ';' << a.try_parse_hive_dates << ';';
  opt(a.include_file_paths);
  opt(a.row_index_name);
  s << a.row_index_offset << ';';
  opt(a.n_rows);
  s << (a.schema ? a.schema->to_string() : "-") << ';' << int(a.missing_columns) << int(a.extra_columns) << ';';
  const io::CastPolicy& c = a.cast;
  s << c.integer_upcast << c.integer_to_float << c.float_upcast << c.float_downcast << c.datetime_nanoseconds_downcast
    << c.datetime_microseconds_downcast << c.datetime_microseconds_upcast << c.datetime_milliseconds_upcast
    << c.datetime_convert_timezone << c.null_upcast << int(c.missing_struct_fields) << int(c.extra_struct_fields);
  return s.str();
}

}  // namespace

LazyFrame scan_files(dsl::ScanFormat format, io::FileScanArgs args, std::shared_ptr<io::FormatReader> reader,
                     const std::string& format_key) {
  const std::string key = format_key.empty() ? "" : format_key + "|" + args_key(args);
  auto scan = std::make_shared<const io::FileScan>(std::move(args), std::move(reader));
  dsl::ScanSource source;
  source.format = format;
  for (const auto& in : scan->inputs()) source.paths.push_back(in.path);
  source.file_schema = std::make_shared<const Schema>(scan->schema());
  source.options_key = key;
  source.options = scan;
  return LazyFrame::from_scan(std::move(source));
}

LazyFrame scan_csv(io::FileScanArgs args, io::CsvReadOptions options) {
  if (options.n_rows) args.n_rows = args.n_rows ? std::min(*args.n_rows, *options.n_rows) : *options.n_rows;
  if (options.row_index_name) {
    args.row_index_name = options.row_index_name;
    args.row_index_offset = options.row_index_offset;
  }
  options.n_rows.reset();
  options.row_index_name.reset();
  options.row_index_offset = 0;
  if (options.schema && !args.schema) args.schema = options.schema;
  const std::string key = csv_options_key(options);
  return scan_files(dsl::ScanFormat::Csv, std::move(args), std::make_shared<io::CsvFormat>(std::move(options)), key);
}

LazyFrame scan_csv(const std::string& path, io::CsvReadOptions options) {
  io::FileScanArgs args;
  args.paths = {path};
  return scan_csv(std::move(args), std::move(options));
}

DataFrame read_csv(const std::string& path, io::CsvReadOptions options) {
  return scan_csv(path, std::move(options)).collect();
}

void write_csv(const DataFrame& df, const std::string& path, const io::CsvWriteOptions& options) {
  io::write_csv(df, path, options);
}

std::string write_csv_string(const DataFrame& df, const io::CsvWriteOptions& options) {
  return io::write_csv_string(df, options);
}

LazyFrame scan_parquet(io::FileScanArgs args, const io::parquet::ParquetReadOptions& options) {
  return scan_files(dsl::ScanFormat::Parquet, std::move(args),
                    std::make_shared<io::parquet::ParquetFormat>(options.limits, options.parallel, options.row_groups),
                    parquet_options_key(options));
}

LazyFrame scan_parquet(const std::string& path, io::parquet::ParquetReadOptions options) {
  io::FileScanArgs args;
  args.paths = {path};
  args.n_rows = options.n_rows;
  args.hive_partitioning = options.hive_partitioning;
  LazyFrame lf = scan_parquet(std::move(args), options);
  if (options.columns) {
    std::vector<dsl::Expr> cols;
    for (const auto& c : *options.columns) cols.push_back(dsl::col(c));
    lf = lf.select(cols);
  }
  return lf;
}

DataFrame read_parquet(const std::string& path, io::parquet::ParquetReadOptions options) {
  return scan_parquet(path, std::move(options)).collect();
}

void write_parquet(const DataFrame& df, const std::string& path, const io::parquet::ParquetWriteOptions& options) {
  io::parquet::write_parquet(df, path, options);
}

LazyFrame scan_ipc(io::FileScanArgs args, bool memory_map) {
  return scan_files(dsl::ScanFormat::Ipc, std::move(args), std::make_shared<io::ipc::IpcFormat>(memory_map),
                    memory_map ? "ipc;mmap" : "ipc;read");
}

LazyFrame scan_ndjson(io::FileScanArgs args, io::JsonReadOptions options) {
  if (options.n_rows) args.n_rows = args.n_rows ? std::min(*args.n_rows, *options.n_rows) : *options.n_rows;
  options.n_rows.reset();
  if (options.schema && !args.schema) args.schema = options.schema;
  std::ostringstream key;
  key << "ndjson;" << (options.schema ? options.schema->to_string() : "-") << ';';
  for (const auto& f : options.schema_overrides) key << f.name.size() << ':' << f.name << '=' << f.dtype << ',';
  key << ';' << (options.infer_schema_length ? *options.infer_schema_length : -1) << ';' << options.ignore_errors;
  return scan_files(dsl::ScanFormat::Ndjson, std::move(args), std::make_shared<io::NdjsonFormat>(std::move(options)),
                    key.str());
}

void sink_file(const LazyFrame& lf, const std::string& path, const io::SinkOptions& options, const OptFlags& flags) {
  const Schema schema = lf.collect_schema();
  std::unique_ptr<io::FileSink> sink = io::make_file_sink(path, schema, options);
  try {
    lf.collect_into([&](const DataFrame& batch) { sink->write(batch); }, flags);
    sink->finish();
  } catch (...) {
    sink->abort();
    throw;
  }
}

LazyFrame scan_ipc(const std::string& path, bool memory_map) {
  io::FileScanArgs args;
  args.paths = {path};
  return scan_ipc(std::move(args), memory_map);
}

DataFrame read_ipc(const std::string& path, bool memory_map) { return scan_ipc(path, memory_map).collect(); }

void write_ipc(const DataFrame& df, const std::string& path, const io::ipc::IpcWriteOptions& options) {
  io::ipc::write_ipc(df, path, options);
}

}  // namespace frazil
