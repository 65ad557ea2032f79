// The CSV writer: formats rows in parallel blocks and writes them in order, in Polars'
// text forms (floats 1.0 / 1e+20, dates 2024-01-31, datetimes 2024-01-31T12:00:00.000000).
#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "frazil/core/frame.hpp"
#include "frazil/io/csv/csv_options.hpp"
#include "frazil/io/fs/output_file.hpp"

namespace frazil::io {

// Streaming writer (what sink_csv uses): the header goes out with the first batch, or at
// finish() when no batch came.
class CsvWriter {
 public:
  CsvWriter(std::ostream& out, Schema schema, CsvWriteOptions options = {});
  CsvWriter(OutputStream& out, Schema schema, CsvWriteOptions options = {});
  // Writes `path` through an OutputFile: the target is replaced at finish(), and left as it
  // was when the writer is aborted or destroyed first. Throws OsError naming the path.
  CsvWriter(const std::string& path, Schema schema, CsvWriteOptions options = {});
  ~CsvWriter();

  // Throws SchemaError when the batch's columns differ from the schema's.
  void write_batch(const DataFrame& batch);
  // Writes the header if nothing was written yet and flushes (and renames the file into
  // place); throws IOError on failure.
  void finish();
  // Drops a file being written (the target keeps its old content).
  void abort() noexcept;

 private:
  void write_header();
  void write(const std::string& text);

  std::unique_ptr<OutputFile> file_;
  std::unique_ptr<OutputStream> adapter_;  // over a std::ostream
  OutputStream* out_;
  Schema schema_;
  CsvWriteOptions options_;
  bool started_ = false;
};

void write_csv(const DataFrame& df, std::ostream& out, const CsvWriteOptions& options = {});
void write_csv(const DataFrame& df, const std::string& path, const CsvWriteOptions& options = {});
std::string write_csv_string(const DataFrame& df, const CsvWriteOptions& options = {});

// One float as the writer prints it (exposed for tests and for other text writers).
std::string format_csv_float(double value, bool is_float32, const CsvWriteOptions& options = {});

}  // namespace frazil::io
