// Reading and writing files: lazy scans (scan_*) whose projection, predicate and row
// limit are pushed into the readers, and eager read_*/write_* built on them.
#pragma once

#include <string>

#include "frazil/api/lazy_frame.hpp"
#include "frazil/io/csv/csv_options.hpp"
#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/io/ipc/ipc_writer.hpp"
#include "frazil/io/json/json_options.hpp"
#include "frazil/io/parquet/dataset.hpp"
#include "frazil/io/parquet/writer.hpp"
#include "frazil/io/sink/file_sink.hpp"

namespace frazil {

// sink_*: streams the query's output into `path` in the format the options name, in
// bounded memory where the plan streams; the target is replaced only once complete.
void sink_file(const LazyFrame& lf, const std::string& path, const io::SinkOptions& options,
               const OptFlags& flags = OptFlags());

// A scan of any FileScan format: the sources and the options every scan has in `args`,
// the format's own options in `reader`; `format_key` says those options as text (two
// scans of the same sources with the same key are the same scan, for common subplans).
LazyFrame scan_files(dsl::ScanFormat format, io::FileScanArgs args, std::shared_ptr<io::FormatReader> reader,
                     const std::string& format_key);

// The sources and scan options of `args`; the CSV options' own n_rows and row index are
// moved into them.
LazyFrame scan_csv(io::FileScanArgs args, io::CsvReadOptions options);
LazyFrame scan_parquet(io::FileScanArgs args, const io::parquet::ParquetReadOptions& options = {});
LazyFrame scan_ipc(io::FileScanArgs args, bool memory_map = true);
// NDJSON: the options' own n_rows moves into `args`.
LazyFrame scan_ndjson(io::FileScanArgs args, io::JsonReadOptions options = {});

LazyFrame scan_csv(const std::string& path, io::CsvReadOptions options = {});
DataFrame read_csv(const std::string& path, io::CsvReadOptions options = {});
void write_csv(const DataFrame& df, const std::string& path, const io::CsvWriteOptions& options = {});
std::string write_csv_string(const DataFrame& df, const io::CsvWriteOptions& options = {});

LazyFrame scan_parquet(const std::string& path, io::parquet::ParquetReadOptions options = {});
DataFrame read_parquet(const std::string& path, io::parquet::ParquetReadOptions options = {});
void write_parquet(const DataFrame& df, const std::string& path, const io::parquet::ParquetWriteOptions& options = {});

LazyFrame scan_ipc(const std::string& path, bool memory_map = true);
DataFrame read_ipc(const std::string& path, bool memory_map = true);
void write_ipc(const DataFrame& df, const std::string& path, const io::ipc::IpcWriteOptions& options = {});

}  // namespace frazil
