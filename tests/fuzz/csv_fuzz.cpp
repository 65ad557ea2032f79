// libFuzzer target for the CSV reader and writer. The first bytes pick options (separator,
// quoting, comments, header, small chunks, inference, encoding, ...); the rest is the CSV
// text. Any frazil::Error is an accepted outcome; a crash, a hang, an internal check
// failure or a round trip that changes the data is a bug.
//
// Build (clang only): clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined
//   -Isrc tests/fuzz/csv_fuzz.cpp <frazil sources of core and io/csv> -o csv_fuzz
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "frazil/core/error.hpp"
#include "frazil/io/csv/csv_reader.hpp"
#include "frazil/io/csv/csv_writer.hpp"

using namespace frazil;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint8_t a = data[0], b = data[1], c = data[2], d = data[3];
  std::string text(reinterpret_cast<const char*>(data + 4), size - 4);

  io::CsvReadOptions o;
  static const char kSeps[] = {',', ';', '\t', '|'};
  o.separator = kSeps[a & 3];
  if (a & 4) o.quote_char = std::nullopt;
  if (a & 8) o.comment_prefix = "#";
  o.has_header = !(a & 16);
  o.truncate_ragged_lines = a & 32;
  o.try_parse_dates = a & 64;
  o.ignore_errors = a & 128;
  o.chunk_size_bytes = (b & 1) ? 1 + (b >> 1) : 0;  // tiny chunks exercise the boundary checks
  o.infer_schema_length = (c & 3) == 0 ? std::optional<int64_t>() : std::optional<int64_t>((c & 3) - 1);
  if (c & 4) o.encoding = io::CsvEncoding::Utf8Lossy;
  if (c & 8) o.null_values = io::NullValues::for_all({"NA", ""});
  if (c & 16) o.missing_utf8_is_empty_string = true;
  if (c & 32) o.decimal_comma = o.separator != ',';
  if (c & 64) o.n_rows = d & 15;
  if (c & 128) o.row_index_name = "__idx";
  o.skip_rows = d >> 6;
  o.skip_rows_after_header = (d >> 4) & 3;
  if (d & 8) o.eol_char = '\r';

  DataFrame df;
  try {
    df = io::read_csv_bytes(text, o);
  } catch (const InternalError&) {
    std::abort();  // a frazil bug, not bad input
  } catch (const Error&) {
    return 0;
  }

  // Whatever was read must survive a write and a read with its own schema.
  if (df.width() == 0) return 0;
  try {
    std::string out = io::write_csv_string(df);
    io::CsvReadOptions back;
    back.schema = df.schema();
    DataFrame again = io::read_csv_bytes(out, back);
    if (!again.equals(df)) std::abort();
  } catch (const InternalError&) {
    std::abort();
  } catch (const Error&) {
    // e.g. names that repeat after a rename; not a round-trip failure of the data.
  }
  return 0;
}
