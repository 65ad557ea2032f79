// libFuzzer target for frazil's Parquet reader: any input must either decode or raise a
// frazil::Error; crashes, hangs, sanitizer reports and std::bad_alloc are bugs.
//
// Not wired into CMake (see the io/parquet report). Build by hand, e.g.:
//   clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -Isrc -Iinclude \
//     tests/fuzz/parquet_fuzz.cpp src/frazil/core/*.cpp src/frazil/io/parquet/*.cpp \
//     -lzstd -llz4 -lsnappy -lz -lpthread -o parquet_fuzz
//   ./parquet_fuzz -rss_limit_mb=2048 -max_len=262144 tests/data/parquet/
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "frazil/core/error.hpp"
#include "frazil/io/parquet/file_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace frazil;
  using namespace frazil::io::parquet;
  Buffer bytes = Buffer::allocate(size);
  if (size) std::memcpy(bytes.mutable_data(), data, size);
  ReaderLimits limits;
  // Keep what a footer may legitimately ask for within the fuzzer's memory limit.
  limits.max_rows_per_row_group = 1 << 20;
  limits.max_values_per_column_chunk = 1 << 20;
  try {
    auto file = ParquetFile::from_buffer(bytes, "fuzz.parquet", limits);
    for (size_t g = 0; g < file->num_row_groups(); ++g) {
      file->row_group_stats(g);
      DataFrame df = file->read_row_group(g);
      // Touch every value so that wrong offsets or views are found by the sanitizers.
      for (const Column& c : df.columns())
        for (int64_t i = 0; i < c.length(); ++i) (void)c.get(i).to_string();
    }
  } catch (const InternalError&) {
    __builtin_trap();  // an internal invariant broke: that is a bug, not bad input
  } catch (const Error&) {
  }
  return 0;
}
