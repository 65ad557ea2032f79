// The CSV reader: a batched reader that yields morsels in file order (what scan_csv's
// source uses), and read_csv built on it.
//
// A file is memory-mapped; its body is cut into chunks at row boundaries (guessed from
// the parity of quote chars, then checked) that are parsed in parallel on the process
// thread pool straight into typed builders. Projection, the pushed-down predicate,
// n_rows and the row index are applied chunk by chunk. Quote chars inside unquoted fields
// or comment lines make the guesses wrong; the checks then parse the rest of that window
// sequentially (correct, slower).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frazil/core/frame.hpp"
#include "frazil/io/csv/csv_options.hpp"

namespace frazil::io {

class CsvReader {
 public:
  // `path` may be a glob pattern (*, ?, [...]): the matching files are read in sorted
  // order, as one table. Opens the first file and resolves the schema (throws on errors).
  explicit CsvReader(const std::string& path, CsvReadOptions options = {});
  CsvReader(std::vector<std::string> paths, CsvReadOptions options = {});
  // Reads CSV text held in memory (`name` appears in error messages).
  static CsvReader from_bytes(std::string data, CsvReadOptions options = {},
                              std::string name = "in-memory CSV");
  ~CsvReader();
  CsvReader(CsvReader&&) noexcept;
  CsvReader& operator=(CsvReader&&) noexcept;

  // The schema of every batch: the row index (if any) first, then the projected columns.
  const Schema& schema() const;
  // All columns of the file (final names, resolved dtypes), before projection.
  const Schema& file_schema() const;

  // The next batch of about batch_rows rows (fewer after the predicate; never empty), or
  // nullopt when the input is exhausted or n_rows is reached.
  std::optional<DataFrame> next_batch();
  // The remaining batches as one frame (the schema's empty frame when there are none).
  DataFrame read_all();

 private:
  struct Impl;
  explicit CsvReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Polars' name for the batched reader.
using CsvBatchedReader = CsvReader;

DataFrame read_csv(const std::string& path, const CsvReadOptions& options = {});
DataFrame read_csv(const std::vector<std::string>& paths, const CsvReadOptions& options = {});
DataFrame read_csv_bytes(std::string data, const CsvReadOptions& options = {});

// The file schema a scan of `path` will produce, read from the header and the inference
// sample of the first file only (what LazyFrame::collect_schema needs).
Schema read_csv_schema(const std::string& path, const CsvReadOptions& options = {});

}  // namespace frazil::io
