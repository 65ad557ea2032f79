// File scans in the plan format: the sources and the options every scan has
// (io::FileScanArgs: paths, in-memory bytes, hive, row index, schema, cast policy, ...) and
// each format's own options. Reading one back builds the scan again (globs expanded and the
// files' schema read then), as the scan_* function that made it did.
#pragma once

#include "frazil/dsl/dsl_plan.hpp"
#include "frazil/serde/byte_io.hpp"

namespace frazil::serde {

void write_scan_source(ByteWriter& w, const dsl::ScanSource& source);
dsl::ScanSource read_scan_source(ByteReader& r);

}  // namespace frazil::serde
