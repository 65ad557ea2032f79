// Record assembly: turns the decoded leaves of one top-level column (levels + values)
// into a frazil array, building List offsets and Struct/List validity from the
// repetition and definition levels.
#pragma once

#include <vector>

#include "frazil/core/array.hpp"
#include "frazil/io/parquet/column_reader.hpp"
#include "frazil/io/parquet/schema.hpp"

namespace frazil::io::parquet {

// True when no leaf under `node` is repeated: leaves were decoded `spaced` and the
// column assembles without walking levels.
bool is_flat(const SchemaNode& node, const std::vector<LeafColumn>& leaves);

// `results` is indexed by leaf index; only the leaves under `node` are read. Throws
// DecodeError when the levels are inconsistent.
ArrayRef assemble_column(const SchemaNode& node, const std::vector<LeafColumn>& leaves,
                         const std::vector<LeafResult>& results);

}  // namespace frazil::io::parquet
