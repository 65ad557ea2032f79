#include "frazil/api/io.hpp"

#include <sstream>

#include "frazil/io/csv/csv_reader.hpp"
#include "frazil/io/csv/csv_writer.hpp"
#include "frazil/io/parquet/parquet.hpp"

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
  s << ';' << o.skip_rows << ';' << o.skip_rows_after_header << ';';
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
  if (o.row_group_predicate) return "";
  std::ostringstream s;
  s << "parquet;";
  if (o.columns)
    for (const auto& c : *o.columns) s << c.size() << ':' << c;
  s << (o.columns ? ";" : "-;");
  if (o.n_rows) s << *o.n_rows;
  s << ';' << o.parallel << ';' << (o.hive_partitioning ? int(*o.hive_partitioning) : 2) << ';'
    << o.limits.max_rows_per_row_group << ';' << o.limits.max_values_per_column_chunk;
  return s.str();
}

}  // namespace

LazyFrame scan_csv(const std::string& path, io::CsvReadOptions options) {
  dsl::ScanSource source;
  source.format = dsl::ScanFormat::Csv;
  source.paths = {path};
  source.file_schema = std::make_shared<const Schema>(io::read_csv_schema(path, options));
  source.options_key = csv_options_key(options);
  source.options = std::make_shared<const io::CsvReadOptions>(std::move(options));
  return LazyFrame::from_scan(std::move(source));
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

LazyFrame scan_parquet(const std::string& path, io::parquet::ParquetReadOptions options) {
  dsl::ScanSource source;
  source.format = dsl::ScanFormat::Parquet;
  source.paths = {path};
  source.file_schema = std::make_shared<const Schema>(io::parquet::read_parquet_schema(path, options));
  source.options_key = parquet_options_key(options);
  source.options = std::make_shared<const io::parquet::ParquetReadOptions>(std::move(options));
  return LazyFrame::from_scan(std::move(source));
}

DataFrame read_parquet(const std::string& path, io::parquet::ParquetReadOptions options) {
  return scan_parquet(path, std::move(options)).collect();
}

void write_parquet(const DataFrame& df, const std::string& path, const io::parquet::ParquetWriteOptions& options) {
  io::parquet::write_parquet(df, path, options);
}

}  // namespace frazil
