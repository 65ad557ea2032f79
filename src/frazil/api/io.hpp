// Reading and writing files: lazy scans (scan_*) whose projection, predicate and row
// limit are pushed into the readers, and eager read_*/write_* built on them.
#pragma once

#include <string>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/io/csv/csv_options.hpp"
#include "frazil/io/parquet/dataset.hpp"
#include "frazil/io/parquet/writer.hpp"

namespace frazil {

LazyFrame scan_csv(const std::string& path, io::CsvReadOptions options = {});
DataFrame read_csv(const std::string& path, io::CsvReadOptions options = {});
void write_csv(const DataFrame& df, const std::string& path, const io::CsvWriteOptions& options = {});
std::string write_csv_string(const DataFrame& df, const io::CsvWriteOptions& options = {});

LazyFrame scan_parquet(const std::string& path, io::parquet::ParquetReadOptions options = {});
DataFrame read_parquet(const std::string& path, io::parquet::ParquetReadOptions options = {});
void write_parquet(const DataFrame& df, const std::string& path, const io::parquet::ParquetWriteOptions& options = {});

}  // namespace frazil
