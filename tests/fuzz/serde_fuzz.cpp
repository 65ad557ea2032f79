// libFuzzer target for the plan format's reader (serde/): the bytes are read as a serialized
// expression or LazyFrame plan (the first byte picks which; file scans are refused so that no
// file is opened). Any frazil::Error is an accepted outcome; a crash, a hang, an over-read or
// a huge allocation is a bug. What reads back must write the same bytes again (a fixed point).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "frazil/core/error.hpp"
#include "frazil/serde/scan/scan_codec.hpp"
#include "frazil/serde/serialize.hpp"

using namespace frazil;

// The fuzz build may leave out the scan codec (serde/scan, which needs every layer above
// io): scans are refused before it would be called, so these only satisfy the linker there.
namespace frazil::serde {
__attribute__((weak)) void write_scan_source(ByteWriter&, const dsl::ScanSource&) {
  throw ComputeError("scans are not serialized in the fuzz build");
}
__attribute__((weak)) dsl::ScanSource read_scan_source(ByteReader& r) { r.fail("a scan in the fuzz build"); }
}  // namespace frazil::serde

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const bool expr = data[0] % 2 == 0;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  serde::ReadOptions options;
  options.allow_scans = false;
  std::string once;
  try {
    once = expr ? serde::serialize_expr(serde::deserialize_expr(bytes, options))
                : serde::serialize_dsl_plan(serde::deserialize_dsl_plan(bytes, options));
  } catch (const InternalError&) {
    throw;
  } catch (const Error&) {
    return 0;
  }
  const std::string twice = expr ? serde::serialize_expr(serde::deserialize_expr(once, options))
                                 : serde::serialize_dsl_plan(serde::deserialize_dsl_plan(once, options));
  if (once != twice) __builtin_trap();
  return 0;
}
