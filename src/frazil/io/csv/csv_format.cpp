#include "frazil/io/csv/csv_format.hpp"

#include "frazil/core/error.hpp"
#include "frazil/io/csv/csv_reader.hpp"
#include "frazil/io/fs/compressed.hpp"
#include "frazil/io/fs/input_file.hpp"

namespace frazil::io {

namespace {

// The reader of one source: a file (memory-mapped by the CSV reader), or bytes (in memory,
// or a decompressed file).
CsvReader open_reader(const ScanInput& in, const CsvReadOptions& o) {
  if (in.in_memory) {
    const auto kind = detect_compression(in.bytes.data(), in.bytes.size());
    return CsvReader::from_bytes(decompress(kind, in.bytes.data(), in.bytes.size(), in.path), o, in.path);
  }
  auto file = InputFile::open(in.path, true);
  Buffer head = file->read(0, std::min<int64_t>(4, file->size()));
  const auto kind = detect_compression(head.data(), head.size());
  if (kind == TextCompression::None) return CsvReader(in.path, o);
  Buffer all = file->read_all();
  return CsvReader::from_bytes(decompress(kind, all.data(), all.size(), in.path), o, in.path);
}

}  // namespace

Schema CsvFormat::schema(const ScanInput& in) {
  std::lock_guard<std::mutex> lock(mu_);
  if (first_ && *first_ == in.path) return *first_schema_;
  CsvReadOptions o = options_;
  if (first_schema_ && !o.schema) o.schema_overrides = first_schema_->fields();
  Schema s = open_reader(in, o).file_schema();
  if (!first_) {
    first_ = in.path;
    first_schema_ = s;
  }
  return s;
}

DataFrame CsvFormat::read(const ScanInput& in, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                          const ReadHints& hints) {
  CsvReadOptions o = options_;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Later sources are parsed with the first one's dtypes (by final column name).
    if (first_schema_ && !o.schema && !(first_ && *first_ == in.path)) o.schema_overrides = first_schema_->fields();
  }
  o.n_rows = n_rows;
  // With no column wanted, the first one is read for the height.
  std::vector<std::string> wanted = columns;
  const bool height_only = wanted.empty();
  if (height_only) {
    Schema s = schema(in);
    if (s.empty()) return DataFrame::empty_with_height(0);
    wanted = {s.field(0).name};
  }
  o.columns = wanted;
  o.predicate = hints.row_filter;
  DataFrame df = open_reader(in, o).read_all();
  if (height_only) return DataFrame::empty_with_height(df.height());
  return df;
}

}  // namespace frazil::io
