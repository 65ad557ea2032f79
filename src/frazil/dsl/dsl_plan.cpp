#include "frazil/dsl/dsl_plan.hpp"

namespace frazil::dsl {

const char* scan_format_name(ScanFormat f) {
  switch (f) {
    case ScanFormat::Csv: return "csv";
    case ScanFormat::Parquet: return "parquet";
    case ScanFormat::Ipc: return "ipc";
    case ScanFormat::Ndjson: return "ndjson";
  }
  return "?";
}

}  // namespace frazil::dsl
