// NDJSON as a FileScan format: the first source's schema (inferred, or the user's) is the
// schema every source is read with. gzip and zstd sources are decompressed first.
#pragma once

#include <mutex>
#include <optional>

#include "frazil/io/dataset/file_scan.hpp"
#include "frazil/io/json/json_options.hpp"

namespace frazil::io {

class NdjsonFormat final : public FormatReader {
 public:
  explicit NdjsonFormat(JsonReadOptions options) : options_(std::move(options)) {}
  const char* format_name() const override { return "ndjson"; }
  Schema schema(const ScanInput& input) override;
  DataFrame read(const ScanInput& input, const std::vector<std::string>& columns, std::optional<int64_t> n_rows,
                 const ReadHints& hints) override;
  const JsonReadOptions& options() const { return options_; }  // (a serialized scan carries them)

 private:
  JsonReadOptions options_;
  std::mutex mu_;
  std::optional<Schema> first_schema_;
};

}  // namespace frazil::io
