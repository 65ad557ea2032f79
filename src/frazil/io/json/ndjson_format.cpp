#include "frazil/io/json/ndjson_format.hpp"

#include "frazil/io/fs/compressed.hpp"
#include "frazil/io/fs/input_file.hpp"
#include "frazil/io/json/json_reader.hpp"

namespace frazil::io {

namespace {

// The text of a source (decompressed when it is gzip or zstd), kept alive by `hold`.
std::pair<const char*, size_t> text_of(const ScanInput& in, Buffer& hold, std::string& inflated) {
  hold = in.in_memory ? in.bytes : InputFile::open(in.path, true)->read_all();
  const auto kind = detect_compression(hold.data(), hold.size());
  if (kind == TextCompression::None) return {reinterpret_cast<const char*>(hold.data()), hold.size()};
  inflated = decompress(kind, hold.data(), hold.size(), in.path);
  return {inflated.data(), inflated.size()};
}

}  // namespace

Schema NdjsonFormat::schema(const ScanInput& in) {
  std::lock_guard<std::mutex> lock(mu_);
  if (first_schema_) return *first_schema_;
  Buffer hold;
  std::string inflated;
  auto [data, size] = text_of(in, hold, inflated);
  first_schema_ = ndjson_schema(data, size, options_, in.path);
  return *first_schema_;
}

DataFrame NdjsonFormat::read(const ScanInput& in, const std::vector<std::string>& columns,
                             std::optional<int64_t> n_rows, const ReadHints&) {
  const Schema s = schema(in);
  Buffer hold;
  std::string inflated;
  auto [data, size] = text_of(in, hold, inflated);
  JsonReadOptions o = options_;
  o.columns = columns;
  o.n_rows = n_rows;
  return read_ndjson(data, size, o, in.path, &s);
}

}  // namespace frazil::io
