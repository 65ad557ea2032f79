#include "frazil/api/io.hpp"

#include "frazil/io/csv/csv_reader.hpp"
#include "frazil/io/csv/csv_writer.hpp"
#include "frazil/io/parquet/parquet.hpp"

namespace frazil {

LazyFrame scan_csv(const std::string& path, io::CsvReadOptions options) {
  dsl::ScanSource source;
  source.format = dsl::ScanFormat::Csv;
  source.paths = {path};
  source.file_schema = std::make_shared<const Schema>(io::read_csv_schema(path, options));
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
