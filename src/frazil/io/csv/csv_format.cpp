#include "frazil/io/csv/csv_format.hpp"

#include <algorithm>

#include "frazil/core/error.hpp"
#include "frazil/core/supertype.hpp"
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
  if (auto it = own_.find(in.path); it != own_.end()) return it->second;
  CsvReadOptions o = options_;
  if (dtypes_ && !o.schema) o.schema_overrides = dtypes_->fields();
  Schema s = open_reader(in, o).file_schema();
  if (!dtypes_) dtypes_ = s;  // the first source read gives the others their dtypes
  own_[in.path] = s;
  return s;
}

Schema CsvFormat::scan_schema(const std::vector<ScanInput>& inputs, bool union_columns, std::string* error) {
  Schema merged = schema(inputs[0]);
  const size_t files = static_cast<size_t>(std::max<int64_t>(1, options_.infer_schema_files));
  if (options_.schema || inputs.size() < 2 || files < 2) return merged;
  std::vector<Field> fields = merged.fields();
  for (size_t i = 1; i < std::min(files, inputs.size()); ++i) {
    const Schema s = open_reader(inputs[i], options_).file_schema();  // its own inference
    if (!union_columns) {
      // Polars' words; the scan keeps the first source's columns and raises when read.
      if (s.size() != fields.size()) {
        *error = "schema lengths differ";
        return merged;
      }
      for (size_t k = 0; k < fields.size(); ++k)
        if (s.field(k).name != fields[k].name) {
          *error = err_msg("schema names differ: got ", fields[k].name, ", expected ", s.field(k).name);
          return merged;
        }
    }
    for (const Field& f : s.fields()) {
      auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& g) { return g.name == f.name; });
      if (it == fields.end()) {
        fields.push_back(f);
      } else if (it->dtype != f.dtype) {
        std::optional<DataType> super = get_supertype(it->dtype, f.dtype);
        it->dtype = super ? *super : DataType::string();
      }
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  dtypes_ = Schema(fields);
  own_.clear();  // parsed again with the merged dtypes
  return *dtypes_;
}

DataFrame CsvFormat::read(const ScanInput& in, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                          const ReadHints& hints) {
  CsvReadOptions o = options_;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (dtypes_ && !o.schema) o.schema_overrides = dtypes_->fields();
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
